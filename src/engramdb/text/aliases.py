"""Names as the entity page (recall/entity.py) compares them, and the other names a sentence
gives one.

``fold``: the form two spellings of one name share ("Order-System" and "order system").
``names_in``: whether a text names a folded name: as whole words in Latin script ("Lei" is
not in "Leipzig"), as a substring in Chinese (no spaces between words).
``part_of``: a shorter name inside a longer one as whole words ("Lei" in "Wang Lei"), or at
least two Chinese characters inside a longer name ("订单系统" in "订单系统项目"; "磊" alone is not).
``declared``: the other names a sentence gives something it names, by a cue:
"X, also known as Y", "X (aka Y)", "X goes by Y", "X is short for Y", "Y stands for X" and in
Chinese "X又名Y", "X也叫Y", "X简称Y", "X的外号是Y", "X的小名叫Y". An English name after a cue is a
quoted phrase or a run of up to three capitalised words; a Chinese one runs to the next
punctuation or space (at most eight characters)."""

from __future__ import annotations

import re

from .tokenize import is_cjk, normalize

_FOLD = re.compile(r"[\s\-_/·・.]+")
_EN_NAME = r"(?:[\"'“‘]([^\"'”’]{1,40})[\"'”’]|((?:[A-Z][\w'&-]*)(?:\s+[A-Z][\w'&-]*){0,2}))"
_EN_CUE = re.compile(
    r"\b(?:also\s+(?:known\s+as|called|named)|a\.?k\.?a\.?|known\s+as|nicknamed|goes\s+by|"
    r"short\s+for|stands\s+for|abbreviated\s+(?:as|to))\s*:?\s*" + _EN_NAME)
_ZH_CUE = re.compile(r"(?:又名|又叫|也叫|也称|又称|简称|外号|绰号|小名|昵称|别名|全称)"
                     r"(?:是|为|叫|叫做)?[“\"「『]?([^\s，。,.;；！!？?、”\"」』)）]{1,8})")
_CLAUSE = re.compile(r"[.;!?。；！？\n]+")


def fold(name: str) -> str:
    """Lower case, NFKC, and hyphens, dots, slashes, underscores and spaces as one space."""
    return _FOLD.sub(" ", normalize(name)).strip()


def names_in(folded_text: str, folded_name: str) -> bool:
    """Whether ``folded_text`` (a ``fold``ed text) names ``folded_name``."""
    if not folded_name:
        return False
    if is_cjk(folded_name):
        return folded_name in folded_text
    return re.search(rf"(?<![\w]){re.escape(folded_name)}(?![\w])", folded_text) is not None


def part_of(short: str, long: str) -> bool:
    """Whether folded ``short`` is a proper part of folded ``long`` (see the module doc)."""
    if short == long or not short:
        return False
    if is_cjk(short):
        return len(short) >= 2 and short in long
    return names_in(long, short)


def declared(text: str, folded_name: str) -> list[str]:
    """The other names ``text`` gives ``folded_name`` (as written), in order, each once."""
    out: dict[str, str] = {}
    for clause in _CLAUSE.split(text):
        for before, alias in _pairs(clause):
            key = fold(alias)
            if not key:
                continue
            if names_in(fold(before), folded_name) and key != folded_name:
                out.setdefault(key, alias.strip())
            elif key == folded_name:
                subject = _subject(before)
                if subject and fold(subject) != folded_name:
                    out.setdefault(fold(subject), subject)
    return list(out.values())


def _pairs(clause: str) -> list[tuple[str, str]]:
    """(the text before a cue, the name after it) for each cue in a clause."""
    found = [(m.start(), m.group(1) or m.group(2) or "") for m in _EN_CUE.finditer(clause)]
    found += [(m.start(), m.group(1)) for m in _ZH_CUE.finditer(clause)]
    return [(clause[:start], alias) for start, alias in found if alias.strip()]


def _subject(before: str) -> str | None:
    """The name just before a cue: "Lei-Lei, also known as ..." -> "Lei-Lei"; in Chinese the
    run of characters before it ("磊哥又名..." -> "磊哥")."""
    before = re.sub(r"(?:\s*[,(，（]\s*|\s+(?:is|was|are)\s*|的)$", "", before.rstrip())
    zh = re.search(r"([^\s，。,.;；！!？?、”\"」』(（]{1,8})$", before)
    if zh and is_cjk(zh.group(1)):
        return zh.group(1)
    en = re.search(r"((?:[A-Z][\w'&-]*)(?:\s+[A-Z][\w'&-]*){0,2})$", before)
    return en.group(1) if en else None

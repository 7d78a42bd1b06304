"""Which language a text is written in, for the two engramdb reads first-class: Chinese or
English (any text in Latin letters counts as ``en``).

A Chinese character carries about a word, an English word several letters, so the text is
``zh`` when it holds at least as many CJK characters as Latin words: "我在Google工作" is
``zh``, "I love 饺子 and noodles" is ``en``. A text with neither is ``en`` (digits, symbols).
Cheap: one regular-expression pass, no model."""

from __future__ import annotations

import re
from collections.abc import Iterable

ZH = "zh"
EN = "en"

_CJK_CHAR = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")


def language(text: str) -> str:
    """``zh`` or ``en``: the language most of the text's words are in."""
    cjk = len(_CJK_CHAR.findall(text))
    if cjk == 0:
        return EN
    return ZH if cjk >= len(_LATIN_WORD.findall(text)) else EN


def script(text: str) -> str:
    """``zh`` where the text holds any Chinese character, else ``en``: the language a question
    is read in by the recall (its model's half of a routed vector, its background, its bank),
    which a question with one Chinese word already needs (``language`` weighs the two)."""
    return ZH if _CJK_CHAR.search(text) else EN


def other(lang: str) -> str:
    return EN if lang == ZH else ZH


def majority(texts: Iterable[str]) -> str | None:
    """``zh`` when most of the texts are Chinese, ``en`` otherwise; None for no text."""
    langs = [language(t) for t in texts]
    if not langs:
        return None
    return ZH if 2 * langs.count(ZH) > len(langs) else EN

"""Subject-predicate-object triples read from a fact's structure (write/reading.py).

Each sentence of an identity, preference or fact is read once; where it says values about a
subject, it gives one triple:
- subject: "user" when the statement is the user's ("I", "my", 我, 我们), else the words before
  the predicate that name who or what it is about ("parents", "staging cluster", 爸妈), lower
  case; a sentence with no subject said ("Traded the Yaris in for ...") gives none;
- predicate: the clause from its predicate on, its values masked (``X`` inside, dropped at the
  ends), without negations, change cues ("now", 现在) after the verb, mood words ("might",
  "today", 可能: write/reading.py ``MOODS``) and function words other than the verb's copulas
  and prepositions; English words stemmed ("lives in" and "live in" are one predicate);
- object: the values the clause says hold (names, places, numbers with their units, dates,
  versions, codes: write/align.py's value tokens), not those it marks as former ("..., not
  Everest", "from Jira to ..."), as written; several joined by ", ".

A sentence without values (a question, "I like tea") gives no triple: what holds it together is
then plain words, and the text itself says it. Triples are an index, like the full-text one:
derived from the text by this module whenever the index text is written (write/prepare.py
``index_text``), kept in each store's ``triples`` table, never in the memory's data or its event
snapshots (a redaction or a hard forget of the text leaves no value behind in them)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Kind
from ..store.protocol import Triple
from ..text.tokenize import is_cjk
from .align import CUE, MARK, NEG, POSS, STOP, VALUE, Tok
from .reading import MOODS, USER_WORDS, Reading, Subject, _spans, _zh_verb, read

TRIPLE_KINDS = frozenset({Kind.IDENTITY, Kind.PREFERENCE, Kind.FACT})
MAX_TRIPLES = 8          # sentences read per memory
MAX_SENTENCE = 400       # characters: a longer sentence is a paragraph, not a statement
_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])|(?<=\.)\s+")
_MOOD_WORDS = frozenset().union(*MOODS.values())
_NOT_NOW = frozenset({"question", "plan", "past", "passing"})  # reading.py's moods
_ZH_USER = frozenset({"我", "我们", "咱们"})
_COPULA = frozenset({"is", "are", "am", "'s", "'re", "'m", "be"})


def read_triples(content: str, kind: Kind) -> tuple[Triple, ...]:
    """The triples of ``content`` when it is of a kind that states facts, else none."""
    if kind not in TRIPLE_KINDS or not isinstance(content, str):
        return ()
    return _read(content)


@lru_cache(maxsize=4096)
def _read(content: str) -> tuple[Triple, ...]:
    out: list[Triple] = []
    for sentence in _SENTENCE.split(content):
        sentence = sentence.strip()
        if not sentence or len(sentence) > MAX_SENTENCE:
            continue
        found = triple_of(sentence)
        if found is not None and found not in out:
            out.append(found)
        if len(out) >= MAX_TRIPLES:
            break
    return tuple(out)


def triple_of(sentence: str) -> Triple | None:
    """The triple one sentence says, or None (no subject said, no value, a question)."""
    r = read(sentence)
    if r.moods & _NOT_NOW or not r.clause:
        return None
    toks = r.clause
    start = _pronoun_start(toks)
    subject_ = r.subject if start is None else Subject("user", ())
    start = r.start if start is None else start
    while start > 1 and toks[start - 1].type == CUE:   # "Kenji moved to ...": the cue is the verb
        start -= 1
    if subject_.kind == "none":
        return None
    values = [(a, b) for a, b in _spans(toks)
              if b >= start and " ".join(t.norm for t in toks[a:b + 1]) not in r.former]
    if not values:
        return None
    subject = subject_text(subject_, toks[:start])
    predicate = _predicate(toks, start, values)
    if not subject or not predicate:
        return None
    obj = ", ".join(_written(toks[a:b + 1]) for a, b in values)
    return Triple(subject, predicate, obj)


def _pronoun_start(toks: tuple[Tok, ...]) -> int | None:
    """1 when the clause opens with the user as its subject and the predicate right after:
    "I" / "we" followed by anything (English puts no noun between a pronoun and its verb:
    "I also subscribe to ..."), 我 / 我们 followed by a verb, a cue or a function word (not by a
    noun it possesses: 我爸妈); else None (the reading's subject and predicate stand)."""
    if len(toks) < 2:
        return None
    first, nxt = toks[0], toks[1]
    if first.surface.lower() in ("i", "we"):
        return 1
    if first.surface in _ZH_USER and (nxt.verb or nxt.type in (CUE, STOP) or _zh_verb(nxt)):
        return 1
    return None


def subject_text(subject: Subject, head: tuple[Tok, ...]) -> str:
    if subject.kind == "user":
        return "user"
    words = [t for t in head if t.type not in (STOP, POSS, MARK, NEG, CUE)
             and t.surface.lower().split("'")[0] not in USER_WORDS and not t.time]
    return _written(tuple(words)).lower()


def _predicate(toks: tuple[Tok, ...], start: int, values: list[tuple[int, int]]) -> str:
    masked = {i for a, b in values for i in range(a, b + 1)}
    words: list[str] = []
    for i in range(start, len(toks)):
        tok = toks[i]
        if i in masked or (tok.type == VALUE and not _zh_verb(tok)):
            if words and words[-1] != "X":
                words.append("X")
            continue
        if not _kept(toks, i, start) or tok.surface.lower() in _MOOD_WORDS:
            continue
        low = tok.surface.lower()
        words.append("be" if low in _COPULA else _verb(tok) if not words else low)
    while words and words[-1] == "X":
        words.pop()
    while words and words[0] == "X":
        words.pop(0)
    return _join(words)


def _kept(toks: tuple[Tok, ...], i: int, start: int) -> bool:
    """A word of the predicate: content words, copulas and prepositions; a change cue only as
    the verb itself, before a preposition or a value ("moved to", "switched from", 换成 X), not
    as an adverb before the verb ("now live in", 现在住在, 其实该穿)."""
    tok = toks[i]
    if tok.type == CUE:
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        return i == start and (nxt is None or (nxt.type in (VALUE, MARK) and not _zh_verb(nxt))
                               or (nxt.type == STOP and not is_cjk(nxt.surface)))
    return tok.type not in (NEG, STOP, POSS, MARK) or tok.verb


def _verb(tok: Tok) -> str:
    """The verb as written, an English third person's "s" dropped ("lives" -> "live")."""
    low = tok.surface.lower()
    if low.endswith("s") and not low.endswith("ss") and low[:-1].startswith(tok.norm):
        return low[:-1]
    return low


def _written(toks: tuple[Tok, ...]) -> str:
    return _join([t.surface for t in toks])


def _join(words: list[str]) -> str:
    """Words joined by spaces, except between two Chinese ones (杭州西湖区, 8点40)."""
    out = ""
    for word in words:
        if out and not (_cjk_edge(out[-1]) or _cjk_edge(word[0])):
            out += " "
        out += word
    return out


def _cjk_edge(ch: str) -> bool:
    return is_cjk(ch)


def subjects_apart(new: str, old: str) -> bool:
    """Two statements about subjects that cannot be one (write/reading.py ``Subject.differs``):
    "I live in Hangzhou" / "My parents live in Shaoxing"."""
    return read(new).subject.differs(read(old).subject)


def reading(text: str) -> Reading:
    return read(text)

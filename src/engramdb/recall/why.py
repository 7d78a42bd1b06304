"""One line a person can read for each hit: what brought it (the asked person, place or topic
it names, the query's words it holds, its meaning, the archive, a link to a top hit), what it
is (the newest value of the asked slot, an earlier value and what replaced it, in the asked
time) and how old it is, e.g. "same place as asked: Berlin · the word 'lives' · newest value
of Maya's residence · 3 days ago".

It is read from what the hit already holds (its legs, relevance terms and notes, its record)
and from the query, the plan and the clock's now: no store query. The engine sets it once per
recall (``Explanation.summary``, ``Hit.why``); the full terms stay in the explanation. The
line is English; quoted words and contents stay as written, Chinese included."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from itertools import groupby
from typing import Any

from ..model import Hit, Record
from ..text import tokenize
from ..text.lang import language
from ..write.slots import USER, slot_of
from .conflicts import earlier_of, later_of
from .crosslingual import LEG as CROSS
from .relevance import GAP0
from .temporal import POINT_KINDS
from .wake import HALF, MIN_KINDS, Query, anchor_match, cues

SEP = " · "
MAX_WORDS = 3     # query words quoted per hit
QUOTE = 40        # characters of another memory's content quoted
STANDOUT = 2.0    # the cross-lingual leg's standing (z-score in its language) that is close
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# a run of CJK characters (its group) or a word without any
_PIECE = re.compile(rf"([{_CJK}]+)|[^\W_{_CJK}]+(?:['’-][^\W_{_CJK}]+)*", re.UNICODE)
_ANCHORS = (("person", "people"), ("place", "places"), ("topic", "topics"))


@dataclass(frozen=True)
class Asked:
    """What the line reads from the query: its cues, its content words (not the time it
    names), the words expansion added, the time it names (when applied), the clock's now."""

    query: Query | None
    now: datetime
    words: frozenset[str] = frozenset()
    expansion: frozenset[str] = frozenset()
    window: str = ""

    @classmethod
    def of(cls, query: str | None, plan: dict[str, Any], now: datetime) -> Asked:
        cue = Query.of(query, tokenize(query), now) if query else None
        stage = (plan.get("stages") or {}).get("expansion") or {}
        window = plan.get("window") or {}
        expr = str(window.get("expr") or window.get("label") or "")
        words = cue.tokens - frozenset(tokenize(expr)) if cue is not None else frozenset()
        return cls(cue, now, words, frozenset(stage.get("terms") or ()),
                   expr if window.get("applied") else "")


@dataclass(frozen=True)
class Others:
    """The other hits of the same recall: the top hit an associated one came from, the value
    that replaced an earlier one, the earlier value a newest one replaced."""

    hits: Sequence[Hit] = ()
    by_id: dict[str, Record] = field(default_factory=dict)
    former: dict[str, Record] = field(default_factory=dict)  # successor id -> earlier value

    @classmethod
    def of(cls, hits: Sequence[Hit]) -> Others:
        by_id = {h.memory.id: h.memory for h in hits}
        former = {}
        for h in hits:
            if h.memory.superseded_by is not None:
                former.setdefault(h.memory.superseded_by, h.memory)
        return cls(hits, by_id, former)


def describe(hits: Sequence[Hit], query: str | None, now: datetime,
             plan: dict[str, Any] | None = None) -> None:
    """Set each hit's one-line summary (``hit.explanation.summary``)."""
    asked, others = Asked.of(query, plan or {}, now), Others.of(hits)
    for hit in hits:
        hit.explanation.summary = line(hit, asked, others)


def line(hit: Hit, asked: Asked, others: Others | None = None) -> str:
    others = others or Others()
    parts = [*found_by(hit, asked, others), *standing(hit, asked, others),
             age(hit.memory.at, asked.now)]
    return SEP.join(p for p in parts if p)


# ---------------------------------------------------------------- what brought it


def found_by(hit: Hit, asked: Asked, others: Others) -> list[str]:
    legs, rec = hit.explanation.legs, hit.memory
    if "links" in legs:
        return [_linked_path(hit)]
    if "associate" in legs:
        return [_associated(hit, others.hits)]
    out = []
    if "uri" in legs:
        out.append(f"under the URI asked: {rec.uri}" if rec.uri else "under the URI asked")
    if hit.woken or "wake" in legs:
        out.append(_woken(hit, asked))
        return out
    named = _named_anchors(rec, asked.query)
    out += [f"same {kind} as asked: {', '.join(anchors)}" for kind, anchors in named]
    # relevance found no asked word in its text or context (lexical 0): none to look for
    holds = hit.explanation.terms.get("lexical", 1.0) > 0
    said = {t for _, anchors in named for a in anchors for t in tokenize(a)}
    words = [w for w in _words(rec.content, asked) if said.isdisjoint(tokenize(w))] \
        if holds else []
    if words:
        out.append(_quoted(words, hit, every=not named))
    elif not named and asked.words:
        out += _other_words(hit, asked, holds)
    meaning = _meaning(hit, asked, bool(named or words))
    if meaning:
        out.append(meaning)
    if not out and not asked.window:  # in the time asked: standing says so
        out.append(_legs_in_words(hit))
    return out


def _named_anchors(rec: Record, query: Query | None) -> list[tuple[str, list[str]]]:
    if query is None:
        return []
    out = []
    for one, many in _ANCHORS:
        anchors = [a for a in getattr(rec, many) if anchor_match(a, query) >= HALF]
        if anchors:
            out.append((one if len(anchors) == 1 else many, anchors))
    return out


def _words(text: str, asked: Asked, wanted: frozenset[str] | None = None) -> list[str]:
    """The words of ``text``, as written, whose search tokens the query has (Chinese: the
    runs of characters the matched words cover, "最喜欢" for 最 and 喜欢)."""
    wanted = asked.words if wanted is None else wanted
    if not wanted:
        return []
    found: dict[str, str] = {}
    for m in _PIECE.finditer(text):
        piece = m.group(0)
        if m.lastindex:   # a CJK run (is_cjk's characters)
            words = _covered(piece, [t for t in tokenize(piece) if t in wanted])
        else:
            words = [piece] if not wanted.isdisjoint(_piece_tokens(piece)) else []
        for word in words:
            found.setdefault(word.lower(), word)
    return list(found.values())


@lru_cache(maxsize=16384)
def _piece_tokens(piece: str) -> frozenset[str]:
    return frozenset(tokenize(piece))


def _covered(run: str, words: list[str]) -> list[str]:
    """The stretches of ``run`` that ``words`` cover, in order."""
    covered = [False] * len(run)
    for word in words:
        start = run.find(word)
        while start >= 0:
            covered[start : start + len(word)] = [True] * len(word)
            start = run.find(word, start + 1)
    out, at = [], 0
    for hit, same in groupby(covered):
        n = len(list(same))
        if hit:
            out.append(run[at : at + n])
        at += n
    return out


def _quoted(words: list[str], hit: Hit, every: bool = True) -> str:
    shown = ", ".join(f"'{w}'" for w in words[:MAX_WORDS])
    more = f" and {len(words) - MAX_WORDS} more" if len(words) > MAX_WORDS else ""
    if every and hit.explanation.terms.get("lexical", 0.0) >= 0.999 and len(words) > 1:
        return f"every word asked: {shown}{more}"
    return f"the word{'s' if len(words) > 1 else ''} {shown}{more}"


def _other_words(hit: Hit, asked: Asked, holds: bool = True) -> list[str]:
    """No asked word in its text: one in its context, or a word the top hits share."""
    rec = hit.memory
    context = _words(rec.context or "", asked) if holds else []
    if context:
        return [f"its context has {_quoted(context, hit, every=False)}"]
    if "expansion" in hit.explanation.legs and asked.expansion:
        shared = _words(rec.content, asked, asked.expansion)
        if shared:
            quoted = ", ".join(f"'{w}'" for w in shared[:MAX_WORDS])
            return [f"shares {quoted} with the top hits"]
    return []


def _meaning(hit: Hit, asked: Asked, matched: bool) -> str:
    """Close in meaning: the memory stands out from its language's memories for this query
    (the cross-lingual leg's standing, a z-score) or from the scope's background (the dense
    gap); without either (no relevance computed), a dense rank in the first few."""
    legs, terms = hit.explanation.legs, hit.explanation.terms
    if "dense" not in legs and CROSS not in legs:
        return ""
    if "dense_standing" in terms:
        close = terms["dense_standing"] >= STANDOUT
    elif "relevance" in terms:
        close = terms.get("dense_gap", 0.0) >= GAP0
    else:
        close = bool(legs.get("dense") and legs["dense"].rank <= 3)
    if close:
        query = asked.query.text if asked.query is not None else ""
        across = bool(query) and language(query) != language(hit.memory.content)
        return "matched across languages: close in meaning" if across else "close in meaning"
    if matched or not asked.words or asked.window:  # in the time asked: that is why
        return ""
    return "no word asked; only loosely related in meaning"


def _woken(hit: Hit, asked: Asked) -> str:
    found = cues(hit.memory, asked.query) if asked.query is not None else []
    said = ["the time asked" if c.kind == "time" else f"{c.kind} {c.anchor}" for c in found]
    note = hit.explanation.notes[0] if hit.explanation.notes else ""
    where = "the cold tier" if note.startswith("woken from the cold tier") else "the archive"
    if len({c.kind for c in found}) < MIN_KINDS:  # the query's words or meaning (wake.py)
        if ", words " in note or note.startswith(f"woken from {where} by words"):
            said.append("the words asked")
        if "meaning" in note:
            said.append("what the query means")
    promoted = any(n == "promoted to core" for n in hit.explanation.notes)
    text = f"woken from {where} by {', '.join(said)}"
    return text + (", brought back" if promoted else "")


def _associated(hit: Hit, hits: Sequence[Hit]) -> str:
    """Which top hit led to it: the first whose id its trace names."""
    trace = " ".join(hit.explanation.notes)
    seed = next((h for h in hits if h is not hit and h.memory.id in trace), None)
    text = f"linked to a top hit: {_snippet(seed.memory.content)}" if seed is not None \
        else "linked to a top hit"
    return text + (" (woken from the archive)" if hit.woken else "")


def _linked_path(hit: Hit) -> str:
    leg = hit.explanation.legs["links"]
    relations = re.findall(r"(\w+) (?:->|<-)", " ".join(hit.explanation.notes))
    via = f" by {', '.join(dict.fromkeys(relations))}" if relations else ""
    return f"{leg.rank} link{'s' if leg.rank != 1 else ''} away{via}"


_LEG_WORDS = {"bm25": "its words", "anchors": "its people, places or topics",
              "dense": "its meaning", CROSS: "its meaning across languages",
              "expansion": "words the top hits share", "uri": "its URI",
              "wake": "the archive", "associate": "a link to a top hit", "links": "a link"}


def _legs_in_words(hit: Hit) -> str:
    legs = [_LEG_WORDS.get(name, name) for name in hit.explanation.legs]
    return f"found by {', '.join(dict.fromkeys(legs))}" if legs else "no match of its own"


# ---------------------------------------------------------------- what it is


def standing(hit: Hit, asked: Asked, others: Others) -> list[str]:
    rec, terms = hit.memory, hit.explanation.terms
    out = []
    asked_slot = "slot_factor" in terms
    if rec.invalid_at is not None:
        after = others.by_id.get(rec.superseded_by or "")
        what = f"earlier {_slot(rec)}" if asked_slot else "earlier value"
        by = f" by {_snippet(after.content)}" if after is not None else ""
        out.append(f"{what}, replaced{by} on {rec.invalid_at.date()}")
    elif later_of(hit) is not None:  # an earlier value a newer hit states anew (conflicts.py)
        after = others.by_id.get(later_of(hit) or "")
        by = f": {_snippet(after.content)} said later" if after is not None else ""
        out.append(f"earlier value{by}")
    else:
        before = others.former.get(rec.id)
        if before is None and earlier_of(hit) is not None:
            before = others.by_id.get(earlier_of(hit) or "")
        if asked_slot:
            out.append(f"newest {_slot(rec)}")
        elif before is not None:
            out.append("newest value")
        if before is not None:
            out[-1] += f" (was {_snippet(before.content)})"
    if asked.window:
        held = "in" if rec.kind in POINT_KINDS else "held during"
        out.append(f"{held} the time asked: {asked.window}")
    collapsed = int(terms.get("collapsed", 0))
    if collapsed:
        out.append(f"{collapsed} more stored alike")
    return out


def _slot(rec: Record) -> str:
    slot = slot_of(rec.content, rec.kind)
    if slot is None:
        return "value asked"
    if slot.subject == USER:
        return f"value of the user's {slot.attribute}"
    start = rec.content.lower().find(slot.subject)
    name = rec.content[start : start + len(slot.subject)] if start >= 0 else slot.subject
    return f"value of {name}'s {slot.attribute}"


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return f"'{text if len(text) <= QUOTE else text[: QUOTE - 1] + '…'}'"


# ---------------------------------------------------------------- when


def age(at: datetime, now: datetime) -> str:
    """How long ago ``at`` was, rounded in the largest unit that fits (later: "in ...")."""
    days = (now - at).total_seconds() / 86400.0
    ahead, days = days < 0, abs(days)
    if days < 1:
        return "later today" if ahead else "today"
    if days < 2:
        return "tomorrow" if ahead else "yesterday"
    if days < 14:
        return _ago(int(days), "day", ahead)
    for unit, size, below in (("week", 7, 60), ("month", 30.44, 730)):
        if days < below:
            return _ago(round(days / size), unit, ahead)
    return _ago(round(days / 365.25), "year", ahead)


def _ago(n: int, unit: str, ahead: bool) -> str:
    span = f"{n} {unit}{'s' if n != 1 else ''}"
    return f"in {span}" if ahead else f"{span} ago"

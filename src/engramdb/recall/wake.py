"""Waking archived memories: a query that names an archived memory's anchors, says its words
or means it (recall/wakemeaning.py) returns it, marked as woken, next to the core hits.

- Anchors: the memory's ``people``, ``places`` and ``topics`` named in the query, and a time the
  query names (text/timeexpr.py) that holds its ``at``. Each kind scores how much of its best
  anchor the query names (1 = all of it; a kind counts from one half). Two kinds wake it; one
  kind and the meaning of the rest of the query count as two ("that trip with Wang").
- Meaning: the memory stands out from its scope's background for this query (per language and
  model, averaged over the embedder's models), above what chance gives the best of that many
  memories: a "meaning" cue, 0.5 to 1.
- Words: the memory holds most of the query's content words: a "words" cue, their share.
The wake score is the sum of the cues. A strong cue (wake score >= 2: two anchor kinds named in
full, or the words and a clear meaning together) promotes the memory back to core when the
recall is tracked; a weak one wakes it without promoting. A tracked recall also counts as a use
of every memory it returns, woken ones included (the reconsolidation bonus).
``recall(track=False)`` still returns woken memories, marked as woken, but changes nothing.
The cold tier (memories archived for ``Config.cold_after``, dynamics/cold.py) is searched the
same way when a recall asks for it (``include_cold=True``); a strong cue brings a cold memory
back to core, its index back into the hot store (store/cold.py).

A woken hit is scored like a fused one: woken by anchors, as if each fully named kind were a
first-ranked leg (``wake_score / (rrf_k + 1)``); woken by meaning or words, which stand out of
the whole scope, as if first in every leg of the preset. Times the strength factor. It competes
with the core hits for the k slots, and at most ``preset.wake_slots`` (2) go to woken memories.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from ..dynamics.strength import DecayParams, weight
from ..model import Explanation, Hit, Kind, Layer, LegScore, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text import is_cjk, normalize, tokenize
from ..text.timeexpr import Window, time_window
from .presets import Preset
from .wakemeaning import Cue, Meaning, meaning_cue, words_cue

MIN_KINDS = 2          # cue kinds needed to wake
STRONG = 2.0           # wake score that promotes
HALF = 0.5             # part of an anchor the query must name for its kind to count
DEPTH = 10             # archived candidates looked at, by anchor
IN_WINDOW = 50         # archived candidates looked at, by the time the query names
_KINDS = (("person", "people"), ("place", "places"), ("topic", "topics"))
_ANCHORED = {"person", "place", "topic", "time"}
# a "meaning" cue (recall/wakemeaning.py) counts as a kind of its own
_CJK_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


@dataclass(frozen=True)
class Query:
    """What a query offers as cues: its text, its tokens and the time it names."""

    text: str
    tokens: frozenset[str]
    window: Window | None

    @classmethod
    def of(cls, text: str, tokens: list[str], now: datetime) -> Query:
        return cls(normalize(text), frozenset(tokens), time_window(text, now))

    def search_terms(self) -> list[str]:
        """Its tokens, plus every 2- to 4-character run of its Chinese text: a name the
        segmenter splits in the query ("和小王去" -> "小", "王去") still finds the anchor."""
        grams = [run[i : i + n] for run in _CJK_RUN.findall(self.text)
                 for n in (2, 3, 4) for i in range(len(run) - n + 1)]
        return list(dict.fromkeys([*sorted(self.tokens), *grams]))


def cues(record: Record, query: Query) -> list[Cue]:
    """The best cue of each kind that the query gives for this memory."""
    found = []
    for kind, attr in _KINDS:
        scored = [(anchor_match(a, query), a) for a in getattr(record, attr)]
        best = max(scored, default=(0.0, ""))
        if best[0] >= HALF:
            found.append(Cue(kind, best[1], best[0]))
    if query.window and query.window[0] <= record.at < query.window[1]:
        start, end = query.window
        found.append(Cue("time", f"{start.date()}..{end.date()}", 1.0))
    return found


def anchor_match(anchor: str, query: Query) -> float:
    """How much of ``anchor`` the query names: Chinese by substring, other text by tokens."""
    cjk, parts = _anchor_parts(anchor)
    if cjk:
        if normalize(anchor) in query.text:
            return 1.0
        return sum(p in query.text for p in parts) / len(parts) if parts else 0.0
    return len(parts & query.tokens) / len(parts) if parts else 0.0


@lru_cache(maxsize=65536)
def _anchor_parts(anchor: str) -> tuple[bool, frozenset[str]]:
    """Is the anchor Chinese, and its words (stop words only if it has nothing else)."""
    parts = frozenset(tokenize(anchor)) or frozenset(tokenize(anchor, keep_stopwords=True))
    return is_cjk(anchor), parts


def asleep(store: Store, scope: Scope, layers: tuple[Layer, ...]) -> bool:
    """Does the scope hold a memory in ``layers``: kept between recalls where the store
    offers it (``layer_held``, the SQLite store), else one row listed."""
    held = getattr(store, "layer_held", None)
    if held is not None:
        return bool(held(scope, layers))
    return next(store.list(scope, ListFilter(layers=layers, limit=1)), None) is not None


def wake(store: Store, scope: Scope, text: str, tokens: list[str], preset: Preset,
         kinds: tuple[str, ...], now: datetime, params: DecayParams,
         meaning: Meaning | None = None,
         archived: tuple[Layer, ...] = (Layer.ARCHIVED,)) -> list[Hit]:
    """The archived memories the query's cues wake, best first, at most ``preset.wake_slots``.
    ``meaning`` (recall/wakemeaning.py): the query's vectors and the scope's background, so
    that a query that means a memory, in other words or the other language, wakes it.
    ``archived``: the layers searched (the cold tier too, where a recall asks for it)."""
    if preset.wake_slots <= 0 or not asleep(store, scope, archived):
        return []  # nothing archived in this scope: no search at all
    query = Query.of(text, tokens, now)
    found = store.search_text(scope, query.search_terms(), {"anchors": 1.0}, DEPTH, archived)
    found += store.search_text(scope, sorted(query.tokens), {"body": 1.0}, DEPTH, archived)
    records = store.get_many(scope, list(dict.fromkeys(mid for mid, _ in found)))
    if query.window:  # one anchor and the time: the anchor alone may rank low
        flt = ListFilter(layers=archived, since=query.window[0], until=query.window[1],
                         limit=IN_WINDOW, newest_first=True)
        records.update((r.id, r) for r in store.list(scope, flt))
    close = meaning.archived(store, scope, DEPTH) if meaning is not None else []
    records.update(store.get_many(scope, [m for m in close if m not in records]))
    standing = meaning.standing(store, scope) if meaning is not None else {}
    worldly = bool(standing) and meaning is not None and meaning.about_world()
    hits = []
    for rec in records.values():
        if kinds and rec.kind.value not in kinds:
            continue
        named = _cues(store, scope, rec, query, text, meaning if rec.id in close else None,
                      standing.get(rec.id), worldly)
        if named:
            hits.append(_woken_hit(rec, named, preset, now, params))
    hits.sort(key=lambda h: (-h.score, h.memory.id))
    for rank, hit in enumerate(hits, start=1):
        hit.explanation.legs["wake"].rank = rank
    return hits[: preset.wake_slots]


def _cues(store: Store, scope: Scope, rec: Record, query: Query, text: str,
          meaning: Meaning | None, z: tuple[float, float] | None,
          worldly: bool = False) -> list[Cue]:
    """The cues that wake ``rec``, or none: two kinds of anchor named (a named anchor and
    the meaning of the rest count as two, where ``meaning`` is given: ``rec`` is among the
    archived memories nearest the query); else the memory's meaning standing out from the
    scope (``z``: its standing and the standing that wakes it; not for an episode where the
    query asks about the world, ``worldly``), its words, or both."""
    named = cues(rec, query)
    if named and len({c.kind for c in named}) < MIN_KINDS and meaning is not None:
        cue = meaning.beyond(store, scope, rec.id, text, [c.anchor for c in named])
        if cue is not None:  # the query means it beyond the anchor it names
            named.append(cue)
    if len({c.kind for c in named}) >= MIN_KINDS:
        return named
    asks_else = worldly and rec.kind == Kind.EVENT   # an episode: called up by a cue of it
    found = [c for c in (meaning_cue(*z) if z is not None and not asks_else else None,
                         words_cue(rec, sorted(query.tokens), z[0] if z else None))
             if c is not None]
    return found


def _woken_hit(rec: Record, named: list[Cue], preset: Preset, now: datetime,
               params: DecayParams) -> Hit:
    score = sum(c.match for c in named)
    strength = weight(rec, now, params)
    # two named kinds rank as two first-ranked legs; the meaning or the words of a memory
    # that stands out from its whole scope rank as first in every leg
    anchored = any(c.kind in _ANCHORED for c in named)
    legs = 1.0 if anchored else sum(leg.weight for leg in preset.legs)
    fused = score * legs / (preset.rrf_k + 1)
    factor = 1.0 - preset.strength_weight + preset.strength_weight * strength
    strong = score >= STRONG
    what = ", ".join(f"{c.kind} {c.anchor}" + ("" if c.match == 1 else f" ({c.match:.0%})")
                     for c in named)
    where = "the cold tier" if rec.layer == Layer.COLD else "the archive"
    note = (f"woken from {where} by {what} (wake score {score:.2f}): "
            + ("a strong cue, promoted to core when tracked" if strong
               else "a weak cue, not promoted"))
    explanation = Explanation(
        legs={"wake": LegScore(0, score)}, fused=fused, strength=strength,
        terms={"rrf": fused, "strength_factor": factor, "wake_score": score,
               "strong_cue": float(strong)},
        final=fused * factor, notes=[note])
    return Hit(memory=rec, score=fused * factor, explanation=explanation, woken=True)


def promote(store: Store, scope: Scope, hits: list[Hit], now: datetime) -> list[str]:
    """Bring the strongly woken hits back to core (a tracked recall does this); returns their
    ids. Each hit's memory becomes the promoted record."""
    promoted = []
    for hit in hits:
        if not hit.woken or not hit.explanation.terms.get("strong_cue"):
            continue
        current = store.get(scope, hit.memory.id)
        if current is None or current.layer not in (Layer.ARCHIVED, Layer.COLD):
            continue   # a cold one comes back to the hot store with its index (store/cold.py)
        new = current.replace(layer=Layer.CORE, overdue_since=None, updated_at=now,
                              version=current.version + 1)
        store.save(new, "wake", actor="recall", reason=hit.explanation.notes[0])
        hit.memory = new
        hit.explanation.notes.append("promoted to core")
        promoted.append(new.id)
    return promoted

"""One piece of evidence, one place in the results.

- A memory extracted from a turn that repeats the turn's words (ingest keeps the turn as an
  event and the sentence as a fact) is collapsed into the better-ranked of the two.
- A gist and what it summarises: a higher gist and one of its source gists, or a gist and an
  episode folded into it (woken from the archive), at any distance up the levels
  (``metadata["gist"]`` of an episode, ``metadata["higher_gist"]`` of a gist,
  dynamics/gist.py and gist_levels.py). The better-ranked level keeps the place; the other
  level is dropped.

The kept hit's explanation names each hit collapsed into it and counts them
(``terms["collapsed"]``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..model import Hit, Record, Scope
from ..store.protocol import Store
from ..text import normalize

SAME_SHARE = 0.8  # the shorter text is at least this share of the longer one, and inside it
MAX_HOPS = 3      # an episode -> its gist -> level 2 -> level 3 (gist_levels.MAX_LEVEL)
UP_KEYS = ("gist", "higher_gist")   # the metadata that points one level up
_EDGE = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)


def _plain(text: str) -> str:
    return _EDGE.sub("", normalize(text))


def same_words(a: str, b: str) -> bool:
    """Is one text the other, give or take punctuation and a few words at the edges?"""
    x, y = sorted((_plain(a), _plain(b)), key=len)
    return bool(x) and x in y and len(x) >= SAME_SHARE * len(y)


def _up(rec: Record) -> str | None:
    for key in UP_KEYS:
        value = rec.metadata.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def gists_above(store: Store, scope: Scope, records: Iterable[Record]) -> dict[str, list[str]]:
    """Each record's chain of gists above it, nearest first (an episode's gist, that gist's
    higher gist, ...), read from the store level by level; records with none are left out."""
    chains: dict[str, list[str]] = {}
    tips: dict[str, str] = {}  # record id -> the id one level above its chain's last one
    for rec in records:
        up = _up(rec)
        if up is not None:
            chains[rec.id] = [up]
            tips[rec.id] = up
    for _ in range(MAX_HOPS - 1):
        if not tips:
            break
        found = store.get_many(scope, sorted(set(tips.values())))
        nxt: dict[str, str] = {}
        for rid, tip in tips.items():
            up = _up(found[tip]) if tip in found else None
            if up is not None and up not in chains[rid]:
                chains[rid].append(up)
                nxt[rid] = up
        tips = nxt
    return chains


def collapse(hits: list[Hit], above: dict[str, list[str]] | None = None) -> list[Hit]:
    """The hits, less each one that repeats a better-ranked hit it was extracted from (or that
    was extracted from it), and less each one a better-ranked hit summarises or is summarised
    by (``above``: ``gists_above`` of the hits)."""
    above = above or {}
    if not above and not any(h.memory.metadata.get("source_events") for h in hits):
        return list(hits)   # none extracted from another, none summarised: none to collapse
    kept: list[Hit] = []
    for hit in hits:
        twin = next((k for k in kept if _linked(k, hit)
                     and same_words(k.memory.content, hit.memory.content)), None)
        note = ("the same words are also stored as {kind} {id} (extracted from the turn): "
                "collapsed into this hit")
        if twin is None:
            twin = next((k for k in kept if _summarised(k, hit, above)), None)
            note = _level_note(twin, hit, above) if twin is not None else note
        if twin is None:
            kept.append(hit)
            continue
        twin.explanation.terms["collapsed"] = twin.explanation.terms.get("collapsed", 0.0) + 1
        twin.explanation.notes.append(
            note.format(kind=hit.memory.kind.value, id=hit.memory.id))
    return kept


def _linked(a: Hit, b: Hit) -> bool:
    return (b.memory.id in (a.memory.metadata.get("source_events") or [])
            or a.memory.id in (b.memory.metadata.get("source_events") or []))


def _summarised(a: Hit, b: Hit, above: dict[str, list[str]]) -> bool:
    return a.memory.id in above.get(b.memory.id, ()) or b.memory.id in above.get(a.memory.id, ())


def _level_note(kept: Hit, dropped: Hit, above: dict[str, list[str]]) -> str:
    if kept.memory.id in above.get(dropped.memory.id, ()):
        how = "summarised by this gist"
    else:
        how = "a higher gist that summarises this one"
    return ("{kind} {id} (" + how + ", the same evidence at another level): "
            "collapsed into this hit")

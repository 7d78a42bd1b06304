"""One piece of evidence, one place in the results: a memory extracted from a turn that repeats
the turn's words (ingest keeps the turn as an event and the sentence as a fact) is collapsed
into the better-ranked of the two; the kept hit's explanation names the other and counts the
hits collapsed into it (``terms["collapsed"]``)."""

from __future__ import annotations

import re

from ..model import Hit
from ..text import normalize

SAME_SHARE = 0.8  # the shorter text is at least this share of the longer one, and inside it
_EDGE = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)


def _plain(text: str) -> str:
    return _EDGE.sub("", normalize(text))


def same_words(a: str, b: str) -> bool:
    """Is one text the other, give or take punctuation and a few words at the edges?"""
    x, y = sorted((_plain(a), _plain(b)), key=len)
    return bool(x) and x in y and len(x) >= SAME_SHARE * len(y)


def collapse(hits: list[Hit]) -> list[Hit]:
    """The hits, less each one that repeats a better-ranked hit it was extracted from (or that
    was extracted from it)."""
    kept: list[Hit] = []
    for hit in hits:
        twin = next((k for k in kept if _linked(k, hit)
                     and same_words(k.memory.content, hit.memory.content)), None)
        if twin is None:
            kept.append(hit)
            continue
        twin.explanation.terms["collapsed"] = twin.explanation.terms.get("collapsed", 0.0) + 1
        twin.explanation.notes.append(
            f"the same words are also stored as {hit.memory.kind.value} {hit.memory.id} "
            "(extracted from the turn): collapsed into this hit")
    return kept


def _linked(a: Hit, b: Hit) -> bool:
    return (b.memory.id in (a.memory.metadata.get("source_events") or [])
            or a.memory.id in (b.memory.metadata.get("source_events") or []))

"""Waking by meaning: a query that means an archived memory's topic, place or person without
repeating its words ("that trip with Wang" for "travel with Wang", "和王的旅行") gives a cue of
the kind "meaning": the memory's vector stands out from the scope's background for this query
by at least ``MIN_GAP`` and ``SPREADS`` deviations (the query's similarity to the memory minus
the mean similarity of the dense leg's candidates), or, where too few candidates tell a
background, its similarity is at least ``MIN_COSINE``. Its match runs from 0.5 at the
threshold to 1 at twice the gap. It counts only for what the query says besides the anchors it
names (their words taken out, the content words left embedded), so it adds a second kind to a
named anchor: "that trip with Wang" = person Wang + meaning "trip"."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..model import Layer, Scope
from ..store.protocol import Store
from ..text import tokenize

MIN_GAP = 0.06        # above the background mean (recall/relevance.py's dense gap scale)
MIN_COSINE = 0.6      # without a background
MIN_BACKGROUND = 3    # dense candidates needed to tell a background
SPREADS = 2.0         # ... and the similarity must stand this many deviations above it


@dataclass(frozen=True)
class Cue:
    kind: str      # person | place | topic | time
    anchor: str    # the anchor named, or the time window
    match: float   # the part of the anchor the query names, 0.5 to 1


@dataclass
class Meaning:
    """The query's vector (computed on demand, once) and the dense leg's similarities."""

    vector: Callable[[], np.ndarray]
    dense: list[tuple[str, float]]
    embed: Callable[[str], np.ndarray] | None = None   # for the query less its named anchors

    def threshold(self) -> tuple[float, float]:
        """(the similarity a memory needs, the span from a half to a full match)."""
        if len(self.dense) < MIN_BACKGROUND:
            return MIN_COSINE, 1.0 - MIN_COSINE
        sims = np.array([s for _, s in self.dense])
        gap = max(MIN_GAP, SPREADS * float(sims.std()))
        return float(sims.mean()) + gap, gap

    def archived(self, store: Store, scope: Scope, depth: int) -> dict[str, Cue]:
        """The archived memories the query means: id -> its "meaning" cue."""
        need, span = self.threshold()
        found = store.search_vector(scope, self.vector(), depth, (Layer.ARCHIVED,))
        out: dict[str, Cue] = {}
        for mid, cos in found:
            if cos >= need:
                match = min(0.5 + 0.5 * (cos - need) / span, 1.0)
                out[mid] = Cue("meaning", f"similarity {cos:.3f}", round(match, 4))
        return out

    def beyond(self, store: Store, scope: Scope, memory_id: str, text: str,
               anchors: list[str]) -> Cue | None:
        """The "meaning" cue of what the query says besides the anchors it names ("that trip
        with Wang" less "Wang"): only that part may count as a second kind."""
        rest = text
        for anchor in anchors:
            rest = re.sub(re.escape(anchor), " ", rest, flags=re.IGNORECASE)
        words = " ".join(tokenize(rest))  # its content words: "that trip to" -> "trip"
        if self.embed is None or not words:
            return None
        vec = store.vectors(scope, [memory_id]).get(memory_id)
        if vec is None:
            return None
        cos = float(np.dot(self.embed(words), vec))
        need, span = self.threshold()
        if cos < need:
            return None
        return Cue("meaning", f"{words!r} ~ similarity {cos:.3f}",
                   round(min(0.5 + 0.5 * (cos - need) / span, 1.0), 4))

"""Waking by meaning: a query that means an archived memory's topic, place or person without
repeating its words ("that trip with Wang" for "travel with Wang", "和王的旅行") gives a cue of
the kind "meaning": the memory's vector stands out from the scope's background for this query
by at least ``MIN_GAP`` (the query's similarity to the memory minus the mean similarity of the
dense leg's candidates), or, where too few candidates tell a background, its similarity is at
least ``MIN_COSINE``. Its match runs from 0.5 at the threshold to 1 at twice the gap, so alone
with one named anchor it wakes the memory (two kinds) and a full match is a strong cue."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..model import Layer, Scope
from ..store.base import Store

MIN_GAP = 0.06        # above the background mean (recall/relevance.py's dense gap scale)
MIN_COSINE = 0.6      # without a background
MIN_BACKGROUND = 20   # dense candidates needed to tell a background


@dataclass
class Meaning:
    """The query's vector (computed on demand, once) and the dense leg's similarities."""

    vector: Callable[[], np.ndarray]
    dense: list[tuple[str, float]]

    def threshold(self) -> tuple[float, float]:
        """(the similarity a memory needs, the span from a half to a full match)."""
        if len(self.dense) < MIN_BACKGROUND:
            return MIN_COSINE, 1.0 - MIN_COSINE
        mean = float(np.mean([s for _, s in self.dense]))
        return mean + MIN_GAP, MIN_GAP

    def archived(self, store: Store, scope: Scope, depth: int) -> dict[str, object]:
        """The archived memories the query means: id -> its "meaning" cue."""
        from .wake import Cue

        need, span = self.threshold()
        found = store.search_vector(scope, self.vector(), depth, (Layer.ARCHIVED,))
        out: dict[str, object] = {}
        for mid, cos in found:
            if cos >= need:
                match = min(0.5 + 0.5 * (cos - need) / span, 1.0)
                out[mid] = Cue("meaning", f"similarity {cos:.3f}", round(match, 4))
        return out

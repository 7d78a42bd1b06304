"""Fusion: reciprocal rank fusion of the legs' ranked lists, each leg weighted by the preset,
keeping every leg's rank and score for the explanation."""

from __future__ import annotations

from ..model import LegScore
from .legs import Ranked
from .presets import Preset


def rrf(ranked: dict[str, Ranked], preset: Preset
        ) -> tuple[dict[str, float], dict[str, dict[str, LegScore]]]:
    """The fused score of each candidate (sum of weight / (rrf_k + rank) over the legs that
    found it), and each candidate's rank and score in each of those legs."""
    fused: dict[str, float] = {}
    seen: dict[str, dict[str, LegScore]] = {}
    for leg in preset.legs:
        for rank, (mid, score) in enumerate(ranked.get(leg.name, []), start=1):
            fused[mid] = fused.get(mid, 0.0) + leg.weight / (preset.rrf_k + rank)
            seen.setdefault(mid, {})[leg.name] = LegScore(rank, score)
    return fused, seen

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
    get, rrf_k = fused.get, preset.rrf_k
    for leg in preset.legs:
        name, weight = leg.name, leg.weight
        for rank, (mid, score) in enumerate(ranked.get(name, []), start=1):
            fused[mid] = get(mid, 0.0) + weight / (rrf_k + rank)
            legs = seen.get(mid)
            if legs is None:
                legs = seen[mid] = {}
            legs[name] = LegScore(rank, score)
    return fused, seen


def rrf_scores(ranked: dict[str, Ranked], preset: Preset) -> dict[str, float]:
    """``rrf``'s fused scores alone (the same sums in the same order), for a caller that
    needs no explanation of them."""
    fused: dict[str, float] = {}
    get, rrf_k = fused.get, preset.rrf_k
    for leg in preset.legs:
        weight = leg.weight
        for rank, (mid, _) in enumerate(ranked.get(leg.name, []), start=1):
            fused[mid] = get(mid, 0.0) + weight / (rrf_k + rank)
    return fused

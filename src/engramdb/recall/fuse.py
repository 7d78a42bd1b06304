"""Fusion: reciprocal rank fusion of the legs' ranked lists, each leg weighted by the preset,
keeping every leg's rank and score for the explanation."""

from __future__ import annotations

from ..model import LegScore
from .legs import Ranked
from .presets import Preset


def rrf(ranked: dict[str, Ranked], preset: Preset
        ) -> tuple[dict[str, float], dict[str, dict[str, LegScore]]]:
    """The fused score of each candidate (sum of weight / (rrf_k + rank) over the legs that
    found it), and each candidate's rank and score in each of those legs (``LegScores``:
    worked out for the candidates read, about a quarter of them)."""
    return rrf_scores(ranked, preset), LegScores(ranked, preset)


class LegScores(dict[str, dict[str, LegScore]]):
    """Candidate id -> its rank and score in each leg that found it, in the preset's order of
    legs (a leg listing a candidate twice: its last place), made when first asked for."""

    def __init__(self, ranked: dict[str, Ranked], preset: Preset) -> None:
        super().__init__()
        self._places = [(leg.name, {mid: (rank, score) for rank, (mid, score)
                                    in enumerate(ranked.get(leg.name, []), start=1)})
                        for leg in preset.legs]

    def __missing__(self, mid: str) -> dict[str, LegScore]:
        legs = {name: LegScore(*places[mid]) for name, places in self._places if mid in places}
        if not legs:
            raise KeyError(mid)
        self[mid] = legs
        return legs


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

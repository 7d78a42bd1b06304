"""What the read path says when it returns nothing: why the result is empty (a time window
with nothing in it, only superseded values), or why it abstained (nothing above the embedder's
relevance floor). A hit's own explanation is built where it is scored (recall/rank.py)."""

from __future__ import annotations

from ..model import Hit, Record
from .legs import Ranked
from .plan import QueryPlan
from .presets import Preset


def why_empty(plan: QueryPlan, left_out: list[Record]) -> str:
    window = plan.applied_window
    if window is not None:
        note = f"nothing remembered {window.label()} matches this query"
        if left_out:
            near = min(left_out, key=lambda r: min(abs(r.at - window.start),
                                                   abs(r.at - window.end)))
            note += f"; the nearest related memory is from {near.at.date()}"
        return note
    if left_out and plan.routing.mode == "current":
        latest = max(left_out, key=lambda r: r.invalid_at or r.at)
        when = latest.invalid_at.date() if latest.invalid_at else "?"
        return (f"only superseded memories match (the latest, {latest.content[:60]!r}, "
                f"stopped holding on {when}); ask about the past to see them")
    return ""


def below_floor(floor: float | None, ranked: dict[str, Ranked], preset: Preset,
                woken: list[Hit]) -> str:
    """Abstain when no word of the query matched and the dense leg is below the floor."""
    if floor is None or woken or preset.leg("dense") is None:
        return ""
    if any(name != "dense" and ranked.get(name) for name in ranked):
        return ""
    best = max((score for _, score in ranked.get("dense", [])), default=0.0)
    if best >= floor:
        return ""
    return (f"no word of the query matches, and the best dense similarity {best:.3f} is "
            f"below the embedder's relevance floor {floor:.3f}")

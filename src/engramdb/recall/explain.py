"""What the read path says when it returns nothing: why the result is empty (nothing inside
the time window nor outside it, only superseded values), or why it abstained (nothing above
the embedder's relevance floor); and what it says when a time window holds none of the hits it
returns. A hit's own explanation is built where it is scored (recall/rank.py) and placed
(recall/temporal.py)."""

from __future__ import annotations

from ..model import Hit, Record
from .legs import Ranked
from .plan import QueryPlan
from .presets import Preset
from .temporal import in_window


def why_empty(plan: QueryPlan, left_out: list[Record]) -> str:
    window = plan.applied_window
    if window is not None:
        return f"nothing remembered {window.label()} matches this query, nor anything outside it"
    if left_out and plan.routing.mode == "current":
        latest = max(left_out, key=lambda r: r.invalid_at or r.at)
        when = latest.invalid_at.date() if latest.invalid_at else "?"
        return (f"only superseded memories match (the latest, {latest.content[:60]!r}, "
                f"stopped holding on {when}); ask about the past to see them")
    return ""


def outside_note(plan: QueryPlan, hits: list[Hit]) -> str:
    """Hits were found, but none inside the time window the query names: say so, and which
    returned memory is nearest to it in time (the hits are the best matches outside it)."""
    window = plan.applied_window
    if window is None or not hits or any(in_window(h.memory, window) for h in hits):
        return ""
    near = min(hits, key=lambda h: min(abs(h.memory.at - window.start),
                                       abs(h.memory.at - window.end)))
    return (f"nothing remembered {window.label()} matches this query; the nearest related "
            f"memory is from {near.memory.at.date()}; the best matches outside the window "
            "are returned")


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

"""A memory's strength over time, as points for a picture: its weight from the day it was
recorded to now and on into the projected fade, computed with the one strength formula
(strength.py) on the record as it stood at each moment (the uses made by then).

The record keeps its last 8 use times and a count; older uses are spread evenly between the
creation and the oldest kept use (as ``strength.activation`` itself assumes). The projection
assumes no further use."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..errors import Invalid
from ..model import Priority, Record
from ..store.protocol import Store
from .strength import FLOOR, KEPT_USES, DecayParams, half_life, weight

MIN_AHEAD_DAYS = 30.0
MAX_AHEAD_DAYS = 3650.0
MAX_POINTS = 1000


@dataclass
class Curve:
    """Weight over time: ``points`` (projected after ``now``), the uses as marks, the layer
    changes, the archive line and when the projected fade crosses it (None: never)."""

    id: str
    layer: str
    priority: str
    now: datetime
    recorded_at: datetime
    archive_below: float
    floor: float
    half_life_days: float | None
    weight_now: float
    points: list[tuple[datetime, float, bool]] = field(default_factory=list)
    uses: list[tuple[datetime, float]] = field(default_factory=list)
    uses_not_kept: int = 0
    changes: list[tuple[datetime, str, int]] = field(default_factory=list)
    archive_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "layer": self.layer, "priority": self.priority,
            "now": self.now.isoformat(), "recorded_at": self.recorded_at.isoformat(),
            "archive_below": self.archive_below, "floor": self.floor,
            "half_life_days": _round(self.half_life_days), "weight_now": _round(self.weight_now),
            "points": [{"at": t.isoformat(), "weight": _round(w), "projected": p}
                       for t, w, p in self.points],
            "uses": [{"at": t.isoformat(), "weight": _round(w)} for t, w in self.uses],
            "uses_not_kept": self.uses_not_kept,
            "changes": [{"at": t.isoformat(), "op": op, "version": v}
                        for t, op, v in self.changes],
            "archive_at": self.archive_at.isoformat() if self.archive_at else None,
        }


def _round(x: float | None) -> float | None:
    return None if x is None or math.isinf(x) else round(x, 6)


def check_curve_args(ahead_days: float | None, points: int) -> None:
    if ahead_days is not None and (isinstance(ahead_days, bool)
                                   or not isinstance(ahead_days, int | float)
                                   or not 0 <= ahead_days <= MAX_AHEAD_DAYS):
        raise Invalid(f"ahead_days must be a number from 0 to {MAX_AHEAD_DAYS:g}, "
                      f"got {ahead_days!r}")
    if isinstance(points, bool) or not isinstance(points, int) or not 2 <= points <= MAX_POINTS:
        raise Invalid(f"points must be an integer from 2 to {MAX_POINTS}, got {points!r}")


def as_of(rec: Record, t: datetime) -> Record:
    """The record with only the uses made by ``t`` (the uses no longer kept are taken as
    spread evenly between the creation and the oldest kept use)."""
    kept = sorted(rec.last_uses[-KEPT_USES:])
    dropped = max(rec.use_count - len(kept), 0)
    if dropped and kept and t < kept[0]:
        span = (kept[0] - rec.recorded_at).total_seconds()
        done = (t - rec.recorded_at).total_seconds()
        dropped = int(dropped * done / span) if span > 0 else 0
    made = [u for u in kept if u <= t]
    return rec.replace(last_uses=made, use_count=dropped + len(made))


def default_ahead(rec: Record, params: DecayParams, links: float) -> float:
    """Far enough to see the fade: two effective half-lives, at least a month."""
    if rec.priority == Priority.P0:
        return MIN_AHEAD_DAYS
    return min(max(2 * half_life(rec, params, links), MIN_AHEAD_DAYS), MAX_AHEAD_DAYS)


def strength_curve(store: Store, rec: Record, now: datetime, params: DecayParams,
                   links: float = 0.0, ahead_days: float | None = None,
                   points: int = 120) -> Curve:
    check_curve_args(ahead_days, points)
    ahead = default_ahead(rec, params, links) if ahead_days is None else float(ahead_days)
    start, end = rec.recorded_at, now + timedelta(days=ahead)
    step = (end - start) / (points - 1)
    times = sorted({start + step * i for i in range(points)} | {now}
                   | {u for u in rec.last_uses if start <= u <= end})
    h = half_life(rec, params, links)
    curve = Curve(id=rec.id, layer=rec.layer.value, priority=rec.priority.value, now=now,
                  recorded_at=start, archive_below=params.archive_below,
                  floor=FLOOR[rec.priority], half_life_days=None if math.isinf(h) else h,
                  weight_now=weight(rec, now, params, links))
    for t in times:
        w = weight(as_of(rec, t), t, params, links)
        curve.points.append((t, w, t > now))
        if t > now and curve.archive_at is None and w < params.archive_below:
            curve.archive_at = t
    kept = sorted(rec.last_uses[-KEPT_USES:])
    curve.uses = [(u, weight(as_of(rec, u), u, params, links)) for u in kept]
    curve.uses_not_kept = max(rec.use_count - len(kept), 0)
    curve.changes = [(e.at, e.op, e.version) for e in store.events(rec.scope, rec.id)]
    return curve

"""Strength as ACT-R base-level activation over a memory's use history.

B = ln( sum_j t_j^-d )  over the uses j (creation counts as the first use), t_j in days.
The last few uses are summed exactly; older ones by Petrov's (2006) approximation, so a record
keeps only its last 8 use times and a count. Retention = logistic((B - tau) / s)."""

from __future__ import annotations

import math
from datetime import datetime

from ..model import Kind, Priority, Record

DECAY_BY_KIND = {
    Kind.PROCEDURE: 0.3, Kind.GIST: 0.35, Kind.RULE: 0.35, Kind.LESSON: 0.35,
    Kind.IDENTITY: 0.4, Kind.PREFERENCE: 0.45, Kind.FACT: 0.5, Kind.EMOTION: 0.45,
    Kind.PENDING: 0.5, Kind.EVENT: 0.6,
}
TAU = -1.5    # retention threshold (activation where P = 0.5)
SCALE = 0.6   # logistic noise scale
_MIN_AGE_DAYS = 1.0 / 24  # one hour: a memory used a moment ago is not infinitely strong


def activation(record: Record, now: datetime) -> float:
    d = DECAY_BY_KIND.get(record.kind, 0.5)
    if not record.last_uses and record.use_count <= 0:  # never used: creation is the one use
        age = (now - record.recorded_at).total_seconds() / 86400
        return math.log(max(age, _MIN_AGE_DAYS) ** -d)
    uses = sorted([record.recorded_at, *record.last_uses], reverse=True)
    total = max(record.use_count + 1, len(uses))
    ages = [max((now - u).total_seconds() / 86400, _MIN_AGE_DAYS) for u in uses]
    exact = ages[: min(len(ages), 8)]
    value = sum(t ** -d for t in exact)
    rest = total - len(exact)
    if rest > 0:
        t_k = exact[-1]
        t_n = max((now - record.recorded_at).total_seconds() / 86400, t_k + _MIN_AGE_DAYS)
        value += rest * (t_n ** (1 - d) - t_k ** (1 - d)) / ((1 - d) * (t_n - t_k))
    return math.log(value)


def retention(record: Record, now: datetime) -> float:
    """Probability-like strength in (0, 1); P0 memories never fade."""
    if record.priority == Priority.P0:
        return 1.0
    x = (activation(record, now) - TAU) / SCALE
    return 1.0 / (1.0 + math.exp(-max(min(x, 50.0), -50.0)))

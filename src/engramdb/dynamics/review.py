"""Review schedule: when each memory is next due for review, by FSRS-4.5 over its use history.

strength.py says how much a memory weighs now; this module says when it should be seen again
so that it is not forgotten. Each memory's reviews are its creation (the first learning) and
every use the store keeps (a tracked recall that returned it, a confirmation, a wake-up, a
restore: ``Record.use_count`` and the last 8 ``Record.last_uses``; older uses are spread evenly
between the creation and the oldest kept one, as strength.py does). engramdb sees that a
memory was used, not how well it was remembered, so every review counts as FSRS grade 3
("good"); the difficulty then stays at its initial value ``W[4]``.

FSRS-4.5 (Ye et al., open-spaced-repetition; default weights ``W``), ages in days::

    retrievability  R(t, S) = (1 + FACTOR * t / S) ** DECAY      FACTOR = 19/81, DECAY = -0.5
    first review    S = W[2]                                     (3.71 days)
    each later one  S' = S * (1 + e**W[8] * (11 - D) * S**-W[9] * (e**(W[10] * (1 - R)) - 1))
    interval        I = S / FACTOR * (RETENTION ** (1 / DECAY) - 1)   (= S at RETENTION 0.9)

A review made while R is still near 1 (the same hour) adds almost nothing: spacing matters, as
in strength.py. A memory is due once ``last review + I`` has passed. ``due_for_review(k)``
lists the current core memories that are due, least retrievable first (then the earliest due,
then the id). P0 memories never fade and are never due; events (a log, not knowledge to keep)
and pending items (they have their own due date) are not scheduled.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..errors import Invalid
from ..model import Boot, Kind, Layer, Priority, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text.tokens import count_tokens
from .strength import KEPT_USES

W = (0.4872, 1.4003, 3.7145, 13.8206, 5.1618, 1.2298, 0.8975, 0.031, 1.6474, 0.1367, 1.0461,
     2.1072, 0.0793, 0.3246, 1.587, 0.2272, 2.8755)
FACTOR = 19.0 / 81.0
DECAY = -0.5
RETENTION = 0.9
MAX_INTERVAL_DAYS = 36500.0
NOT_SCHEDULED = frozenset({Kind.EVENT, Kind.PENDING})
MAX_K = 1000
_DAY = 86400.0


@dataclass(frozen=True)
class Review:
    """A memory's place in the review schedule at ``now``."""

    memory: Record
    reviews: int              # the creation and every use
    difficulty: float         # FSRS D (1..10)
    stability_days: float     # FSRS S: days until retrievability falls to 0.9
    last_review: datetime
    interval_days: float      # from the last review to the due time
    due_at: datetime
    retrievability: float     # R now
    overdue_days: float       # now - due_at (negative: not due yet)

    @property
    def due(self) -> bool:
        return self.overdue_days >= 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.memory.id, "content": self.memory.content,
                "kind": self.memory.kind.value, "reviews": self.reviews,
                "difficulty": round(self.difficulty, 4),
                "stability_days": round(self.stability_days, 4),
                "last_review": self.last_review.isoformat(),
                "interval_days": round(self.interval_days, 4), "due_at": self.due_at.isoformat(),
                "retrievability": round(self.retrievability, 4),
                "overdue_days": round(self.overdue_days, 4)}


def retrievability(elapsed_days: float, stability: float) -> float:
    return (1.0 + FACTOR * max(elapsed_days, 0.0) / stability) ** DECAY


def next_stability(stability: float, difficulty: float, r: float) -> float:
    """FSRS-4.5 stability after a successful ("good") review made at retrievability ``r``."""
    growth = (math.exp(W[8]) * (11.0 - difficulty) * stability ** -W[9]
              * (math.exp(W[10] * (1.0 - r)) - 1.0))
    return stability * (1.0 + growth)


def interval(stability: float, retention: float = RETENTION) -> float:
    days = stability / FACTOR * (retention ** (1.0 / DECAY) - 1.0)
    return min(max(days, 0.0), MAX_INTERVAL_DAYS)


def review_times(record: Record) -> list[datetime]:
    """The creation, then every use oldest first (uses no longer kept spread evenly)."""
    kept = sorted(record.last_uses[-KEPT_USES:])
    dropped = max(record.use_count - len(kept), 0)
    start, end = record.recorded_at, kept[0] if kept else record.recorded_at
    step = (end - start) / (dropped + 1)
    spread = [start + step * (i + 1) for i in range(dropped)]
    return [start, *spread, *(t for t in kept if t >= start)]


def schedule(record: Record, now: datetime) -> Review:
    """FSRS over the record's reviews, as it stands at ``now``."""
    times = review_times(record)
    difficulty = W[4]
    stability = W[2]
    for before, at in zip(times, times[1:], strict=False):
        r = retrievability((at - before).total_seconds() / _DAY, stability)
        stability = next_stability(stability, difficulty, r)
    last = times[-1]
    days = interval(stability)
    due_at = last + timedelta(days=days)
    return Review(
        memory=record, reviews=len(times), difficulty=difficulty, stability_days=stability,
        last_review=last, interval_days=days, due_at=due_at,
        retrievability=retrievability((now - last).total_seconds() / _DAY, stability),
        overdue_days=(now - due_at).total_seconds() / _DAY)


def scheduled(record: Record) -> bool:
    return (record.priority != Priority.P0 and record.kind not in NOT_SCHEDULED
            and record.layer == Layer.CORE and record.current and bool(record.content))


def check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise Invalid(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
    return k


def due_for_review(store: Store, scope: Scope, now: datetime, k: int = 10) -> list[Review]:
    """The ``k`` current core memories most in need of review: due, least retrievable first."""
    check_k(k)
    return rank(store.list(scope, ListFilter(current_only=True)), now)[:k]


def rank(records: Iterable[Record], now: datetime) -> list[Review]:
    due = [rv for rv in (schedule(r, now) for r in records if scheduled(r)) if rv.due]
    return sorted(due, key=lambda rv: (rv.retrievability, rv.due_at, rv.memory.id))


def with_due(loaded: Boot, store: Store, scope: Scope, now: datetime, n: int,
             budget: int | None, encoding: str) -> Boot:
    """``loaded`` plus up to ``n`` due memories not in it, while the budget allows."""
    if n <= 0 or loaded.truncated:
        return loaded
    shown = {r.id for r in loaded.memories}
    tokens = loaded.tokens
    due: list[Record] = []
    for rv in due_for_review(store, scope, now, MAX_K):
        if len(due) == n:
            break
        if rv.memory.id in shown:
            continue
        cost = count_tokens(rv.memory.content, encoding)
        if budget is not None and tokens + cost > budget:
            return replace(loaded, due=due, tokens=tokens, truncated=True)
        due.append(rv.memory)
        tokens += cost
    return replace(loaded, due=due, tokens=tokens)


def due_lines(store: Store, scope: Scope, now: datetime, n: int, track: bool) -> list[str]:
    """``context()``'s "Due for review" lines; with ``track`` showing one counts as a review
    (a use), so it is not due again until its next interval has passed."""
    if n <= 0:
        return []
    found = due_for_review(store, scope, now, n)
    if track and found:
        store.record_uses(scope, [rv.memory.id for rv in found], now, 60.0)
    return [f"- [due {rv.due_at.date()}] {rv.memory.content}" for rv in found]

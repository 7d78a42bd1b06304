"""Incremental sleep: a sleep looks only at what changed since the last one, and at the
memories whose time has come. It gives the same result as a full sleep because every rule a
sleep applies to an untouched memory depends on time alone, and each such time is known:

- decay archives when the weight falls below ``archive_below``. Unused, the weight only falls
  (every trace's term of the activation shrinks with age), and a use only raises it (it adds a
  term); so the weight is above the threshold until a crossing time, and a use can only move
  that time later. For a memory never used the crossing is exact in closed form (recorded_at +
  H * log2(1 / threshold)); for a used one that same time is a lower bound (the creation trace
  alone gives activation >= -a ln(age), so the weight is at least the unused weight), refined by
  bisection to within an hour, always on the early side.
- tidy acts at ``expires_at``, at ``due_at`` (marked overdue) and one observation period after
  ``overdue_since``.
- consolidation takes an episode once it has settled (weight <= 0.5): the same crossing rule.

The earliest of these is the memory's due time (table memory_due, migration 9). An incremental
sleep visits the memories with an event since the last sleep (a write, an edit, a use, a
restore: the event log says which) plus those due now, runs the phases on them, and writes
their new due times. A memory neither changed nor due cannot change in a full sleep either.
Partners of what is visited (near-duplicates, episodes of the same theme) are looked up in the
whole scope by the phases themselves. The first sleep of a scope, or one after the decay
settings changed (the state keeps their fingerprint), is full."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from ..model import Kind, Layer, Priority, Record, Scope
from ..store.protocol import SleepState, Store
from .gist import SETTLED
from .lifecycle import OBSERVATION
from .strength import FLOOR, DecayParams, half_life, weight

PRECISION = timedelta(hours=1)
MAX_DOUBLINGS = 48
VERSION = 1  # bump when a rule above changes: every scope's next sleep is then full


def fingerprint(params: DecayParams) -> str:
    return json.dumps({"v": VERSION, "archive_below": params.archive_below, "settled": SETTLED,
                       "half_lives": {str(k): v for k, v in sorted(params.half_lives.items())}},
                      sort_keys=True)


def crossing(rec: Record, level: float, fires: Callable[[float], bool], now: datetime,
             params: DecayParams) -> datetime | None:
    """A time before which ``fires(weight)`` is false if the memory stays unused: exactly the
    crossing for an unused memory, at most an hour early for a used one. None: never."""
    if rec.priority == Priority.P0 or FLOOR[rec.priority] >= level or level <= 0:
        return None
    bound = rec.recorded_at + timedelta(days=half_life(rec, params) * math.log2(1 / level))
    if rec.use_count <= 0 and not rec.last_uses:
        return bound
    lo = max(bound, now)
    if fires(weight(rec, lo, params)):
        return lo
    step = timedelta(days=1)
    for _ in range(MAX_DOUBLINGS):
        hi = lo + step
        if fires(weight(rec, hi, params)):
            break
        lo, step = hi, step * 2
    else:
        return None
    while hi - lo > PRECISION:
        mid = lo + (hi - lo) / 2
        if fires(weight(rec, mid, params)):
            hi = mid
        else:
            lo = mid
    return lo


def due_time(rec: Record, now: datetime, params: DecayParams) -> datetime | None:
    """When a sleep next needs to look at this memory if nothing happens to it."""
    if rec.layer != Layer.CORE:
        return None
    threshold = params.archive_below
    times = [crossing(rec, threshold, lambda w: w < threshold, now, params), rec.expires_at]
    if rec.due_at is not None:
        times.append(rec.due_at if rec.overdue_since is None
                     else rec.overdue_since + OBSERVATION)
    if rec.kind == Kind.EVENT and "gist" not in rec.metadata:
        settle = crossing(rec, SETTLED, lambda w: w <= SETTLED, now, params)
        if settle is not None and settle > now:
            times.append(settle)
    return min((t for t in times if t is not None), default=None)


def plan(store: Store, scope: Scope, params: DecayParams, now: datetime,
         full: bool) -> tuple[set[str] | None, int, datetime | None]:
    """(the memories an incremental sleep visits, None for a full one; the event seq to save;
    when the scope last slept, for an incremental one)."""
    state = store.sleep_state(scope)
    incremental = not full and state.last_at is not None and state.params == fingerprint(params)
    seq, changed = store.changed_since(scope, state.event_seq)
    if not incremental:
        return None, seq, None
    return set(changed) | set(store.due(scope, now)), seq, state.last_at


def finish(store: Store, scope: Scope, params: DecayParams, now: datetime,
           visited: Iterable[Record], seq: int, cleared: Iterable[str] = ()) -> None:
    """Write the due times of the memories visited (none for ``cleared``: they left core) and
    the scope's sleep state."""
    due: dict[str, datetime | None] = dict.fromkeys(cleared)
    due.update((rec.id, due_time(rec, now, params)) for rec in visited)
    with store.transaction():
        store.set_due(scope, due)
        store.save_sleep_state(scope, SleepState(now, seq, fingerprint(params), 0.0))

"""What the last sleeps of a scope did, read back from the event log: every change a sleep
makes is a version saved with actor "sleep" at the sleep's own time, so the sleeps are the
groups of those events by time. What a sleep looked at but left alone, and the links the
govern phase pruned, leave no event: only ``last_at`` (the scope's sleep state) says when the
latest sleep ran, whether it changed anything or not.

The log is read backwards from the newest events in widening windows, reading the events of
at most ``MAX_MEMORIES`` memories, so a long history costs no more than a recent one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import Invalid
from ..model import Scope
from ..store.protocol import Event, Store

# which phase makes a version with this op
# (dynamics/decay, lifecycle, lessons, merge, gist, gist_levels)
PHASE_OF_OP = {"archive": "decay", "retire": "tidy", "overdue": "tidy", "promote": "lessons",
               "merge": "consolidate", "merged": "consolidate", "consolidate": "consolidate",
               "reinforce": "consolidate", "create": "consolidate",
               "fold": "consolidate"}
MAX_SLEEPS = 50
MAX_MEMORIES = 5000
FIRST_WINDOW = 2000
SHOWN_IDS = 50


@dataclass
class SleepRun:
    at: datetime
    ops: dict[str, int] = field(default_factory=dict)
    phases: dict[str, dict[str, int]] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return sum(self.ops.values())

    def add(self, event: Event) -> None:
        self.ops[event.op] = self.ops.get(event.op, 0) + 1
        phase = self.phases.setdefault(PHASE_OF_OP.get(event.op, "other"), {})
        phase[event.op] = phase.get(event.op, 0) + 1
        if event.memory_id not in self.ids:
            self.ids.append(event.memory_id)

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "changes": self.changes, "ops": dict(self.ops),
                "phases": {k: dict(v) for k, v in self.phases.items()},
                "ids": self.ids[:SHOWN_IDS], "memories": len(self.ids)}


@dataclass
class SleepLog:
    last_at: datetime | None
    runs: list[SleepRun]
    complete: bool  # False: older sleeps may be missing (the read stopped at its limits)

    def to_dict(self) -> dict[str, Any]:
        return {"last_at": self.last_at.isoformat() if self.last_at else None,
                "sleeps": [r.to_dict() for r in self.runs], "complete": self.complete}


def check_sleeps(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_SLEEPS:
        raise Invalid(f"limit must be an integer from 1 to {MAX_SLEEPS}, got {limit!r}")


def sleep_log(store: Store, scope: Scope, limit: int = 10) -> SleepLog:
    """The last ``limit`` sleeps that changed something, newest first."""
    check_sleeps(limit)
    state = store.sleep_state(scope)
    newest, _ = store.changed_since(scope, state.event_seq)
    window = FIRST_WINDOW
    while True:
        low = max(newest - window, 0)
        _, ids = store.changed_since(scope, low)
        capped = len(ids) > MAX_MEMORIES
        runs = _runs(store, scope, ids[-MAX_MEMORIES:], low)
        if len(runs) >= limit or low == 0 or capped:
            return SleepLog(state.last_at, runs[:limit], low == 0 and not capped)
        window *= 4


def _runs(store: Store, scope: Scope, ids: list[str], low: int) -> list[SleepRun]:
    by_at: dict[datetime, SleepRun] = {}
    for memory_id in ids:
        for event in store.events(scope, memory_id):
            if event.actor == "sleep" and event.seq > low:
                by_at.setdefault(event.at, SleepRun(event.at)).add(event)
    return sorted(by_at.values(), key=lambda r: r.at, reverse=True)

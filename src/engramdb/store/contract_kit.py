"""The store contract's shared pieces: two scopes, a fixed time, records, goals, links and
unit vectors made from a number (contract.py and its parts; backend tests use them too)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from ..model import Goal, GoalStatus, Kind, Lifecycle, Link, Priority, Record, Scope

T0 = datetime(2026, 1, 1, tzinfo=UTC)
BODY = {"body": 1.0}      # search_text field weights
ANCHORS = {"anchors": 1.0}
ALICE = Scope("alice", "noah")
BOB = Scope("bob", "noah")


def make_record(n: int, scope: Scope = ALICE, **changes: object) -> Record:
    rec = Record(
        id=f"01TEST{n:020d}", user=scope.user, agent=scope.agent, content=f"memory {n}",
        kind=Kind.FACT, uri=None, priority=Priority.P2, lifecycle=Lifecycle.CONTEXTUAL,
        importance=0.5, at=T0 + timedelta(days=n), recorded_at=T0, updated_at=T0,
        content_hash=f"h{n}",
    )
    return rec.replace(**changes)


# fields the test of every field keeps as make_record sets them
IDENTITY_FIELDS = ("id", "user", "agent", "content", "kind", "priority", "lifecycle",
                   "importance", "at", "recorded_at", "updated_at", "content_hash")


def make_goal(n: int, scope: Scope = ALICE, **changes: object) -> Goal:
    goal = Goal(id=f"01GOAL{n:020d}", user=scope.user, agent=scope.agent, title=f"goal {n} 目标",
                status=GoalStatus.PAUSED, created_at=T0 + timedelta(minutes=n), updated_at=T0)
    return goal.replace(**changes)


def unit(seed: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)



def make_link(a: int, b: int, relation: str, weight: float, at: datetime = T0,
              scope: Scope = ALICE) -> Link:
    return Link(make_record(a, scope).id, make_record(b, scope).id, relation, weight, at, at,
                scope.user, scope.agent)


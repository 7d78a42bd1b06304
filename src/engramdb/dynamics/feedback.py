"""Recall feedback: was a recalled memory useful?

``useful=True`` strengthens the memory: a use trace is added at once (no debounce: the
feedback is a deliberate confirmation, ACT-R activation rises, so the effective age falls) and
its importance goes up by ``STEP_UP`` (the half-life grows by the importance factor,
dynamics/strength.py). ``useful=False`` weakens it: importance goes down by ``STEP_DOWN``
(the half-life shrinks) and no trace is added. Importance stays within [``LOW``, ``HIGH``]; P0
memories never fade, so their weight does not move. The importance change is a new version of
the memory (op ``feedback``, actor ``feedback``), so ``history`` shows every verdict."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import Conflict, Invalid, NotFound
from ..model import Layer, Record, Scope
from ..store.protocol import Store

STEP_UP = 0.05
STEP_DOWN = 0.1
LOW, HIGH = 0.05, 1.0


@dataclass(frozen=True)
class Feedback:
    """What one verdict changed."""

    id: str
    useful: bool
    importance_before: float
    importance: float
    uses: int
    version: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "useful": self.useful,
                "importance_before": round(self.importance_before, 6),
                "importance": round(self.importance, 6), "uses": self.uses,
                "version": self.version}


def give_feedback(store: Store, scope: Scope, memory_id: str, useful: bool,
                  now: datetime) -> Feedback:
    """Strengthen (``useful``) or weaken the memory ``memory_id`` of ``scope`` at ``now``."""
    if not isinstance(useful, bool):
        raise Invalid(f"useful must be true or false, got {useful!r}")
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise Invalid("give the id of the memory the feedback is about")
    with store.transaction():
        rec = store.get(scope, memory_id)
        if rec is None:
            raise NotFound(f"no memory {memory_id!r} for user={scope.user} agent={scope.agent}")
        if rec.layer == Layer.DELETED:
            raise Conflict(f"memory {rec.id} was forgotten; feedback needs a kept memory")
        if useful:
            store.record_uses(scope, [rec.id], now, 0.0)
            rec = store.get(scope, rec.id) or rec
        new = _reweighed(rec, useful, now)
        store.save(new, "feedback", actor="feedback",
                   reason="useful recall" if useful else "useless recall")
    return Feedback(rec.id, useful, rec.importance, new.importance, new.use_count, new.version)


def _reweighed(rec: Record, useful: bool, now: datetime) -> Record:
    step = STEP_UP if useful else -STEP_DOWN
    importance = round(min(HIGH, max(LOW, rec.importance + step)), 6)
    return rec.replace(importance=importance, updated_at=now, version=rec.version + 1)

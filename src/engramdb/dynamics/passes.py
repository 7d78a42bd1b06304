"""What a maintenance phase shares: one pass over a scope's core memories, and its report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compare import DEFAULT, Comparers
from ..model import Layer, Record, Scope
from ..store.protocol import IndexText, ListFilter, Store
from .strength import DecayParams

if TYPE_CHECKING:
    from .rulebook import RuleBooks

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass
class PhaseReport:
    """What one phase looked at and changed: ``changed`` maps an action to memory ids."""

    phase: str
    examined: int = 0
    changed: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0
    note: str = ""

    def ids(self, action: str) -> list[str]:
        return self.changed.get(action, [])

    def counts(self) -> dict[str, int]:
        return {action: len(ids) for action, ids in self.changed.items()}

    def add(self, action: str, memory_id: str) -> None:
        self.changed.setdefault(action, []).append(memory_id)

    def to_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "examined": self.examined, "counts": self.counts(),
                "ids": {k: list(v) for k, v in self.changed.items()},
                "seconds": round(self.seconds, 4), "note": self.note}


Change = tuple[str, str, str, dict[str, Any]]  # (report action, op, reason, field changes)
Decide = Callable[[Record], Change | None]
CHUNK = 1000  # memories changed per transaction: other writers wait at most one chunk


@dataclass
class Pass:
    """One run over a scope. The core memories are read once, outside any transaction, and
    shared by the phases to pick candidates; each change re-reads its memory inside a short
    transaction and decides again on what is stored then, so a use or an edit made meanwhile
    (another thread or process) is never overwritten."""

    store: Store
    scope: Scope
    now: datetime
    params: DecayParams
    _core: dict[str, Record] | None = None
    only: set[str] | None = None     # an incremental run looks at these memories only
    embed: Embed | None = None       # what a phase that writes new text embeds it with
    polisher: Any = None             # dynamics/polish.py: rewords a gist, or None
    near_hints: dict[str, tuple[int, list[str]]] = field(default_factory=dict)  # merge.NearHints
    since: datetime | None = None    # an incremental run: when the scope last slept
    decayed: dict[str, Record] = field(default_factory=dict)  # archived by decay, unconsolidated
    compare: Comparers = DEFAULT     # the similarity the merge pass asks (compare.py)
    rule_books: RuleBooks | None = None  # the rules review's facts kept between sleeps

    def core(self) -> list[Record]:
        if self._core is None:
            if self.only is None:
                flt = ListFilter(layers=(Layer.CORE,))
                self._core = {r.id: r for r in self.store.list(self.scope, flt)}
            else:
                found = self.store.get_many(self.scope, sorted(self.only))
                self._core = {i: r for i, r in sorted(found.items()) if r.layer == Layer.CORE}
        return list(self._core.values())

    def save(self, old: Record, op: str, reason: str, changes: dict[str, Any],
             text: IndexText | None = None, vector: np.ndarray | None = None) -> Record:
        """Save a new version of ``old`` (actor "sleep"), inside the caller's transaction."""
        new = old.replace(**changes, updated_at=self.now, version=old.version + 1)
        self.store.save(new, op, text, vector, actor="sleep", reason=reason)
        self._track(new)
        return new

    def _track(self, new: Record) -> None:
        """Keep the core view in step with a change this run made."""
        if self._core is not None:
            if new.layer == Layer.CORE and (self.only is None or new.id in self._core):
                self._core[new.id] = new
            else:
                self._core.pop(new.id, None)

    def apply(self, ids: list[str], decide: Decide, report: PhaseReport) -> None:
        """For each memory of ``ids``, as stored now: save the change ``decide`` returns."""
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            with self.store.transaction():
                fresh = self.store.get_many(self.scope, chunk)
                for rec in (fresh[mid] for mid in chunk if mid in fresh):
                    change = decide(rec) if rec.layer == Layer.CORE else None
                    if change is not None:
                        self._save(rec, *change)
                        report.add(change[0], rec.id)

    def _save(self, old: Record, action: str, op: str, reason: str,
              changes: dict[str, Any]) -> None:
        new = old.replace(**changes, updated_at=self.now, version=old.version + 1)
        self.store.save(new, op, actor="sleep", reason=reason)
        if op == "archive":
            self.decayed[new.id] = new
        if self._core is not None:
            if new.layer == Layer.CORE:
                self._core[new.id] = new
            else:
                self._core.pop(new.id, None)

"""A sleep finishes what an earlier one began. Each phase commits on its own, so a process
killed between two phases (or a decay run alone, ``sleep("decay")``) leaves the episodes that
decay archived without the consolidation that, in one whole sleep, would have followed at
once: a later sleep's decay does not see them (they left core), and they are not settled core
episodes either. Without this, they would never get their gist.

Which ones: the episodes changed since the scope's last whole sleep (its event seq, which a
killed sleep never moved) that are archived, without a gist, and whose last event is decay's
archive. A whole sleep that ended saved a newer seq, so what it finished is not taken again.
The consolidate phase takes them as if this run's decay had just archived them
(``Pass.decayed``), so the end state is the one an uninterrupted sleep leaves."""

from __future__ import annotations

from ..model import Kind, Layer, Priority, Record, Scope
from ..store.protocol import Store

DECAY_REASON = "decay:"   # how decay.py words the reason of its archive


def decayed_unconsolidated(store: Store, scope: Scope, core: set[str]) -> dict[str, Record]:
    """The episodes decay archived since the last whole sleep that no consolidation has
    taken yet; ``core``: the ids the run already holds as core (not read again)."""
    _, changed = store.changed_since(scope, store.sleep_state(scope).event_seq)
    out: dict[str, Record] = {}
    rest = [i for i in changed if i not in core]
    for start in range(0, len(rest), 1000):
        for rec in store.get_many(scope, rest[start : start + 1000]).values():
            if _candidate(rec) and _archived_by_decay(store, scope, rec.id):
                out[rec.id] = rec
    return out


def _candidate(rec: Record) -> bool:
    return (rec.layer == Layer.ARCHIVED and rec.kind == Kind.EVENT and rec.uri is None
            and rec.current and rec.priority != Priority.P0 and not rec.erased
            and "gist" not in rec.metadata and "merged_into" not in rec.metadata)


def _archived_by_decay(store: Store, scope: Scope, memory_id: str) -> bool:
    events = store.events(scope, memory_id)
    last = events[-1] if events else None
    return (last is not None and last.op == "archive" and last.actor == "sleep"
            and (last.reason or "").startswith(DECAY_REASON))

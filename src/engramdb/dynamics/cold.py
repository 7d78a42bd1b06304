"""The cold tier's move, the last step of the decay phase: a memory archived and left alone
for ``Config.cold_after`` (no change and no use since) goes to the cold tier. Its record, its
history and its links stay; its text and vectors leave every hot search structure
(store/cold.py), so the archive a default recall wakes from stays small. A recall that asks
for the cold tier (``include_cold=True``) searches it, and wakes what it finds as it wakes
archived memories (recall/wake.py): a strong cue brings the memory back to core."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..model import Layer, Record
from .passes import CHUNK, Pass, PhaseReport

MOST = 100_000   # memories one sleep moves at most (the next sleep moves the rest)


def idle_since(rec: Record) -> datetime:
    """When the memory last changed or was used."""
    return max([rec.updated_at, *rec.last_uses])


def to_cold(run: Pass, report: PhaseReport) -> None:
    """Move the scope's archived memories idle for ``cold_after`` to the cold tier (op
    "freeze", actor "sleep"); the report names them under "moved_cold"."""
    after = run.params.cold_after_s
    if after <= 0:
        return
    cutoff = run.now - timedelta(seconds=after)
    ids = run.store.archived_before(run.scope, cutoff, MOST)
    days = after / 86400
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        with run.store.transaction():
            fresh = run.store.get_many(run.scope, chunk)
            for rec in (fresh[mid] for mid in chunk if mid in fresh):
                idle = idle_since(rec)
                if rec.layer != Layer.ARCHIVED or idle > cutoff:
                    continue
                new = rec.replace(layer=Layer.COLD, updated_at=run.now, version=rec.version + 1)
                run.store.save(new, "freeze", actor="sleep",
                               reason=f"cold: archived and idle since {idle.date()}, over "
                                      f"cold_after ({days:g} days): moved to the cold tier")
                report.add("moved_cold", rec.id)

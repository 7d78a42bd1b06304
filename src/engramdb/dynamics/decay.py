"""The decay phase: recompute every core memory's weight and archive the weak ones.

Archived memories leave active search; a query with strong cues can still wake them
(recall/wake.py). Nothing is deleted, P0 memories never move, forgotten ones are never read."""

from __future__ import annotations

from ..model import Layer, Priority, Record
from .passes import Change, Pass, PhaseReport
from .strength import weight


def decay_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("decay")
    threshold = run.params.archive_below

    def weak(rec: Record) -> Change | None:
        if rec.priority == Priority.P0:
            return None
        w = weight(rec, run.now, run.params)
        if w >= threshold:
            return None
        return ("archived", "archive", f"decay: weight {w:.4f} below {threshold:g}",
                {"layer": Layer.ARCHIVED})

    records = run.core()
    report.examined = len(records)
    run.apply([r.id for r in records if weak(r)], weak, report)
    return report

"""The decay phase: recompute every core memory's weight and archive the weak ones; then move
the memories archived and idle for ``Config.cold_after`` to the cold tier (dynamics/cold.py).

Archived memories leave active search; a query with strong cues can still wake them
(recall/wake.py). Nothing is deleted, P0 memories never move, forgotten ones are never read."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Layer, Priority, Record, Scope
from ..store.protocol import Store
from .cold import to_cold
from .passes import Change, Pass, PhaseReport
from .strength import weight

_CHUNK = 500


def link_weights(store: Store, scope: Scope, ids: Sequence[str]) -> dict[str, float]:
    """The summed weight of each memory's links, both ways: what slows its decay by at most
    10% (strength.association_factor)."""
    wanted = set(ids)
    sums: dict[str, float] = {}
    for start in range(0, len(ids), _CHUNK):
        for link in store.links(scope, ids[start : start + _CHUNK]):
            for end in {link.source, link.target} & wanted:
                sums[end] = sums.get(end, 0.0) + link.weight
    return sums


def decay_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("decay")
    threshold = run.params.archive_below
    records = run.core()
    links = link_weights(run.store, run.scope, [r.id for r in records])

    def weak(rec: Record) -> Change | None:
        if rec.priority == Priority.P0:
            return None
        w = weight(rec, run.now, run.params, links.get(rec.id, 0.0))
        if w >= threshold:
            return None
        return ("archived", "archive", f"decay: weight {w:.4f} below {threshold:g}",
                {"layer": Layer.ARCHIVED})

    report.examined = len(records)
    run.apply([r.id for r in records if weak(r)], weak, report)
    to_cold(run, report)   # archived for long: out of the hot store (dynamics/cold.py)
    return report

"""A fact's supersession chain (Lisbon -> Berlin -> Oslo): what ``history`` and the lineage
read. Apart from the write path's supersede.py, so that a read of history loads no more than
the store and the slot kinds."""

from __future__ import annotations

from ..model import Layer, Record, Scope
from ..store.protocol import ListFilter, Store
from .slots import SLOT_KINDS


def supersession_chain(store: Store, scope: Scope, rec: Record) -> list[Record]:
    """Every record linked to ``rec`` by ``superseded_by`` (both ways), oldest first; just
    ``[rec]`` when it has no link. Finding predecessors reads the scope's superseded records of
    the slot kinds once (history is rare; no index is kept for it)."""
    if rec.kind not in SLOT_KINDS:
        return [rec]
    flt = ListFilter(kinds=tuple(k.value for k in SLOT_KINDS), layers=tuple(Layer))
    before: dict[str, list[Record]] = {}
    for other in store.list(scope, flt):
        if other.superseded_by:
            before.setdefault(other.superseded_by, []).append(other)
    found: dict[str, Record] = {rec.id: rec}
    todo = [rec]
    while todo:
        cur = todo.pop()
        linked = list(before.get(cur.id, []))
        if cur.superseded_by and (nxt := store.get(scope, cur.superseded_by)) is not None:
            linked.append(nxt)
        for other in linked:
            if other.id not in found:
                found[other.id] = other
                todo.append(other)
    return sorted(found.values(), key=lambda r: (r.at, r.recorded_at, r.id))

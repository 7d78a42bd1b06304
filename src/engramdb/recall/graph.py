"""Typed links between memories of one scope, and walking them (``Memory.link``, ``related``,
``recall_path``).

A link is directed (``source`` ``relation`` ``target``: "A caused B") and weighs 0 to 1.
``related`` walks links both ways, breadth first, up to ``MAX_HOPS``; each memory is reached
once, by its strongest path (the product of the link weights along it), so cycles end. Deleted
memories are neither linked nor walked through."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Conflict, Invalid
from ..model import RELATIONS, Explanation, Hit, Layer, LegScore, Record, Scope
from ..store.protocol import Store

MAX_HOPS = 3


def check_relation(relation: object) -> str:
    if not isinstance(relation, str) or relation not in RELATIONS:
        raise Invalid(f"unknown relation {relation!r} (one of {', '.join(RELATIONS)})")
    return relation


def check_weight(weight: object) -> float:
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 1:
        raise Invalid(f"weight must be a number from 0 to 1, got {weight!r}")
    return float(weight)


def check_hops(hops: object, low: int) -> int:
    if isinstance(hops, bool) or not isinstance(hops, int) or not low <= hops <= MAX_HOPS:
        raise Invalid(f"hops must be an integer from {low} to {MAX_HOPS}, got {hops!r}")
    return hops


def check_linkable(a: Record, b: Record) -> None:
    if a.id == b.id:
        raise Invalid(f"a memory cannot be linked to itself ({a.id})")
    for rec in (a, b):
        if rec.layer == Layer.DELETED:
            raise Conflict(f"memory {rec.id} is forgotten: restore it before linking it")


@dataclass
class Reached:
    record: Record
    score: float
    hops: int
    path: list[str]


def walk(store: Store, scope: Scope, start: list[Record], hops: int) -> list[Reached]:
    """Memories reached from ``start`` over links (both ways) in at most ``hops`` steps, best
    path first (score, then fewer hops, then id); the start memories are not included."""
    best: dict[str, Reached] = {}
    seen = {r.id for r in start}
    frontier = [Reached(r, 1.0, 0, [r.id]) for r in start]
    for step in range(1, hops + 1):
        ids = [r.record.id for r in frontier]
        if not ids:
            break
        by_id = {r.record.id: r for r in frontier}
        links = store.links(scope, ids)
        ends = {link.other(i) for link in links for i in (link.source, link.target) if i in by_id}
        records = store.get_many(scope, sorted(ends - seen))
        nxt: dict[str, Reached] = {}
        for link in links:
            for here, there, arrow in ((link.source, link.target, "->"),
                                       (link.target, link.source, "<-")):
                rec = records.get(there)
                if here not in by_id or rec is None or rec.layer == Layer.DELETED:
                    continue
                came = by_id[here]
                score = came.score * link.weight
                path = [*came.path, f"{link.relation} {arrow}", there]
                if there not in nxt or score > nxt[there].score:
                    nxt[there] = Reached(rec, score, step, path)
        seen.update(nxt)
        best.update(nxt)
        frontier = sorted(nxt.values(), key=lambda r: r.record.id)
    return sorted(best.values(), key=lambda r: (-r.score, r.hops, r.record.id))


def as_hit(reached: Reached) -> Hit:
    note = f"{reached.hops} hop(s): {' '.join(reached.path)}"
    explanation = Explanation(legs={"links": LegScore(reached.hops, reached.score)},
                              terms={"path_weight": reached.score}, final=reached.score,
                              notes=[note])
    return Hit(memory=reached.record, score=reached.score, explanation=explanation)


def start_hit(record: Record, why: str) -> Hit:
    explanation = Explanation(legs={"uri": LegScore(1, 1.0)}, final=1.0, notes=[why])
    return Hit(memory=record, score=1.0, explanation=explanation)

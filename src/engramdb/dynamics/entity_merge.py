"""Consolidation, part two: paraphrased facts about one entity merge when they say the same.

Two current facts (or preferences, procedures) whose slots (write/slots.py) name the same
subject and attribute and hold the same value say one thing in two ways: "Wang Lei lives in
Berlin" and "Wang Lei moved to Berlin", "Priya works at Acme" and "Priya is employed at Acme",
"王磊住在北京" and "王磊搬到了北京". The write guard answers such a write with
``slot_same_value`` (NOOP); this pass applies the same rule to the pairs that got in around it
(an import, an older version, a batch written before the guard knew the phrasing). The numbers
in the values must match too (the guard's ``slot_number_changed``), and two different values
are never merged here (that is a supersession, the guard's to decide when it is written).

Candidates: on a full sleep every current slotted memory, grouped by slot; on an incremental
one the changed memories and, for each, the memories that carry its slot token in the text
index (write/prepare.py ``slot_token``), as the guard finds them. The older memory (first
recorded) survives with the other's id in ``derived_from`` and ``metadata["merged"]``; the
other is archived with ``metadata["merged_into"]`` (dynamics/merge.py ``merge_pair``). Both
histories say why; ``restore`` brings the archived one back and ``rollback`` the survivor's
earlier version."""

from __future__ import annotations

from collections import defaultdict

from ..model import Layer, Record
from ..text import normalize
from ..write.prepare import slot_token
from ..write.slots import SLOT_KINDS, Slot, slot_of
from .merge import merge_pair, mergeable
from .passes import Pass, PhaseReport

NEIGHBOURS = 20   # memories read per changed memory's slot token


def merge_same_slot(run: Pass, report: PhaseReport) -> None:
    looked = [r for r in run.core() if _slotted(r)]
    if not looked:
        return
    pool = {r.id: r for r in looked}
    if run.only is not None:
        pool.update(_same_token(run, looked))
    groups: dict[tuple[str, str, str], list[tuple[Record, Slot]]] = defaultdict(list)
    for rec in pool.values():
        slot = slot_of(rec.content, rec.kind)
        if slot is not None:
            groups[(*slot.key, normalize(slot.value))].append((rec, slot))
    must = None if run.only is None else {r.id for r in looked}
    for members in groups.values():
        _merge_group(run, members, must, report)


def _slotted(rec: Record) -> bool:
    return rec.kind in SLOT_KINDS and mergeable(rec) and slot_of(rec.content, rec.kind) is not None


def _same_token(run: Pass, looked: list[Record]) -> dict[str, Record]:
    ids: set[str] = set()
    for rec in looked:
        token = slot_token(rec)
        if token:
            ids.update(mid for mid, _ in run.store.search_text(
                run.scope, [token], {"anchors": 1.0}, NEIGHBOURS, (Layer.CORE,)))
    found = run.store.get_many(run.scope, sorted(ids - {r.id for r in looked}))
    return {mid: rec for mid, rec in found.items() if _slotted(rec)}


def _merge_group(run: Pass, members: list[tuple[Record, Slot]], must: set[str] | None,
                 report: PhaseReport) -> None:
    """Fold every member into the oldest one whose numbers it shares."""
    members.sort(key=lambda m: (m[0].recorded_at, m[0].id))
    kept: list[tuple[Record, Slot]] = []
    for rec, slot in members:
        keep = next(((k, s) for k, s in kept if s.numbers == slot.numbers), None)
        if keep is None:
            kept.append((rec, slot))
            continue
        if must is not None and rec.id not in must and keep[0].id not in must:
            continue
        why = f"slot {slot.describe()} = {slot.value!r}"
        merge_pair(run, keep[0], rec, "same slot value", why, report)

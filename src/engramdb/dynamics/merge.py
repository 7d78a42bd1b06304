"""Consolidation, part one: near-duplicates of the same kind merge into one record.

The criteria are the write guard's (write/supersede.py ``near_duplicate``): the same kind, no
URI, the same people and places, the same numbers, no different slot, token Jaccard >= 0.8 and
cosine >= 0.9. The guard stops most of them at write time; this catches what came in by import,
by an older version, or by a batch written before the guard existed.

Pairs are found without comparing every pair: memories are grouped by kind and anchors, and
inside a group by prefix filtering (Bayardo et al. 2007), which is exact for a Jaccard
threshold: with the tokens of each memory sorted rarest first, two sets with Jaccard >= t share
a token among the first ``n - ceil(t * n) + 1`` of each. Each candidate pair is then checked
with the guard's own rule, cosine included (the configured similarity function's, compare.py).

The older memory (first recorded) survives: it gets a new version whose ``derived_from`` and
``metadata["merged"]`` name the merged one, the larger importance and both use histories.
The merged one is archived (never deleted) with ``metadata["merged_into"]`` and the reason in
its history; a strong cue can still wake it."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable

from ..compare import Compared
from ..model import Kind, Layer, Record, Scope
from ..store.cold import hot_layers
from ..text import tokenize
from ..write.slots import slot_of
from ..write.supersede import NEAR_DUP_COSINE, NEAR_DUP_JACCARD, Neighbour, _near_duplicate
from .passes import Pass, PhaseReport

VECTOR_NEIGHBOURS = 20  # an incremental sleep looks at this many nearest memories per change
DEEP = 200              # ... and deeper when all of them are above the cosine bar
MAX_HINTS = 100_000     # near-duplicate hints kept per process between sleeps


class NearHints:
    """What the write guard found near each memory it wrote (``Nearby.near``), kept for the
    scope's next sleep, whose merge pass then need not search for it again: one matrix product
    per written memory instead of two (at 100k memories a search is ~2 ms). A hint stands for
    the search only when given for the version the sleep reads, and only in the sleep right
    after it (every sleep takes its scope's hints). It holds every memory that search would
    find: those stored before the write (among the nearest CANDIDATES; a memory the sleep
    would find is at least as near among fewer) and those written after it, which the sleep
    looks at anyway as changed ones."""

    def __init__(self) -> None:
        self._by_scope: dict[Scope, dict[str, tuple[int, list[str]]]] = {}
        self._count = 0

    def note(self, record: Record, near: list[str] | None) -> None:
        if near is None:
            return
        if self._count >= MAX_HINTS:   # no sleep is taking them: stop keeping any
            self._by_scope.clear()
            self._count = 0
        self._by_scope.setdefault(record.scope, {})[record.id] = (record.version, near)
        self._count += 1

    def take(self, scope: Scope) -> dict[str, tuple[int, list[str]]]:
        found = self._by_scope.pop(scope, {})
        self._count -= len(found)
        return found


def mergeable(rec: Record) -> bool:
    """What the write guard would merge: any kind but events (the log keeps every episode),
    no URI (a URI addresses one memory), current, in core."""
    return (rec.kind != Kind.EVENT and rec.uri is None and rec.current
            and rec.layer == Layer.CORE and not rec.erased)


def merge_duplicates(run: Pass, report: PhaseReport) -> None:
    """Merge the near-duplicate pairs that involve a memory this run looks at."""
    looked = [r for r in run.core() if mergeable(r)]
    if not looked:
        return
    pool = {r.id: r for r in looked}
    if run.only is not None:  # incremental: the changed memories and their nearest neighbours
        pool.update(_vector_neighbours(run, looked))
    must = None if run.only is None else {r.id for r in looked}
    for keep, drop, evidence in _pairs(run, list(pool.values()), must):
        _merge(run, keep, drop, evidence, report)


def _vector_neighbours(run: Pass, looked: list[Record]) -> dict[str, Record]:
    near: set[str] = set()
    unhinted = []
    for rec in looked:
        version, hinted = run.near_hints.get(rec.id, (None, []))
        if version == rec.version:
            near.update(hinted)
        else:
            unhinted.append(rec.id)
    vectors = run.store.vectors(run.scope, unhinted)
    ids = [i for i in unhinted if i in vectors]
    if not ids:
        return _mergeable(run, near)
    import numpy as np

    matrix = np.vstack([vectors[i] for i in ids])
    every = hot_layers(tuple(Layer))  # unfiltered, so one matrix product answers every row
    found = run.store.search_vector_many(run.scope, matrix, VECTOR_NEIGHBOURS, every)
    for row, hits in enumerate(found):
        if len(hits) == VECTOR_NEIGHBOURS and hits[-1][1] >= NEAR_DUP_COSINE:  # more above it
            hits = run.store.search_vector(run.scope, matrix[row], DEEP, (Layer.CORE,))
        near.update(mid for mid, cos in hits if cos >= NEAR_DUP_COSINE)
    return _mergeable(run, near)


def _mergeable(run: Pass, ids: set[str]) -> dict[str, Record]:
    return {r.id: r for r in run.store.get_many(run.scope, sorted(ids)).values()
            if mergeable(r)}


def _pairs(run: Pass, records: list[Record],
           must: set[str] | None) -> Iterable[tuple[Record, Record, dict[str, float]]]:
    """(survivor, merged, evidence) for each near-duplicate pair, each memory in one pair at
    most, the oldest pairs first."""
    groups: dict[tuple[str, frozenset[str], frozenset[str]], list[Record]] = defaultdict(list)
    for rec in records:
        groups[(rec.kind.value, frozenset(rec.people), frozenset(rec.places))].append(rec)
    found: list[tuple[Record, Record]] = []
    for group in groups.values():
        if len(group) > 1:
            found.extend(_candidates(group, must))
    if not found:
        return
    vectors = run.store.vectors(run.scope, sorted({r.id for pair in found for r in pair}))
    used: set[str] = set()
    for old, new in sorted(found, key=lambda p: (_age(p[0]), _age(p[1]))):
        if old.id in used or new.id in used or old.id not in vectors or new.id not in vectors:
            continue
        cosine = run.compare.similar(Compared(old, vectors[old.id]),
                                     Compared(new, vectors[new.id]))
        verdict = _near_duplicate(new, slot_of(new.content, new.kind), [Neighbour(old, cosine)])
        if verdict is None:
            continue
        used.update((old.id, new.id))
        yield old, new, {"jaccard": verdict.evidence["jaccard"],
                         "cosine": verdict.evidence["cosine"]}


def _age(rec: Record) -> tuple[object, str]:
    return (rec.recorded_at, rec.id)


def _candidates(group: list[Record], must: set[str] | None) -> list[tuple[Record, Record]]:
    """Pairs of the group whose token sets may reach the Jaccard threshold (prefix filter),
    then checked exactly; (older, newer)."""
    tokens = {r.id: frozenset(tokenize(r.content, keep_stopwords=True)) for r in group}
    freq = Counter(t for toks in tokens.values() for t in toks)
    index: dict[str, list[Record]] = defaultdict(list)
    out = []
    for rec in sorted(group, key=lambda r: (len(tokens[r.id]), _age(r))):
        mine = tokens[rec.id]
        ordered = sorted(mine, key=lambda t: (freq[t], t))
        prefix = ordered[: len(ordered) - math.ceil(NEAR_DUP_JACCARD * len(ordered) - 1e-9) + 1]
        seen: set[str] = set()
        for tok in prefix:
            for other in index[tok]:
                if other.id in seen:
                    continue
                seen.add(other.id)
                if must is not None and rec.id not in must and other.id not in must:
                    continue
                theirs = tokens[other.id]
                if len(mine & theirs) >= NEAR_DUP_JACCARD * len(mine | theirs) - 1e-9:
                    out.append(tuple(sorted((rec, other), key=_age)))
            index[tok].append(rec)
    return out  # type: ignore[return-value]


def _merge(run: Pass, keep: Record, drop: Record, evidence: dict[str, float],
           report: PhaseReport) -> None:
    why = f"jaccard {evidence['jaccard']:.2f}, cosine {evidence['cosine']:.2f}"
    merge_pair(run, keep, drop, "near-duplicate", why, report)


def merge_pair(run: Pass, keep: Record, drop: Record, what: str, why: str,
               report: PhaseReport) -> None:
    """Fold ``drop`` into ``keep`` (both re-read and checked again inside the transaction):
    ``what`` names the rule in both histories, ``why`` its evidence."""
    with run.store.transaction():
        fresh = run.store.get_many(run.scope, [keep.id, drop.id])
        keep, drop = fresh.get(keep.id), fresh.get(drop.id)  # type: ignore[assignment]
        if keep is None or drop is None or not (mergeable(keep) and mergeable(drop)):
            return
        uses = sorted([*keep.last_uses, *drop.last_uses])[-8:]
        run.save(keep, "merge", f"{what} {drop.id} merged in ({why})", {
            "derived_from": [*keep.derived_from, drop.id],
            "metadata": {**keep.metadata, "merged": [*keep.metadata.get("merged", []), drop.id]},
            "importance": max(keep.importance, drop.importance),
            "use_count": keep.use_count + drop.use_count, "last_uses": uses})
        run.save(drop, "merged", f"{what} of {keep.id}, merged into it ({why})", {
            "layer": Layer.ARCHIVED, "metadata": {**drop.metadata, "merged_into": keep.id}})
    report.add("merged", drop.id)
    report.add("merge_survivor", keep.id)

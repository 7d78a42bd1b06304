"""Vectors computed after the write returns (``Config.embed = "deferred"``).

A deferred ``remember``, ``remember_many`` or ``ingest`` commits the record, its text index and
the decisions its text can make (write/textnear.py) and adds the memory to the store's pending
set, in the write's own transaction: the pending set lives in the database, so a process that
dies before the vectors are computed loses nothing, and the next open finishes them.

``VectorWorker`` computes them in batches: the oldest ``batch`` pending memories of any scope,
one model call for the batch, made outside any transaction (no store lock is held while the
model runs), then one short transaction per scope stores the vectors and takes the memories
off the pending set. A memory whose text changed meanwhile stays pending (the next batch embeds
the new text); one erased or gone is dropped. It runs on a thread of its own, woken by each
deferred write, stopped by ``close()`` (after the batch in hand), and the same ``step`` serves
``Memory.flush()``, the catch-up at open and at ``sleep()``; a lock lets one batch run at a time.

Completed in the batch, once the vector exists: the near-duplicate rule (write/supersede.py:
the same kind, anchors and numbers, token Jaccard >= 0.8 AND cosine >= 0.9), checked against
the memory's nearest stored neighbours exactly as the synchronous write checks it. Where the
synchronous write would have answered NOOP and stored nothing, the batch merges the pair as the
sleep's merge pass does (dynamics/merge.py): the older memory survives, with the newer in its
``derived_from`` and ``metadata["merged"]``, and the newer is archived with
``metadata["merged_into"]`` and the reason in its history. Not completed: the surprise that
scales a new memory's importance in the synchronous path (its importance stays as given)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np

from ..compare import DEFAULT, Comparers
from ..dynamics.merge import _merge, mergeable
from ..dynamics.passes import Pass, PhaseReport
from ..dynamics.strength import DecayParams
from ..model import Action, Kind, Record, Scope, WriteResult
from ..store.protocol import Pending, Store
from ..write.prepare import embed_text
from ..write.slots import slot_of
from ..write.supersede import _near_duplicate, neighbours
from .background import Background

log = logging.getLogger("engramdb")
# pending memories embedded per model call: a recall's query waits for the model call in hand
# (each model runs one call at a time), so a batch stays short; on CPU the cost per text hardly
# falls past a few texts a call (padding to the longest text of the batch)
BATCH = 16

Embed = Callable[[Sequence[str]], np.ndarray]


def defer_vectors(store: Store, scope: Scope, results: list[WriteResult]) -> int:
    """Add what a deferred write stored to the pending set (in the write's transaction) and
    say so in each result's evidence (``"vector": "pending"``). A new memory the guard could
    have found a near-duplicate of is marked to be judged again once its vector exists.
    Returns how many memories now wait for a vector."""
    items: dict[str, bool] = {}
    for result in results:
        if result.action not in (Action.ADD, Action.SUPERSEDE, Action.UPDATE):
            continue
        rec = result.memory
        judge = (result.action == Action.ADD and rec.kind != Kind.EVENT and rec.uri is None)
        items[rec.id] = items.get(rec.id, False) or judge
        result.evidence["vector"] = "pending"
    store.add_pending(scope, items)
    return len(items)


class VectorWorker(Background):
    """Computes pending vectors in batches, on its own thread or on the caller's (``flush``)."""

    def __init__(self, store: Store, embed: Embed, now: Callable[[], datetime],
                 params: DecayParams, batch: int = BATCH, compare: Comparers = DEFAULT) -> None:
        super().__init__("engramdb-vectors")   # error: why the thread's last run stopped
        self.store = store
        self._embed = embed
        self._now = now
        self._params = params
        self.batch = batch
        self._compare = compare   # the similarity the near-duplicate check asks (compare.py)
        self._step = threading.Lock()       # one batch at a time: the thread or a flush

    # ---------------------------------------------------------------- the thread

    def notify(self) -> None:
        """Wake the thread (starting it on first use): there is work pending."""
        with self._start:
            if self._stop.is_set():
                return
            self._launch()
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            try:
                while not self._stop.is_set() and self.step():
                    pass
                self.error = None
            except Exception as exc:  # the pending set stays stored: flush() or an open retries
                self.error = exc
                log.warning("engramdb: computing pending vectors failed: %s", exc)

    # ---------------------------------------------------------------- the work

    def flush(self) -> int:
        """Compute every pending vector now, on this thread; returns how many were stored."""
        done = 0
        while True:
            stored, seen = self._one_batch()
            done += stored
            if not seen:
                return done

    def step(self) -> int:
        """One batch; returns how many pending memories it looked at (0: none left)."""
        return self._one_batch()[1]

    def _one_batch(self) -> tuple[int, int]:
        with self._step:
            items = self.store.pending(self.batch)
            if not items:
                return 0, 0
            records = self._records(items)
            live = [(p, records[p.memory_id]) for p in items if p.memory_id in records]
            vectors = (self._embed([embed_text(rec) for _, rec in live]) if live
                       else np.zeros((0, 0), dtype=np.float32))
            stored = 0
            for scope in dict.fromkeys(p.scope for p in items):
                mine = [(i, p, rec) for i, (p, rec) in enumerate(live) if p.scope == scope]
                gone = [p.memory_id for p in items
                        if p.scope == scope and p.memory_id not in records]
                stored += self._store(scope, mine, vectors, gone)
            return stored, len(items)

    def _records(self, items: list[Pending]) -> dict[str, Record]:
        """The pending memories that can have a vector (not erased, not gone)."""
        found: dict[str, Record] = {}
        for scope in dict.fromkeys(p.scope for p in items):
            ids = [p.memory_id for p in items if p.scope == scope]
            found.update((mid, rec) for mid, rec in self.store.get_many(scope, ids).items()
                         if not rec.erased)
        return found

    def _store(self, scope: Scope, mine: list[tuple[int, Pending, Record]],
               vectors: np.ndarray, gone: list[str]) -> int:
        with self.store.transaction():
            fresh = self.store.get_many(scope, [rec.id for _, _, rec in mine])
            ready = {rec.id: vectors[i] for i, _, rec in mine
                     if (now := fresh.get(rec.id)) is not None and not now.erased
                     and embed_text(now) == embed_text(rec)}
            done = set(self.store.finish_pending(scope, ready, gone))
        for i, pending, rec in mine:
            if pending.judge and rec.id in done:
                self._near_duplicate(scope, rec.id, vectors[i])
        return len(done)

    def _near_duplicate(self, scope: Scope, memory_id: str, vector: np.ndarray) -> None:
        """The write guard's near-duplicate rule, now that the vector exists; a duplicate
        found is merged (the older survives), as the sleep's merge pass merges."""
        rec = self.store.get(scope, memory_id)
        if rec is None or not mergeable(rec):
            return
        nearby = neighbours(self.store, rec, vector, compare=self._compare)
        current = [n for n in nearby.candidates
                   if n.record.current and not n.record.erased and n.record.uri is None]
        verdict = _near_duplicate(rec, slot_of(rec.content, rec.kind), current)
        if verdict is None or verdict.target is None or not mergeable(verdict.target):
            return
        keep, drop = sorted((verdict.target, rec), key=lambda r: (r.recorded_at, r.id))
        run = Pass(self.store, scope, self._now(), self._params, compare=self._compare)
        _merge(run, keep, drop, {"jaccard": verdict.evidence["jaccard"],
                                 "cosine": verdict.evidence["cosine"]}, PhaseReport("write"))

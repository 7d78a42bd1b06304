"""Bulk writes on every core (embed/workers.py): the model worker processes give the vectors
the calling process gives, a bad setting is refused, and a worker that fails leaves nothing
written."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import ConfigError, Draft, EngramError
from engramdb.embed.hashing import HashingEmbedder
from engramdb.embed.pooled import PASSAGE_UNITS, embed_in_chunks, split
from engramdb.embed.workers import (
    WorkerFailed,
    WorkerPool,
    WorkerSpec,
    WorkerStartFailed,
    workers_for,
)
from engramdb.registry import make_embedder, register_embedder, worker_factory


def test_the_workers_give_the_vectors_of_the_calling_process() -> None:
    texts = [f"Caroline said thing number {i} about the adoption agencies" for i in range(18)]
    texts[3] = "我上个月在柏林参加了一个关于心理咨询的讲座，收获很多。"
    texts[7] = " ".join(f"Sentence {i} of a long message about the garden and the lake."
                        for i in range(40))   # several passages: pooled, its parts kept
    model = make_embedder("default")
    factory = worker_factory("default")
    assert factory is not None
    here_memo, pool_memo = Memo(), Memo()
    here = embed_in_chunks(model, texts, 16, here_memo)
    pool = WorkerPool(WorkerSpec(factory, {"threads": 1}), 2)
    try:
        alone = list(pool.map(split(texts, 16), PASSAGE_UNITS))   # the workers alone
        assert pool.started == 2
        pids = {w.proc.pid for w in pool._workers}
        seen: list[tuple[int, int]] = []
        got = embed_in_chunks(model, texts, 16, pool_memo, lambda d, t: seen.append((d, t)),
                              pool=pool)                           # the workers and here
    finally:
        pool.close()
    assert len(pids) == 2 and os.getpid() not in pids
    assert np.array_equal(np.vstack([vectors for vectors, _ in alone]), here)  # bit for bit
    assert np.array_equal(alone[0][1][7], here_memo.rows[0][1])
    assert np.array_equal(got, here)
    assert seen == [(16, 18), (18, 18)]          # in order, chunk by chunk
    assert len(pool_memo.rows) == len(here_memo.rows) == 1
    assert np.array_equal(pool_memo.rows[0][1], here_memo.rows[0][1])


class Memo:
    def __init__(self) -> None:
        self.rows: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, vector: np.ndarray, parts: np.ndarray) -> None:
        self.rows.append((vector, parts))


@pytest.mark.parametrize("bad", [0, -2, 2.5, True, "2"])
def test_a_bad_worker_count_is_refused(bad: Any) -> None:
    with pytest.raises(ConfigError, match="embed_workers"):
        engramdb.Config(embed_workers=bad)


@pytest.mark.parametrize("bad", ["0", "-1", "many", "1.5"])
def test_a_bad_worker_count_from_the_environment_is_refused(
        bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAMDB_EMBED_WORKERS", bad)
    with pytest.raises(ConfigError, match="ENGRAMDB_EMBED_WORKERS"):
        engramdb.open(tmp_path / "m.db", embedder="hashing")


def test_the_default_count_is_the_cores_within_memory() -> None:
    assert workers_for(3, 1, 1) == 3
    cores = len(os.sched_getaffinity(0))
    assert workers_for(None, 1, 1) == cores
    assert workers_for(None, 1, 1 << 60) == 1          # no room for a second model copy


class Fussy(HashingEmbedder):
    """The hashing embedder, run in workers, that fails on one input: an exception for
    "boom"; for "crash", a worker process dies (the calling process raises instead)."""

    def embed_batch(self, texts: Any, *, query: bool = False) -> np.ndarray:
        if any("crash" in t for t in texts) and sys.argv[0].endswith("workerproc.py"):
            os._exit(3)
        if any("boom" in t or "crash" in t for t in texts):
            raise ValueError("cannot embed this")
        return super().embed_batch(texts, query=query)


def fussy(**_: Any) -> Fussy:
    return Fussy()


register_embedder("test-fussy", fussy, workers=True)


@pytest.mark.parametrize("bad", ["boom", "crash"])
def test_a_failing_worker_writes_nothing(bad: str, tmp_path: Path) -> None:
    drafts = [Draft(f"note {i} about topic {i}", kind="event") for i in range(80)]
    failed = r"cannot embed this|model worker died \(exit code 3\)"
    with engramdb.open(tmp_path / "m.db", embedder="test-fussy", embed_workers=2) as mem:
        spoiled = drafts[:60] + [Draft(f"note {bad}", kind="event")] + drafts[60:]
        with pytest.raises(EngramError, match=failed):
            mem.remember_many(spoiled)
        assert mem.count(kind="event") == 0          # all or nothing, as in one process
        with pytest.raises(EngramError, match=failed):
            mem.ingest([{"role": "user", "content": d.content} for d in spoiled])
        assert mem.count(kind="event") == 0
        assert len(mem.remember_many(drafts)) == 80   # the workers (or fresh ones) go on
        assert mem.count(kind="event") == 80
        assert mem._pool is not None
        procs = [w.proc for w in mem._pool._workers]
    assert len(procs) == 1 and all(p.poll() is not None for p in procs)  # closed with it


def test_a_worker_that_dies_is_replaced() -> None:
    pool = WorkerPool(WorkerSpec(fussy), 1)
    try:
        with pytest.raises(WorkerFailed, match=r"died \(exit code 3\)"):
            list(pool.map([["crash"]], PASSAGE_UNITS))
        assert len(list(pool.map([["fine"], ["also fine"]], PASSAGE_UNITS))) == 2
    finally:
        pool.close()


def stubborn(**_: Any) -> HashingEmbedder:
    """Builds in the calling process, not in a worker (a plugin a worker cannot load)."""
    if sys.argv[0].endswith("workerproc.py"):
        raise ImportError("no such model here")
    return HashingEmbedder()


register_embedder("test-stubborn", stubborn, workers=True)


def test_workers_that_cannot_start_leave_the_work_here(tmp_path: Path) -> None:
    pool = WorkerPool(WorkerSpec(stubborn), 1)
    model = HashingEmbedder()
    try:
        with pytest.raises(WorkerStartFailed, match="ImportError: no such model here"):
            list(pool.map([["a"]], PASSAGE_UNITS))
        got = list(pool.map([["a"], ["b"], ["c"]], PASSAGE_UNITS,
                            lambda chunk: (model.embed_batch(chunk), [None] * len(chunk))))
        assert pool.broken
    finally:
        pool.close()
    assert np.array_equal(np.vstack([v for v, _ in got]), model.embed_batch(["a", "b", "c"]))
    drafts = [Draft(f"note {i} about topic {i}", kind="event") for i in range(80)]
    with engramdb.open(tmp_path / "m.db", embedder="test-stubborn", embed_workers=3) as mem:
        assert len(mem.remember_many(drafts)) == 80
        assert mem.recall("topic 17", k=1, track=False)[0].memory.content == drafts[17].content

"""Writes that return before the vector (Config.embed = "deferred", engine/deferred.py): the
record, its text index and the text's decisions commit at once, the vector is pending in the
database and computed in batches (a worker thread, flush(), the catch-up at open and at
sleep). On SQLite and PostgreSQL, in English and Chinese."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import Action, Config, ConfigError, Draft
from engramdb.embed.hashing import HashingEmbedder
from engramdb.engine.deferred import BATCH
from engramdb.model import Layer

BACKENDS = ("sqlite", "postgres")
WORKER = "engramdb-vectors"  # the worker thread's name (engine/deferred.py)
SRC = str(Path(__file__).resolve().parents[1] / "src")


class WorkerFails(HashingEmbedder):
    """The same model (same id, same vectors), unavailable on the worker thread only: what
    it leaves pending stays pending until flush, sleep or an open computes it. Counts the
    model calls for documents."""

    def __init__(self) -> None:
        super().__init__()
        self.document_calls: list[int] = []

    def embed_batch(self, texts: Any, *, query: bool = False) -> np.ndarray:
        if threading.current_thread().name == WORKER:
            raise RuntimeError("the model is unavailable on the worker")
        if not query:
            self.document_calls.append(len(texts))
        return super().embed_batch(texts, query=query)


@pytest.fixture
def target(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> str:
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "memory.db")


def opened(target: str, clock: Any, embedder: Any = None, embed: str = "deferred") -> Any:
    return engramdb.open(target, embedder=embedder or "hashing", clock=clock, embed=embed)


def vectors_of(mem: Any, ids: list[str]) -> dict[str, np.ndarray]:
    return mem.store.vectors(mem.default_scope, ids)


# ------------------------------------------------------------------ the setting

def test_embed_setting_is_checked() -> None:
    assert Config().embed == "sync"
    assert Config.load(embed="deferred").embed == "deferred"
    for bad in ("async", "", "Deferred", 1):
        with pytest.raises(ConfigError, match="embed must be one of sync, deferred"):
            Config(embed=bad)  # type: ignore[arg-type]


def test_embed_setting_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAMDB_EMBED", "deferred")
    assert Config.load().embed == "deferred"
    monkeypatch.setenv("ENGRAMDB_EMBED", "later")
    with pytest.raises(ConfigError):
        Config.load()


# ------------------------------------------------------------------ pending, then found

@pytest.mark.parametrize("content,query", [
    ("Our Lisbon office opens at eight", "Lisbon office"),
    ("我们的里斯本办公室八点开门", "里斯本办公室"),
])
def test_found_by_words_at_once_and_by_meaning_once_embedded(target, clock, content, query):  # type: ignore[no-untyped-def]
    model = WorkerFails()
    with opened(target, clock, model) as mem:
        result = mem.remember(content, kind="fact")
        assert result.action == Action.ADD and result.evidence["vector"] == "pending"
        assert mem.stats().pending_vectors == 1
        assert vectors_of(mem, [result.memory.id]) == {}
        hits = mem.recall(query, track=False)
        assert [h.memory.id for h in hits] == [result.memory.id]
        assert "dense" not in hits[0].explanation.legs       # the dense leg skips it
        assert mem.flush() == 1
        assert mem.stats().pending_vectors == 0
        stored = vectors_of(mem, [result.memory.id])[result.memory.id]
        assert np.allclose(stored, model.embed_batch([content])[0])
        hits = mem.recall(query, track=False)
        assert hits[0].memory.id == result.memory.id
        assert hits[0].explanation.legs["dense"].rank == 1


def test_the_dense_leg_skips_pending_memories_among_embedded_ones(target, clock):  # type: ignore[no-untyped-def]
    model = WorkerFails()
    with opened(target, clock, model, embed="sync") as mem:
        done = mem.remember("the heating engineer comes on Monday", kind="event").memory
    with opened(target, clock, model) as mem:
        later = mem.remember("the heating engineer comes on Tuesday", kind="event").memory
        hits = mem.recall("when does the heating engineer come", track=False)
        legs = {h.memory.id: h.explanation.legs for h in hits}
        assert set(legs) == {done.id, later.id}
        assert "dense" in legs[done.id] and "dense" not in legs[later.id]
        assert all(0 <= h.score < 10 for h in hits)


def test_one_model_call_per_batch(target, clock):  # type: ignore[no-untyped-def]
    model = WorkerFails()
    drafts = [Draft(f"note {i}: the shipment to depot {i} left on time", kind="event")
              for i in range(70)]
    with opened(target, clock, model) as mem:
        results = mem.remember_many(drafts)
        assert model.document_calls == []          # the write itself called no model
        assert mem.stats().pending_vectors == 70
        assert mem.flush() == 70
        assert model.document_calls == [BATCH] * (70 // BATCH) + [70 % BATCH]
        assert len(vectors_of(mem, [r.memory.id for r in results])) == 70


class Gated(HashingEmbedder):
    """The worker's model call waits for the test to open the gate; ``started`` is set once
    the worker is inside it. Records which threads embedded documents."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.gate = threading.Event()
        self.threads: list[str] = []

    def embed_batch(self, texts: Any, *, query: bool = False) -> np.ndarray:
        if not query:
            self.threads.append(threading.current_thread().name)
        if threading.current_thread().name == WORKER:
            self.started.set()
            assert self.gate.wait(60)
        return super().embed_batch(texts, query=query)


def test_the_worker_computes_them_off_the_callers_path(target, clock):  # type: ignore[no-untyped-def]
    model = Gated()
    with opened(target, clock, model) as mem:
        ids = [r.memory.id for r in mem.remember_many(
            [Draft(f"用户在第{i}周完成了报告", kind="event") for i in range(BATCH)])]
        assert model.started.wait(60)          # the worker is in the model call ...
        assert mem.stats().pending_vectors == BATCH   # ... the write returned before it
        assert [h.memory.id for h in mem.recall("第3周", track=False)][:1] == [ids[3]]
        model.gate.set()
        assert mem.flush() == 0                # waits for the worker's batch: nothing left
        assert len(vectors_of(mem, ids)) == BATCH
        assert model.threads == [WORKER]       # one model call, on the worker's thread


def test_close_stops_the_worker_after_the_batch_in_hand(target, clock):  # type: ignore[no-untyped-def]
    model = Gated()
    mem = opened(target, clock, model)
    first = mem.remember("the worker thread starts with the first deferred write").memory
    assert model.started.wait(60)
    worker = mem._later
    closing = threading.Thread(target=mem.close)
    closing.start()
    model.gate.set()
    closing.join(60)
    assert not closing.is_alive() and not worker.running
    worker.notify()             # a closed worker does not start again
    assert not worker.running
    with opened(target, clock, WorkerFails()) as again:
        assert again.stats().pending_vectors == 0          # the batch in hand was stored
        assert first.id in vectors_of(again, [first.id])


# ------------------------------------------------------------------ nothing lost

def test_a_restart_finishes_what_a_failed_worker_left(target, clock):  # type: ignore[no-untyped-def]
    with opened(target, clock, WorkerFails()) as mem:
        ids = [r.memory.id for r in mem.remember_many(
            [Draft("Ana prefers window seats"), Draft("安娜喜欢靠窗的座位")])]
        assert mem.stats().pending_vectors == 2
    with opened(target, clock, WorkerFails()) as mem:   # still pending: nothing was lost
        assert mem.stats().pending_vectors == 2
    with opened(target, clock, embed="sync") as mem:    # a sync open finishes them first
        assert mem.stats().pending_vectors == 0
        assert len(vectors_of(mem, ids)) == 2


KILLED = textwrap.dedent("""
    import os, sys, threading
    import engramdb
    from engramdb.embed.hashing import HashingEmbedder

    class Stuck(HashingEmbedder):
        def embed_batch(self, texts, *, query=False):
            if threading.current_thread().name == "engramdb-vectors":
                threading.Event().wait()   # the model never answers: the process dies first
            return super().embed_batch(texts, query=query)

    mem = engramdb.open(sys.argv[1], embedder=Stuck(), embed="deferred")
    mem.remember_many([engramdb.Draft(t) for t in sys.argv[2:]])
    mem.remember("the last write before the crash", kind="event")
    print("written", flush=True)
    os._exit(9)
""")


def test_a_killed_process_loses_no_vector(target, clock):  # type: ignore[no-untyped-def]
    texts = ["Tom's flight lands at 18:40", "汤姆的航班18:40降落", "the invoice is due in May"]
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("ENGRAMDB_EMBED", None)
    done = subprocess.run([sys.executable, "-c", KILLED, target, *texts], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 9 and "written" in done.stdout, done.stderr
    with opened(target, clock, WorkerFails()) as mem:
        assert mem.count() == 4 and mem.stats().pending_vectors == 4
        assert [h.memory.content for h in mem.recall("invoice due", track=False)][:1] == [
            "the invoice is due in May"]                   # BM25 finds it meanwhile
        assert mem.flush() == 4
        assert len(vectors_of(mem, [r.id for r in mem.list()])) == 4


def test_sleep_catches_up_first(target, clock):  # type: ignore[no-untyped-def]
    with opened(target, clock, WorkerFails()) as mem:
        first = mem.remember("the team retro is every second Thursday", kind="fact")
        assert mem.stats().pending_vectors == 1
        mem.sleep()
        assert mem.stats().pending_vectors == 0
        assert first.memory.id in vectors_of(mem, [first.memory.id])


# ------------------------------------------------------------------ the decisions

SEQUENCES = [
    # slot rules: decided at write time from the slot token (text)
    ["I live in Berlin", "I live in Hamburg"],
    ["我住在北京", "我住在上海"],
    # shape rules: decided at write time from the BM25 neighbours
    ["The dentist appointment is on Tuesday", "The dentist appointment is on Friday"],
    ["站会在9:30", "站会改到10:00"],
    ["Our servers run Ubuntu 22.04", "Our servers run Ubuntu 24.04"],
    # other facts side by side
    ["Mara lives in Oslo", "Mara works in Oslo"],
    ["王芳住在杭州", "王芳的妹妹住在杭州"],
]


@pytest.mark.parametrize("texts", SEQUENCES)
def test_text_decisions_are_the_sync_ones(target, tmp_path, clock, texts):  # type: ignore[no-untyped-def]
    sync_results, sync_current = _written(str(tmp_path / "sync.db"), clock, texts, "sync")
    later_results, later_current = _written(target, clock, texts, "deferred")
    assert [(r.action, r.rule) for r in later_results] == [
        (r.action, r.rule) for r in sync_results]
    assert later_current == sync_current


NEAR_DUPLICATES = [
    ["The quarterly report goes to Ines on Friday", "the quarterly report goes to Ines on Friday!"],
    ["季度报告周五交给伊内斯", "季度报告周五交给伊内斯！"],
    ["Ravi likes strong black coffee in the morning",
     "In the morning Ravi likes strong black coffee"],
]


@pytest.mark.parametrize("texts", NEAR_DUPLICATES)
def test_a_near_duplicate_is_merged_once_its_vector_exists(target, tmp_path, clock, texts):  # type: ignore[no-untyped-def]
    sync_results, sync_current = _written(str(tmp_path / "sync.db"), clock, texts, "sync")
    assert sync_results[1].action == Action.NOOP and sync_results[1].rule == "near_duplicate"
    with opened(target, clock, WorkerFails()) as mem:
        first = mem.remember(texts[0], kind="fact")
        clock.advance(minutes=1)
        second = mem.remember(texts[1], kind="fact")
        assert second.action == Action.ADD          # the cosine is not known yet
        assert mem.count() == 2
        mem.flush()
        assert [r.content for r in mem.list()] == sync_current == [texts[0]]
        kept = mem.get(first.memory.id)
        merged = mem.get(second.memory.id)
        assert merged.layer == Layer.ARCHIVED
        assert merged.metadata["merged_into"] == kept.id
        assert kept.metadata["merged"] == [merged.id]
        assert mem.history(merged.id)[-1].op == "merged"


def test_a_different_memory_is_not_merged(target, clock):  # type: ignore[no-untyped-def]
    with opened(target, clock, WorkerFails()) as mem:
        mem.remember("The quarterly report goes to Ines on Friday", kind="fact")
        mem.remember("The quarterly report goes to Ines on Monday 3", kind="fact")
        mem.flush()
        assert mem.count() == 2 and mem.count(layer="archived") == 0


def test_a_rewritten_uri_gets_the_vector_of_its_new_text(target, clock):  # type: ignore[no-untyped-def]
    model = WorkerFails()
    with opened(target, clock, model, embed="sync") as mem:
        old = mem.remember("the VPN gateway is vpn-a", uri="core://vpn").memory
    with opened(target, clock, model) as mem:
        new = mem.remember("the VPN gateway is vpn-b", uri="core://vpn")
        assert new.action == Action.UPDATE and new.memory.id == old.id
        assert vectors_of(mem, [old.id]) == {}      # the old text's vector is gone
        mem.flush()
        assert np.allclose(vectors_of(mem, [old.id])[old.id],
                           model.embed_batch(["the VPN gateway is vpn-b"])[0])


def test_ingest_defers_too(target, clock):  # type: ignore[no-untyped-def]
    with opened(target, clock, WorkerFails()) as mem:
        report = mem.ingest([{"role": "user", "content": "I moved to Porto last spring"},
                             {"role": "user", "content": "我上个月开始学葡萄牙语"}],
                            session="s1")
        assert mem.stats().pending_vectors >= len(report.events) == 2
        assert mem.flush() >= 2
        assert mem.stats().pending_vectors == 0


def _written(target: str, clock: Any, texts: list[str], embed: str) -> tuple[list[Any], list[str]]:
    with opened(target, clock, WorkerFails(), embed=embed) as mem:
        results = []
        for text in texts:
            results.append(mem.remember(text, kind="fact"))
            clock.advance(minutes=1)
        mem.flush()
        current = sorted(r.content for r in mem.list(include_superseded=False))
    return results, current


# ------------------------------------------------------------------ the CLI

@pytest.mark.sqlite_only
@pytest.mark.parametrize("embed", ["sync", "deferred"])
def test_cli_index_wait_leaves_nothing_pending(tmp_path, clock, monkeypatch, embed):  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from engramdb.cli import app

    db = str(tmp_path / "memory.db")
    with opened(db, clock, WorkerFails()) as mem:
        ids = [r.memory.id for r in mem.remember_many([Draft("Lena's bike is in the shed"),
                                                       Draft("莉娜的自行车在棚子里")])]
        assert mem.stats().pending_vectors == 2
    monkeypatch.delenv("ENGRAMDB_URL", raising=False)
    env = {"ENGRAMDB_EMBEDDER": "hashing", "ENGRAMDB_EMBED": embed}
    done = CliRunner().invoke(app, ["--db", db, "index", "--wait", "--json"], env=env)
    assert done.exit_code == 0, done.output
    counts = json.loads(done.stdout)
    assert counts["pending"] == 0 and 0 <= counts["computed"] <= 2
    shown = CliRunner().invoke(app, ["--db", db, "index"], env=env)
    assert shown.exit_code == 0 and shown.stdout.strip() == "0 pending"
    with opened(db, clock, WorkerFails()) as mem:
        assert len(vectors_of(mem, ids)) == 2


def test_forgetting_a_scope_forgets_its_pending_vectors(target, clock):  # type: ignore[no-untyped-def]
    with opened(target, clock, WorkerFails()) as mem:
        mem.remember("Jonas keeps the spare key under the blue pot", user="jonas")
        mem.remember("the spare key is with the neighbour", user="ana")
        assert mem.stats(user="jonas").pending_vectors == 1
        mem.forget_scope(user="jonas")
        assert mem.stats(user="jonas").pending_vectors == 0
        assert mem.stats(user="ana").pending_vectors == 1
        assert mem.flush() == 1


def test_an_open_whose_catch_up_fails_still_opens(target, clock, caplog):  # type: ignore[no-untyped-def]
    class Down(HashingEmbedder):
        def embed_batch(self, texts: Any, *, query: bool = False) -> np.ndarray:
            if not query:
                raise RuntimeError("the model server is down")
            return super().embed_batch(texts, query=query)

    with opened(target, clock, WorkerFails()) as mem:
        mem.remember("the boiler was serviced in March")
    with opened(target, clock, Down(), embed="sync") as mem:
        assert mem.stats().pending_vectors == 1
        assert "the model server is down" in caplog.text
        with pytest.raises(engramdb.EngramError, match="the model server is down"):
            mem.flush()

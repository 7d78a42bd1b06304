"""Recall while other connections and processes write (issue 18): the BM25 statistics a
ranking uses come from the same snapshot as the rows it scores."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engramdb

BENCH = Path(__file__).resolve().parent.parent / "bench" / "reliability" / "concurrency.py"


@pytest.fixture(scope="module")
def concurrency() -> ModuleType:
    # imported by its own name from its folder: the spawned workers import it the same way
    sys.path.insert(0, str(BENCH.parent))
    return importlib.import_module("concurrency")


def test_a_write_between_the_totals_and_the_counts_changes_nothing(tmp_path):  # type: ignore[no-untyped-def]
    """Another connection commits rows right before the reader counts a term's documents:
    the ranking still reads the counts of the snapshot its totals came from."""
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing") as reader, \
            engramdb.open(path, embedder="hashing") as writer:
        me, other = reader.scope(user="u"), writer.scope(user="u")
        for i in range(5):  # events: a fact of the same words with another number would
            other.remember(f"common fact number {i}", kind="event")   # supersede the last
        # dense: a text recall here would count "common" and, expanding the query from its
        # hits (recall/expand.py), "fact" and "number": the counts below would be cached
        before = [h.memory.id for h in me.recall("common", k=5, track=False, preset="dense")]
        assert len(before) == 5
        fired: list[str] = []

        def interleave(sql: str) -> None:
            if "MATCH" in sql and "count(*)" in sql and not fired:
                fired.append(sql)
                for i in range(5, 25):
                    other.remember(f"common fact number {i} 又一条", kind="event")

        reader.store._db.set_trace_callback(interleave)  # type: ignore[attr-defined]
        try:
            hits = me.recall("common number", k=5, track=False, preset="lexical")
        finally:
            reader.store._db.set_trace_callback(None)  # type: ignore[attr-defined]
        assert fired, "the ranking did not count documents: the test does not test it"
        assert len(hits) == 5
        after = me.recall("common", k=30, track=False, preset="lexical")
        assert len(after) == 25


def test_writers_and_readers_in_processes(concurrency, tmp_path):  # type: ignore[no-untyped-def]
    figures = concurrency.run(str(tmp_path / "load.db"), writers=2, per_writer=120, readers=2)
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["lost"] == 0 and figures["duplicates"] == 0
    assert figures["writes_acked"] == 240 and figures["recalls"] >= 40


def test_writers_and_readers_through_serve_on_postgresql(concurrency, pg_url, tmp_path):  # type: ignore[no-untyped-def]
    """The same property through `engramdb serve --workers 2` on PostgreSQL, over HTTP."""
    figures = concurrency.run_served(pg_url, writers=2, per_writer=25, readers=1, workers=2,
                                     seconds=240, log=tmp_path / "serve.log")
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["lost"] == 0 and figures["duplicates"] == 0
    assert figures["writes_acked"] == 50 and figures["recalls"] >= 20

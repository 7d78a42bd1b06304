"""What the SQLite store keeps between recalls, per scope, until a row changes: the core memories
holding a concept (``concept_members``, what association spreads through) and each word's
document count (``term_counts``, relevance's IDF and expansion's rare words). After every kind
of change, from this connection or another one, and inside a transaction, they must be what
the tables say now."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Layer, Scope
from engramdb.store.sqlite.search import scope_token
from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import FrozenClock

ANN, BEN = Scope("ann", "default"), Scope("ben", "default")
CONCEPTS = ("person:maria", "person:王伟", "place:lisbon", "place:北京", "person:nobody")
WORDS = ("maria", "lisbon", "王伟", "北京", "birthday", "flat", "nothing")
LAYERS = ([Layer.CORE], [Layer.CORE, Layer.ARCHIVED], [Layer.DELETED])


def table(store: SQLiteStore, scope: Scope, concept: str) -> list[str]:
    rows = store._db.execute(
        "SELECT m.id FROM concepts c JOIN memories m ON m.rowid = c.mem_rowid "
        "WHERE c.user = ? AND c.agent = ? AND c.concept = ? AND m.layer = ?",
        (scope.user, scope.agent, concept, Layer.CORE.value)).fetchall()
    return sorted(r[0] for r in rows)


def holding(store: SQLiteStore, scope: Scope, word: str, layers: list[Layer]) -> int:
    match = f'scope : "{scope_token(scope)}" AND {{body anchors context}} : "{word}"'
    return int(store._db.execute(
        "SELECT count(*) FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
        f"WHERE memories_fts MATCH ? AND m.layer IN ({', '.join('?' * len(layers))})",
        (match, *[lay.value for lay in layers])).fetchone()[0])


def check(store: SQLiteStore, *scopes: Scope) -> None:
    for scope in scopes:
        for _ in range(2):   # read, then kept: both what the tables hold
            for concept in CONCEPTS:
                assert store.concept_members(scope, concept, 50) == table(store, scope,
                                                                           concept), concept
            for layers in LAYERS:
                assert store.term_counts(scope, WORDS, 64, layers) == {
                    w: holding(store, scope, w, layers) for w in WORDS}, layers


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def test_kept_members_and_counts_follow_every_change(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        store = mem.store
        assert isinstance(store, SQLiteStore)
        check(store, ANN, BEN)   # empty
        lunch = mem.remember("Lunch with Maria in Lisbon", kind="event", people=["Maria"],
                             places=["Lisbon"], user="ann").memory
        mem.remember("和王伟在北京开会", kind="event", people=["王伟"], places=["北京"],
                     user="ann")
        mem.remember("Maria called about the Lisbon flat", people=["Maria"], user="ben")
        check(store, ANN, BEN)
        assert store.concept_members(ANN, "person:maria", 50) == [lunch.id]
        mem.remember("Maria's birthday is in May", people=["Maria"], user="ann")   # a write
        check(store, ANN, BEN)
        mem.update(lunch.id, people=["王伟"], user="ann")              # its people change
        check(store, ANN, BEN)
        assert lunch.id in store.concept_members(ANN, "person:王伟", 50)
        mem.forget(lunch.id, user="ann")                                # core -> deleted
        check(store, ANN, BEN)
        assert lunch.id not in store.concept_members(ANN, "person:王伟", 50)
        with engramdb.open(path, embedder="hashing", clock=clock) as other:  # another writer
            again = other.remember("Maria moved to Lisbon", people=["Maria"], places=["Lisbon"],
                                   user="ann").memory
            other.restore(lunch.id, user="ann")
        check(store, ANN, BEN)
        assert again.id in store.concept_members(ANN, "place:lisbon", 50)
        mem.forget_scope(user="ben")
        check(store, ANN, BEN)
        with store.transaction():   # inside a transaction: read as the table is now
            mem.remember("王伟 flies to Beijing", people=["王伟"], user="ann")
            check(store, ANN)
        check(store, ANN)


def test_a_recall_looks_at_other_commits_once_and_sees_them_after(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Inside ``steady()`` (one recall) ``PRAGMA data_version`` is read once; a commit of
    another connection is seen once it ends, a write of this one at once."""
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        store = mem.store
        assert isinstance(store, SQLiteStore)
        for text in ("Lunch with Maria in Lisbon", "Maria called about the Lisbon flat",
                     "和王伟在北京开会"):
            mem.remember(text, people=["Maria"] if "Maria" in text else [], user="ann")
        mem.recall("Maria", user="ann", track=False)
        statements: list[str] = []
        store._db.set_trace_callback(statements.append)
        mem.recall("where is Maria's flat", user="ann", track=False)
        store._db.set_trace_callback(None)
        assert statements.count("PRAGMA data_version") == 1   # (FTS5 asks its own too)
        with store.steady():
            check(store, ANN)
            with engramdb.open(path, embedder="hashing", clock=clock) as other:
                other.remember("Maria moved to Lisbon", people=["Maria"], user="ann")
            mem.remember("王伟 flies to Beijing", people=["王伟"], user="ann")   # its own write
            check(store, ANN)
        check(store, ANN)
        with store.steady():
            with engramdb.open(path, embedder="hashing", clock=clock) as other:
                born = other.remember("Maria's birthday is in May", people=["Maria"],
                                      user="ann").memory
        check(store, ANN)
        assert len(store.concept_members(ANN, "person:maria", 50)) == 4
        vector = mem.embedder.embed_batch([born.content])[0]   # the vectors follow it too
        assert store.search_vector(ANN, vector, 1, [Layer.CORE])[0][0] == born.id


def test_one_threads_steady_recall_leaves_another_threads_reads_fresh(tmp_path, clock):  # type: ignore[no-untyped-def]
    """``steady()`` holds the version for its own thread: a server's other threads still see
    another process's commit at once."""
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        store = mem.store
        assert isinstance(store, SQLiteStore)
        mem.remember("Lunch with Maria in Lisbon", people=["Maria"], user="ann")
        check(store, ANN)
        with store.steady():
            check(store, ANN)   # the version read, and held for this thread
            with engramdb.open(path, embedder="hashing", clock=clock) as other:
                other.remember("Maria moved to Lisbon", people=["Maria"], user="ann")
            failed: list[BaseException] = []

            def elsewhere() -> None:
                try:
                    check(store, ANN)
                    assert len(store.concept_members(ANN, "person:maria", 50)) == 2
                except BaseException as exc:  # noqa: BLE001 - reported in the test's thread
                    failed.append(exc)

            worker = threading.Thread(target=elsewhere)
            worker.start()
            worker.join()
            assert not failed, failed

"""The core memories holding a concept (SQLiteStore.concept_members, what association spreads
through), kept between recalls: after every kind of change, from this connection or another
one, and inside a transaction, they must be what the concepts table says now."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Layer, Scope
from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import FrozenClock

ANN, BEN = Scope("ann", "default"), Scope("ben", "default")
CONCEPTS = ("person:maria", "person:王伟", "place:lisbon", "place:北京", "person:nobody")


def table(store: SQLiteStore, scope: Scope, concept: str) -> list[str]:
    rows = store._db.execute(
        "SELECT m.id FROM concepts c JOIN memories m ON m.rowid = c.mem_rowid "
        "WHERE c.user = ? AND c.agent = ? AND c.concept = ? AND m.layer = ?",
        (scope.user, scope.agent, concept, Layer.CORE.value)).fetchall()
    return sorted(r[0] for r in rows)


def check(store: SQLiteStore, *scopes: Scope) -> None:
    for scope in scopes:
        for concept in CONCEPTS:
            for _ in range(2):   # read, then kept: both what the table holds
                assert store.concept_members(scope, concept, 50) == table(store, scope,
                                                                           concept), concept


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def test_concept_members_follow_every_change(tmp_path, clock):  # type: ignore[no-untyped-def]
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

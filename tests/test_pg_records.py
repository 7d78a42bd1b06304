"""The PostgreSQL store's record cache (store/pg_records.py): get_many answers as a read of the
rows does after writes from another store object (another process's view), hands out copies,
sees a caller's uncommitted writes inside its transaction, and keeps nothing it fetched while
another reader moved the scope on."""

from __future__ import annotations

import pytest

from engramdb.model import Layer, Scope
from engramdb.store.base import IndexText
from engramdb.store.contract import ALICE, BOB, make_record, unit
from engramdb.store.postgres import PostgresStore
from engramdb.testing import StoreContract


class TestPostgresStoreWithoutCaches(StoreContract):
    """The store contract with every read going to the server (no record cache, SQL text)."""

    @pytest.fixture
    def store(self, pg_url):  # type: ignore[no-untyped-def]
        s = PostgresStore(pg_url, record_cache=0, text_index_min_docs=10**9)
        yield s
        s.close()


IDS = [make_record(n).id for n in range(12)]


def same(store: PostgresStore, scope: Scope = ALICE, ids: list[str] = IDS) -> None:
    assert store.get_many(scope, ids) == store._get_many(scope, ids)


@pytest.fixture
def pair(pg_url):  # type: ignore[no-untyped-def]
    reader, writer = PostgresStore(pg_url), PostgresStore(pg_url)
    yield reader, writer
    reader.close()
    writer.close()


def test_follows_writes_from_another_store(pair) -> None:  # type: ignore[no-untyped-def]
    reader, writer = pair
    writer.bulk_insert([(make_record(n, metadata={"n": n}), IndexText(f"m {n}", ""), unit(n))
                        for n in range(8)])
    same(reader)
    assert reader._cache.held()[("alice", "noah")] == 8
    writer.insert(make_record(9), IndexText("nine", ""), unit(9))
    writer.save(make_record(2, content="changed", version=2), "update")
    writer.save(make_record(3, layer=Layer.ARCHIVED, version=2), "archive")
    same(reader)
    assert reader.get_many(ALICE, [IDS[2]])[IDS[2]].content == "changed"
    writer.record_uses(ALICE, [IDS[4]], make_record(4).at, 0)
    assert reader.get_many(ALICE, [IDS[4]])[IDS[4]].use_count == 1
    writer.erase(make_record(5, layer=Layer.DELETED, content="", version=2))
    same(reader)
    writer.drop_scope(ALICE, make_record(1).at)
    assert reader.get_many(ALICE, IDS) == {}
    writer.bulk_insert([(make_record(n), None, None) for n in range(3)])
    same(reader)


def test_callers_get_copies(pair) -> None:  # type: ignore[no-untyped-def]
    reader, writer = pair
    writer.insert(make_record(1, people=["Li"], metadata={"tags": ["a"]}), None, None)
    first = reader.get_many(ALICE, [IDS[1]])[IDS[1]]
    first.people.append("Bo")
    first.metadata["tags"].append("b")
    first.content = "edited"
    again = reader.get_many(ALICE, [IDS[1]])[IDS[1]]
    assert (again.people, again.metadata, again.content) == (["Li"], {"tags": ["a"]}, "memory 1")


def test_inside_a_transaction_the_rows_answer(pair) -> None:  # type: ignore[no-untyped-def]
    reader, _ = pair
    reader.insert(make_record(1), None, None)
    assert reader.get_many(ALICE, [IDS[1]])[IDS[1]].content == "memory 1"
    with reader.transaction():
        reader.save(make_record(1, content="draft", version=2), "update")
        assert reader.get_many(ALICE, [IDS[1]])[IDS[1]].content == "draft"
    assert reader.get_many(ALICE, [IDS[1]])[IDS[1]].content == "draft"


def test_what_was_fetched_while_the_scope_moved_on_is_not_kept(pair) -> None:  # type: ignore[no-untyped-def]
    reader, writer = pair
    writer.insert(make_record(1), None, None)
    reader.get_many(ALICE, [IDS[0]])   # the scope is followed from here

    def slow_fetch(scope: Scope, ids: list[str]):  # type: ignore[no-untyped-def]
        rows = reader._get_many(scope, ids)           # the old version...
        writer.save(make_record(1, content="new", version=2), "update")
        reader.get_many(ALICE, [IDS[0]])              # ...while another thread follows on
        return rows

    old = reader._cache.get_many(ALICE, [IDS[1]], slow_fetch)
    assert old[IDS[1]].content == "memory 1"
    assert reader.get_many(ALICE, [IDS[1]])[IDS[1]].content == "new"


def test_least_recently_used_scopes_go_first(pg_url) -> None:  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url, record_cache=10)
    carol = Scope("carol", "noah")
    try:
        for k, scope in enumerate((ALICE, BOB, carol)):
            store.bulk_insert([(make_record(k * 100 + n, scope), None, None) for n in range(5)])
        for k, scope in enumerate((ALICE, BOB, carol)):
            ids = [make_record(k * 100 + n).id for n in range(5)]
            same(store, scope, ids)
        assert store._cache.held() == {("bob", "noah"): 5, ("carol", "noah"): 5}
        store.bulk_insert([(make_record(200 + n, carol), None, None) for n in range(5, 20)])
        same(store, carol, [make_record(200 + n).id for n in range(20)])   # over the budget
        assert store._cache.held().get(("carol", "noah"), 0) <= 10
    finally:
        store.close()

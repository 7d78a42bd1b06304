"""The PostgreSQL store's in-process text index (store/postgres/textindex.py): it ranks as the SQL
query does (pg_text.BM25_SQL) on the same data, follows writes from another store object (the
view of another process) through the events log, and leaves to the SQL what it cannot answer."""

from __future__ import annotations

import pytest

from engramdb.model import Layer, Scope
from engramdb.store.contract import ALICE, BOB, make_record, unit
from engramdb.store.postgres.store import PostgresStore
from engramdb.store.postgres.text import query_terms
from engramdb.store.protocol import IndexText
from engramdb.testing import StoreContract

WORDS = ("berlin oslo rome live work run running anna li maria garcia budget roadmap "
         "上海 北京 我 住 在 很 大 喜欢 乌龙茶 工作").split()
QUERIES = (
    (["berlin", "live"], {"body": 1.0}),
    (["上海", "live", "anna"], {"body": 1.0, "anchors": 0.5}),
    (["live", "ctx", "budget", "乌龙茶"], {"body": 1.0, "anchors": 1.0, "context": 0.25}),
    (["maria", "garcia", "住"], {"anchors": 2.0}),
    (["nothing", "here"], {"body": 1.0}),
)
LAYERS = ([Layer.CORE], [Layer.CORE, Layer.ARCHIVED])


class TestPostgresStoreWithSqlText(StoreContract):
    """The whole store contract with every text search ranked by the SQL query (the store
    answers from the in-process index by default: test_store_postgres.py)."""

    @pytest.fixture
    def store(self, pg_url):  # type: ignore[no-untyped-def]
        s = PostgresStore(pg_url, text_index_min_docs=10**9)
        yield s
        s.close()


def text(n: int) -> IndexText:
    """Deterministic mixed English and Chinese text, with repeats and empty fields."""
    body = " ".join(WORDS[(n * k + k * k) % len(WORDS)] for k in range(1, 2 + n % 7))
    anchors = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(n % 3))
    return IndexText(body, anchors, "ctx live" if n % 4 == 0 else "")


def sql(store: PostgresStore, scope: Scope, tokens: list[str], fields: dict[str, float],
        layers: list[Layer], limit: int = 10) -> list[tuple[str, float]]:
    columns = [f for f in ("body", "anchors", "context") if fields.get(f)]
    return store._search_text_sql(scope, query_terms(tokens), fields, columns, limit, layers)


def same(store: PostgresStore, scope: Scope = ALICE) -> None:
    """Every query ranks alike in process and in SQL (and the index did answer)."""
    for tokens, fields in QUERIES:
        for layers in LAYERS:
            for limit in (3, 10):
                got = store.search_text(scope, tokens, fields, limit, layers)
                want = sql(store, scope, tokens, fields, layers, limit)
                assert [i for i, _ in got] == [i for i, _ in want], (tokens, fields, layers)
                assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-12)
    assert (scope.user, scope.agent) in store._text.held()


@pytest.fixture
def pair(pg_url):  # type: ignore[no-untyped-def]
    reader = PostgresStore(pg_url, text_index_min_docs=0)
    writer = PostgresStore(pg_url, text_index_min_docs=0)   # another process's view
    yield reader, writer
    reader.close()
    writer.close()


def test_ranks_as_the_sql_query_english_and_chinese(pair) -> None:  # type: ignore[no-untyped-def]
    reader, writer = pair
    writer.bulk_insert([(make_record(n), text(n), unit(n)) for n in range(60)])
    writer.bulk_insert([(make_record(n, BOB), text(n + 1), unit(n)) for n in range(60, 70)])
    for n in range(60, 64):
        writer.insert(make_record(n), text(n), unit(n))
    writer.save(make_record(5, layer=Layer.ARCHIVED, version=2), "archive")
    same(reader)
    same(reader, BOB)   # each scope its own statistics
    assert reader.search_text(ALICE, ["berlin"], {"body": 1.0}, 5, [Layer.CORE])


def test_follows_writes_from_another_store(pair) -> None:  # type: ignore[no-untyped-def]
    reader, writer = pair
    writer.bulk_insert([(make_record(n), text(n), unit(n)) for n in range(40)])
    same(reader)
    writer.insert(make_record(100), IndexText("berlin berlin 上海 rome", "anna"), unit(100))
    same(reader)
    writer.save(make_record(3, version=2), "update", IndexText("乌龙茶 budget", "", "live"))
    writer.save(make_record(4, layer=Layer.ARCHIVED, version=2), "archive")
    same(reader)
    writer.erase(make_record(6, layer=Layer.DELETED, content="", version=2))
    writer.record_uses(ALICE, [make_record(7).id], make_record(7).at, 0)
    same(reader)
    writer.bulk_insert([(make_record(n), text(n * 3), unit(n)) for n in range(200, 230)])
    same(reader)   # more than a quarter changed: rebuilt
    writer.drop_scope(ALICE, make_record(1).at)
    assert reader.search_text(ALICE, ["berlin"], {"body": 1.0}, 5, [Layer.CORE]) == []
    writer.bulk_insert([(make_record(n), text(n), unit(n)) for n in range(300, 320)])
    same(reader)


def test_inside_a_transaction_the_sql_answers(pair) -> None:  # type: ignore[no-untyped-def]
    reader, _ = pair
    reader.bulk_insert([(make_record(n), text(n), unit(n)) for n in range(20)])
    same(reader)
    fresh = make_record(50)
    with reader.transaction():
        reader.insert(fresh, IndexText("zanzibar", ""), unit(50))
        found = reader.search_text(ALICE, ["zanzibar"], {"body": 1.0}, 5, [Layer.CORE])
        assert [i for i, _ in found] == [fresh.id]   # its own uncommitted write
    assert [i for i, _ in reader.search_text(ALICE, ["zanzibar"], {"body": 1.0}, 5,
                                             [Layer.CORE])] == [fresh.id]


def test_what_it_leaves_to_the_sql(pg_url) -> None:  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url, text_index_min_docs=30, text_cache_docs=50 + 64)
    try:
        store.bulk_insert([(make_record(n), text(n), unit(n)) for n in range(20)])
        store.bulk_insert([(make_record(n, BOB), text(n), unit(n)) for n in range(40)])
        assert store.search_text(ALICE, ["berlin"], {"body": 1.0}, 5, [Layer.CORE])
        assert store._text.held() == {}                  # a small scope: the SQL ranks it
        assert store._text.ranked("bob", "noah", [("new", "york")], {"body": 1.0},
                                  {"core"}, 5) is None   # a phrase
        assert store._text.ranked("bob", "noah", [("live",)], {"body": 0.3},
                                  {"core"}, 5) is None   # a weight sums may round
        same(store, BOB)
        long = " ".join(["live"] * 300)                  # more positions than a tsvector keeps
        store.insert(make_record(90, BOB), IndexText(long, ""), unit(90))
        assert store._text.ranked("bob", "noah", [("live",)], {"body": 1.0},
                                  {"core"}, 5) is None
        got = store.search_text(BOB, ["live"], {"body": 1.0}, 5, [Layer.CORE])
        assert got == sql(store, BOB, ["live"], {"body": 1.0}, [Layer.CORE], 5)
        store.save(make_record(90, BOB, version=2), "update", IndexText("live once", ""))
        same(store, BOB)   # that document changed: the index answers again
    finally:
        store.close()


def test_scopes_are_held_least_recently_used_first(pg_url) -> None:  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url, text_index_min_docs=0, text_cache_docs=50 + 2 * 64)
    carol = Scope("carol", "noah")
    try:
        for k, scope in enumerate((ALICE, BOB, carol)):
            store.bulk_insert([(make_record(k * 100 + n, scope), text(n), unit(n))
                               for n in range(20)])
        for scope in (ALICE, BOB, carol):
            same(store, scope)
        assert set(store._text.held()) == {("bob", "noah"), ("carol", "noah")}
        same(store, ALICE)
        assert set(store._text.held()) == {("carol", "noah"), ("alice", "noah")}
    finally:
        store.close()

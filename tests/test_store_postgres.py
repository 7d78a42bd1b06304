"""The PostgreSQL store: the store contract, and what only a server can get wrong (a missing
extension, a newer schema, a dropped connection, writers racing from two connections)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from typer.testing import CliRunner

import engramdb
import engramdb.cli
from engramdb.errors import StoreError
from engramdb.model import Layer
from engramdb.store.contract import ALICE, make_record, unit
from engramdb.store.postgres.store import PostgresStore
from engramdb.store.protocol import IndexText, ListFilter
from engramdb.store.sqlite.migrations import MIGRATIONS as SQLITE_MIGRATIONS
from engramdb.testing import StoreContract
from pg import create_database, database_url, drop_database


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self, pg_url):  # type: ignore[no-untyped-def]
        s = PostgresStore(pg_url)
        yield s
        s.close()


def admin(url: str) -> psycopg.Connection:  # type: ignore[type-arg]
    return psycopg.connect(url, autocommit=True)


# ---------------------------------------------------------------- bad input


def test_a_database_without_pgvector_says_how_to_enable_it(pg_admin_url):  # type: ignore[no-untyped-def]
    url = create_database(pg_admin_url, "engramdb_novector")
    name = conninfo_to_dict(url)["dbname"]
    try:
        with admin(pg_admin_url) as conn:  # a plain owner may not create an untrusted extension
            conn.execute("DROP ROLE IF EXISTS engramdb_plain")
            conn.execute("CREATE ROLE engramdb_plain LOGIN")
            conn.execute(f'ALTER DATABASE "{name}" OWNER TO engramdb_plain')
        plain = url.replace("postgresql://postgres@", "postgresql://engramdb_plain@")
        with pytest.raises(StoreError, match=r"CREATE EXTENSION vector") as err:
            PostgresStore(plain)
        assert name in str(err.value) and "not enabled" in str(err.value)
        with admin(url) as conn:  # nothing was left behind
            assert conn.execute("SELECT to_regclass('memories')").fetchone() == (None,)
    finally:
        drop_database(pg_admin_url, url)
        with admin(pg_admin_url) as conn:
            conn.execute("DROP ROLE IF EXISTS engramdb_plain")


def test_a_newer_schema_is_refused(pg_url):  # type: ignore[no-untyped-def]
    PostgresStore(pg_url).close()
    with admin(pg_url) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'future', now())")
    with pytest.raises(StoreError, match="schema version 999, newer than this engramdb"):
        PostgresStore(pg_url)
    with pytest.raises(StoreError, match="upgrade engramdb"):
        engramdb.open(pg_url, embedder="hashing")


def test_the_schema_is_migrated_once_and_named(pg_url):  # type: ignore[no-untyped-def]
    PostgresStore(pg_url).close()
    PostgresStore(pg_url).close()
    with admin(pg_url) as conn:
        rows = conn.execute("SELECT version, name FROM schema_migrations ORDER BY 1").fetchall()
    assert rows == [(1, "initial"), (2, "event_actor_reason"), (3, "memories_by_layer"),
                    (4, "links"), (5, "working_memory"), (6, "goals"), (7, "api_keys"),
                    (9, "sleep_state"), (10, "concepts"), (11, "concepts_core_only"),
                    (12, "memories_by_id"), (13, "pending_vectors"), (14, "pii_values"),
                    (15, "passages"), (16, "triples"), (17, "cold_tier"), (18, "stances")]
    # one numbering on both backends: "schema version N" names one state
    assert [r[1] for r in rows[1:]] == [m.name for m in SQLITE_MIGRATIONS[1:]]


def test_migration_10_fills_the_concepts_of_stored_memories(pg_url):  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url)
    wang = make_record(1, people=["Wang Lei", "ＷＡＮＧ  lei"], places=["北京"], keywords=["雪"])
    bare = make_record(2)
    for n, rec in enumerate((wang, bare), start=1):
        store.insert(rec, IndexText("x", "wang lei"), unit(n))
    store.close()
    with admin(pg_url) as conn:   # back to schema 9: no concept table
        conn.execute("DROP TABLE concepts")
        conn.execute("DELETE FROM schema_migrations WHERE version >= 10")
    store = PostgresStore(pg_url)
    try:
        assert store.concept_members(ALICE, "person:wang lei", 10) == [wang.id]
        assert store.concept_members(ALICE, "place:北京", 10) == [wang.id]
        assert store.concept_members(ALICE, "topic:雪", 10) == [wang.id]
        with admin(pg_url) as conn:
            assert conn.execute("SELECT concept, id FROM concepts ORDER BY 1").fetchall() == [
                ("person:wang lei", wang.id), ("place:北京", wang.id), ("topic:雪", wang.id)]
    finally:
        store.close()


def test_an_unreachable_server_names_host_and_database(tmp_path: Path) -> None:
    url = f"postgresql://someone@/nodb?host={tmp_path}"
    with pytest.raises(StoreError, match=rf"cannot connect to PostgreSQL database 'nodb' on "
                                         rf"{tmp_path}"):
        engramdb.open(url, embedder="hashing")


def test_the_cli_reports_an_unreachable_server_without_a_traceback() -> None:
    result = CliRunner().invoke(
        engramdb.cli.app, ["--db", "postgresql://u:secret@127.0.0.1:1/mydb", "recall", "x"],
        env={"ENGRAMDB_EMBEDDER": "hashing"})
    assert result.exit_code == 6
    assert "Traceback" not in result.output and "secret" not in result.output
    assert "database 'mydb' on 127.0.0.1:1" in result.stderr


def kill_idle_connections(url: str, state: str) -> int:
    """End the server processes of this database's other connections in ``state``."""
    with admin(url) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
            "current_database() AND pid <> pg_backend_pid() AND state = %s", (state,)).fetchall()
    return len(rows)


def test_a_connection_dropped_inside_a_write_rolls_it_all_back(pg_url):  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url)
    try:
        with pytest.raises(StoreError, match="lost the connection.*nothing of it was written"):
            with store.transaction():
                store.insert(make_record(1), IndexText("berlin", ""), unit(1))
                assert kill_idle_connections(pg_url, "idle in transaction") == 1
                store.insert(make_record(2), IndexText("oslo", ""), unit(2))
        assert store.count(ALICE, ListFilter(layers=())) == 0
        assert store.event_count(ALICE) == 0
        store.insert(make_record(3), IndexText("rome", ""), unit(3))  # the pool recovered
        assert [r.id for r in store.list(ALICE, ListFilter())] == [make_record(3).id]
    finally:
        store.close()


def test_a_single_write_on_a_dropped_connection_is_retried_once(pg_url):  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url)
    try:
        assert kill_idle_connections(pg_url, "idle") >= 1   # the pool's connection is dead
        store.insert(make_record(1), IndexText("berlin", ""), unit(1))
        assert [e.op for e in store.events(ALICE, make_record(1).id)] == ["create"]
        assert kill_idle_connections(pg_url, "idle") >= 1
        assert store.get(ALICE, make_record(1).id) == make_record(1)   # reads too
    finally:
        store.close()


# ---------------------------------------------------------------- concurrency


def race(url: str, clock, write) -> list:  # type: ignore[no-untyped-def]
    """Run ``write(mem)`` at once on two Memory objects (two pools, two connections)."""
    mems = [engramdb.open(url, embedder="hashing", clock=clock) for _ in range(2)]
    start = threading.Barrier(2)
    results: list = [None, None]

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = write(mems[i])
        except Exception as exc:  # noqa: BLE001 - the test reports it
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for m in mems:
        m.close()
    return results


def test_racing_writes_of_the_same_content_store_it_once(pg_url, clock):  # type: ignore[no-untyped-def]
    for n in range(5):
        text = f"My locker code is {n}{n}{n} 密码"
        results = race(pg_url, clock, lambda m, t=text: m.remember(t, user="alice"))
        assert all(not isinstance(r, Exception) for r in results), results
        noop, written = sorted(results, key=lambda r: r.action.value != "noop")
        assert noop.action.value == "noop" and written.action.value != "noop"
        assert noop.memory.id == written.memory.id
        with engramdb.open(pg_url, embedder="hashing", clock=clock) as mem:
            same = [r for r in mem.list(user="alice", include_superseded=True)
                    if r.content == text]
            assert [r.id for r in same] == [written.memory.id]


def test_racing_writes_to_one_uri_leave_one_live_memory(pg_url, clock):  # type: ignore[no-untyped-def]
    uri = "core://user/city"
    for n, (a, b) in enumerate([("I live in Berlin", "I live in Paris"),
                                ("我住在上海", "我住在北京")]):
        texts = iter([a, b])
        results = race(pg_url, clock, lambda m, u=f"{uri}{n}", t=texts: m.remember(
            next(t), uri=u, user="alice"))
        assert all(not isinstance(r, Exception) for r in results), results
        with engramdb.open(pg_url, embedder="hashing", clock=clock) as mem:
            live = [r for r in mem.list(user="alice") if r.uri == f"{uri}{n}"]
            assert live[0].content in (a, b)
            assert len(live) == 1, live


# ---------------------------------------------------------------- through the engine and CLI


def test_the_cli_works_on_postgresql(pg_url):  # type: ignore[no-untyped-def]
    runner = CliRunner()
    env = {"ENGRAMDB_EMBEDDER": "hashing"}
    for text in ("I moved to Berlin", "我喜欢喝乌龙茶"):
        added = runner.invoke(engramdb.cli.app, ["--db", pg_url, "--user", "alice", "remember",
                                                 text, "--json"], env=env)
        assert added.exit_code == 0, added.output
    found = runner.invoke(engramdb.cli.app, ["--db", pg_url, "--user", "alice", "recall",
                                             "乌龙茶", "--json"], env=env)
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["hits"][0]["memory"]["content"] == "我喜欢喝乌龙茶"


def test_text_search_matches_sqlite_exactly_with_one_scope(pg_url, tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.store.sqlite.store import SQLiteStore

    pg, lite = PostgresStore(pg_url), SQLiteStore(tmp_path / "s.db")
    texts = ["berlin berlin live", "oslo live", "我 住 在 上海", "上海 很 大 live", "li anna",
             "run running ran", "berlin oslo rome", "x y z " * 20, "i live in new york",
             "york new live"]
    try:
        for n, body in enumerate(texts):
            for store in (pg, lite):
                store.insert(make_record(n), IndexText(body, "anna li" if n % 2 else "",
                                                       "ctx live" if n % 3 else ""), unit(n))
        lite.save(make_record(3, layer=Layer.ARCHIVED, version=2), "archive")
        pg.save(make_record(3, layer=Layer.ARCHIVED, version=2), "archive")
        for tokens, fields in ((["berlin", "live"], {"body": 1.0}),
                               (["上海", "live", "anna"], {"body": 1.0, "anchors": 0.5}),
                               (["live", "ctx", "z"], {"body": 1.0, "anchors": 1.0,
                                                       "context": 0.25}),
                               (["new-york", "live"], {"body": 1.0})):   # a phrase
            want = lite.search_text(ALICE, tokens, fields, 5, [Layer.CORE])
            got = pg.search_text(ALICE, tokens, fields, 5, [Layer.CORE])
            assert [i for i, _ in got] == [i for i, _ in want] and want
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-12)
    finally:
        pg.close()
        lite.close()


def test_database_url_helper_keeps_the_socket(pg_admin_url):  # type: ignore[no-untyped-def]
    url = database_url(pg_admin_url, "postgres")
    with admin(url) as conn:
        assert conn.execute("SELECT current_database()").fetchone() == ("postgres",)


def test_bulk_insert_copies_records_text_vectors_and_events(pg_url):  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url)
    try:
        recs = [make_record(n, metadata={"n": n}) for n in range(1, 4)]
        texts = [IndexText("berlin live", "li"), IndexText("上海 live", ""), None]
        assert store.bulk_insert([(r, t, unit(n)) for n, (r, t) in
                                  enumerate(zip(recs, texts, strict=True))], actor="import") == 3
        assert store.get_many(ALICE, [r.id for r in recs]) == {r.id: r for r in recs}
        assert [i for i, _ in store.search_text(ALICE, ["上海"], {"body": 1.0}, 5,
                                                [Layer.CORE])] == [recs[1].id]
        top = store.search_vector(ALICE, unit(2), 1, [Layer.CORE])
        assert top[0][0] == recs[2].id and abs(top[0][1] - 1.0) < 1e-5
        assert [(e.op, e.actor) for e in store.events(ALICE, recs[0].id)] == [("create", "import")]
        with pytest.raises(engramdb.Conflict):   # one duplicate fails the whole batch
            store.bulk_insert([(make_record(9), None, unit(9)), (recs[0], None, unit(1))])
        assert store.get(ALICE, make_record(9).id) is None
        assert store.count(ALICE, ListFilter(layers=())) == 3
    finally:
        store.close()


def test_the_location_shown_has_no_password() -> None:
    from engramdb.store.postgres.store import redact

    assert redact("postgresql://app:s3cret@db:5432/mem") == "postgresql://app@db:5432/mem"
    assert redact("postgresql://db/mem?sslmode=require&password=s3cret") == (
        "postgresql://db/mem?sslmode=require&password=***")

"""Per-scope HNSW indexes (store/postgres/scopeindex.py): built, listed, used by the planner for
their scope only (with the query's scope bound as a parameter, as the store sends it), and
dropped, without changing what a search returns."""

from __future__ import annotations

import psycopg

from engramdb.model import Layer
from engramdb.store.contract import ALICE, BOB, make_record, unit
from engramdb.store.postgres.codec import vector_text
from engramdb.store.postgres.scopeindex import index_name
from engramdb.store.postgres.store import PostgresStore
from engramdb.store.protocol import IndexText

PLAN = ("EXPLAIN SELECT id FROM memories WHERE user_id = %s AND agent_id = %s "
        "AND layer = ANY(%s) AND embedding IS NOT NULL "
        "ORDER BY embedding::vector(8) <=> %s::vector(8) LIMIT 10")


def plan(url: str, scope_user: str, scope_agent: str) -> str:
    """The plan of the store's vector query when only an ordered index scan can answer it."""
    q = vector_text(unit(99))
    with psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn:
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            conn.execute(f"SET {setting} = off")  # type: ignore[arg-type]
        rows = conn.execute(PLAN, (scope_user, scope_agent, ["core"], q)).fetchall()
    return "\n".join(r[0] for r in rows)


def test_a_scope_index_is_built_used_for_its_scope_and_dropped(pg_url) -> None:  # type: ignore[no-untyped-def]
    store = PostgresStore(pg_url)
    try:
        store.bind_embedder("test-model", 8)
        for n in range(40):
            scope = ALICE if n % 4 else BOB
            store.insert(make_record(n, scope), IndexText(f"memory {n}", ""), unit(n))
        before = {s: store.search_vector(s, unit(99), 5, [Layer.CORE]) for s in (ALICE, BOB)}
        assert store.scope_indexes() == []
        assert store.build_scope_index(ALICE) >= 0
        store.build_scope_index(ALICE)   # again: nothing to do
        assert store.scope_indexes() == [index_name(ALICE)]
        assert index_name(ALICE) in plan(pg_url, ALICE.user, ALICE.agent)
        assert index_name(ALICE) not in plan(pg_url, BOB.user, BOB.agent)
        assert "memories_embedding" in plan(pg_url, BOB.user, BOB.agent)
        after = {s: store.search_vector(s, unit(99), 5, [Layer.CORE]) for s in (ALICE, BOB)}
        assert [i for i, _ in after[ALICE]] == [i for i, _ in before[ALICE]]
        assert after[BOB] == before[BOB]
        assert store.drop_scope_index(ALICE) is True
        assert store.drop_scope_index(ALICE) is False
        assert store.scope_indexes() == []
    finally:
        store.close()


def test_names_are_short_and_distinct() -> None:
    from engramdb.model import Scope

    long = Scope("u" * 300, "a")
    assert len(index_name(long)) <= 63
    assert index_name(ALICE) != index_name(BOB) != index_name(Scope("alice", "noah2"))


def test_the_index_scope_command(pg_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    from engramdb.cli import app

    runner = CliRunner()
    env = {"ENGRAMDB_EMBEDDER": "hashing"}

    def run(db: str, *args: str) -> tuple[int, str, str]:
        result = runner.invoke(app, ["--db", db, *args], env=env)
        return result.exit_code, result.stdout, result.stderr

    assert run(pg_url, "--user", "alice", "remember", "I live in Berlin")[0] == 0
    code, out, _ = run(pg_url, "--user", "alice", "index-scope", "--json")
    built = json.loads(out)
    assert code == 0 and (built["user"], built["agent"]) == ("alice", "default")
    assert built["built_in_s"] >= 0
    store = PostgresStore(pg_url)
    try:
        from engramdb.model import Scope

        assert store.scope_indexes() == [index_name(Scope("alice", "default"))]
    finally:
        store.close()
    assert run(pg_url, "--user", "alice", "index-scope", "--drop")[1].strip() == "dropped"
    code, _, err = run(str(tmp_path / "m.db"), "--create", "index-scope")   # SQLite: not needed
    assert code == 4 and err.startswith("error: ") and "PostgreSQL" in err

"""An HNSW index of one scope's vectors, for a scope much larger than most in its database.

The shared index (``memories_embedding``) holds every scope's vectors; a search in a scope
filters the index scan by scope (pgvector's iterative scan), so it reads about (rows wanted) /
(the scope's share of the table) index tuples. For scopes of 100 the planner skips the index
and ranks the scope exactly; for a scope of 100,000 in a table of 1,000,000 the scan reads
ten times the rows it returns (measured: 25-95 ms against 5-10 ms for the same scope alone,
bench/results/scale_postgres.md). A partial index over that scope alone brings it back to the
single-scope figure; the planner picks it by itself, as each query is planned with its own
scope (no generic plans, postgres.py), so no query changes.

It is a maintenance step, not automatic: building takes about as long as the shared index
over the same rows (tens of seconds per 100,000 vectors), runs ``CREATE INDEX CONCURRENTLY``
(writes go on meanwhile) and each index costs every write to that scope one more insertion.
Worth it for the few scopes of 50,000 memories and more in a database several times larger;
10,000 scopes of 100 need none (docs/scale-out.md)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from psycopg import sql

from ...errors import StoreError
from ...model import Scope

PREFIX = "memories_embedding_scope_"
_LISTED = ("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
           "AND tablename = 'memories'")


def index_name(scope: Scope) -> str:
    """A stable name per scope (PostgreSQL names stop at 63 bytes; scope ids may not)."""
    digest = hashlib.sha256(f"{scope.user}\x1f{scope.agent}".encode()).hexdigest()[:24]
    return PREFIX + digest


class ScopeIndexes:
    """Mix-in for PostgresStore: build, drop and list per-scope vector indexes."""

    _pool: Any
    embedder_info: Callable[[], tuple[str, int] | None]

    def build_scope_index(self, scope: Scope, *, maintenance_work_mem: str = "1GB") -> float:
        """Build (if missing) an HNSW index over ``scope``'s vectors alone; seconds spent."""
        info = self.embedder_info()
        if info is None:
            raise StoreError("no embedder is bound to this database yet: nothing to index")
        dim = int(info[1])
        statement = sql.SQL(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON memories USING hnsw "
            "((embedding::vector({dim})) vector_cosine_ops) "
            "WHERE user_id = {user} AND agent_id = {agent}").format(
            name=sql.Identifier(index_name(scope)), dim=sql.Literal(dim),
            user=sql.Literal(scope.user), agent=sql.Literal(scope.agent))
        started = time.perf_counter()
        with self._pool.connection() as conn:   # autocommit: CONCURRENTLY needs it
            conn.execute(sql.SQL("SET maintenance_work_mem = {}").format(
                sql.Literal(maintenance_work_mem)))
            try:
                conn.execute(statement)
            finally:
                conn.execute("RESET maintenance_work_mem")
        return time.perf_counter() - started

    def drop_scope_index(self, scope: Scope) -> bool:
        """Drop ``scope``'s own vector index; False if it had none."""
        name = index_name(scope)
        with self._pool.connection() as conn:
            found = conn.execute(_LISTED + " AND indexname = %s", (name,)).fetchone()
            conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(
                sql.Identifier(name)))
        return found is not None

    def scope_indexes(self) -> list[str]:
        """Names of the per-scope vector indexes in this database."""
        with self._pool.connection() as conn:
            rows = conn.execute(_LISTED + " AND indexname LIKE %s ORDER BY 1",
                                (PREFIX + "%",)).fetchall()
        return [r[0] for r in rows]

"""The scale-out store: PostgreSQL with pgvector (HNSW, cosine) and full text in a GIN index.

Several processes can share one database. A write transaction takes an advisory lock on each
scope it touches (before its first read of that scope), so the write guard's read-decide-write
runs one writer at a time per scope, and two writers racing on the same content or slot end in
one consistent state. Connections come from a pool; a transaction holds one connection for its
thread. A connection lost before the commit is retried once on a fresh one for a write that is
one call (insert, save...); inside a caller's transaction it fails with ``StoreError`` and the
server has rolled everything back.

Vectors: one ``vector`` column (any dimension until an embedder is bound); binding creates an
HNSW index on ``embedding::vector(D)``. The scope filter is applied inside the index scan with
pgvector's iterative scans (``hnsw.iterative_scan``); for a small scope the planner reads the
scope's rows by key and ranks them exactly. Full text: see text.py."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from ...errors import ConfigError, Conflict, StoreError
from ...model import Scope
from . import concepts, triples
from .concepts import ConceptTable
from .goals import GoalTable, KeyTable
from .migrations import MIGRATIONS
from .pending import PendingTable
from .scopeindex import ScopeIndexes
from .textindex import PgTextIndex
from .triples import TripleTable
from .writes import Writes

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import ConnectionPool
except ImportError as exc:  # pragma: no cover - the extra is installed with [dev]
    raise ConfigError(
        "the PostgreSQL backend needs psycopg: pip install 'engramdb[postgres]'") from exc

T = TypeVar("T")
DEFAULT_POOL_SIZE = 8
EF_SEARCH = 100            # HNSW candidate list per scan step
MAX_SCAN_TUPLES = 40000    # iterative scans stop after this many index tuples
TEXT_CACHE_DOCS = 1_000_000    # documents held in the in-process text index (textindex.py)
TEXT_INDEX_MIN_DOCS = 0        # smaller scopes are ranked by the SQL query
_MIGRATION_LOCK = 0x454E4752   # advisory lock key while migrating ("ENGR")


def describe(url: str) -> str:
    """'database D on host H' from a connection URL, without its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database at an unreadable URL"
    host = parts.get("host") or "localhost (default socket)"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"database {parts.get('dbname') or parts.get('user') or '(default)'!r} on {host}{port}"


def redact(url: str) -> str:
    """The URL without its password (it is shown in stats and errors)."""
    url = re.sub(r"(://[^:/@]*):[^@/]*@", r"\1@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)


def _configure(conn: psycopg.Connection[Any]) -> None:
    conn.execute("SET TIME ZONE 'UTC'")
    conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
    conn.execute("SET hnsw.iterative_scan = relaxed_order")
    conn.execute(f"SET hnsw.max_scan_tuples = {MAX_SCAN_TUPLES}")
    conn.commit()


class PostgresStore(Writes, ConceptTable, TripleTable, GoalTable, KeyTable, ScopeIndexes,
                    PendingTable):
    """The mix-ins hold the writes, reads, searches, links, sessions, goals, keys, sleep state
    and per-scope indexes; this class holds the pool, the schema and the transactions."""

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE,
                 connect_timeout_s: float = 10.0, text_cache_docs: int = TEXT_CACHE_DOCS,
                 text_index_min_docs: int = TEXT_INDEX_MIN_DOCS) -> None:
        self.location = redact(url)
        self._where = describe(url)
        self._check_connect(url, connect_timeout_s)
        self._pool: ConnectionPool[Any] = ConnectionPool(
            url, min_size=1, max_size=pool_size, configure=_configure, open=False,
            timeout=connect_timeout_s + 20,
            # no server-side prepared statements: a generic plan would pick one access path
            # for scopes of 100 and of 100,000 alike (the key, or the HNSW index)
            kwargs={"connect_timeout": int(connect_timeout_s), "autocommit": True,
                    "prepare_threshold": None},
        )
        self._local = threading.local()
        self._text = PgTextIndex(lambda fn: self._run(fn, write=False),
                                 max_docs=text_cache_docs, min_docs=text_index_min_docs)
        try:
            self._pool.open(wait=True, timeout=connect_timeout_s + 5)
            self._migrate()
        except BaseException:
            self._pool.close()
            raise

    # ---------------------------------------------------------------- setup

    def _check_connect(self, url: str, timeout_s: float) -> None:
        try:
            conn = psycopg.connect(url, connect_timeout=int(timeout_s))
        except psycopg.Error as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise StoreError(f"cannot connect to PostgreSQL {self._where}: {reason}") from None
        conn.close()

    def _migrate(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._ensure_vector(conn)
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY "
                         "KEY, name text NOT NULL, applied_at timestamptz NOT NULL)")
            done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
            newest = max(m.version for m in MIGRATIONS)
            if done and max(done) > newest:
                raise StoreError(
                    f"{self._where} has engramdb schema version {max(done)}, newer than this "
                    f"engramdb ({newest}): upgrade engramdb")
            for migration in MIGRATIONS:
                if migration.version in done:
                    continue
                for statement in migration.statements:
                    conn.execute(statement)  # type: ignore[call-overload]
                if migration.name == "concepts":
                    concepts.fill(conn)
                if migration.name == "triples":
                    triples.fill(conn)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, now())",
                             (migration.version, migration.name))

    def _ensure_vector(self, conn: psycopg.Connection[Any]) -> None:
        if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            return
        try:
            with conn.transaction():
                conn.execute("CREATE EXTENSION vector")
        except psycopg.Error as exc:
            reason = " ".join(str(exc).split())
            raise StoreError(
                f"the pgvector extension is not enabled in {self._where} and engramdb could not "
                f"enable it ({reason}): install pgvector on the server and run "
                f"'CREATE EXTENSION vector;' in that database as its owner or a superuser"
            ) from None

    def close(self) -> None:
        self._pool.close()

    # ---------------------------------------------------------------- connections

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._transaction(retryable=False):
            yield

    @contextmanager
    def _transaction(self, retryable: bool) -> Iterator[None]:
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        committing = False
        try:
            with self._pool.connection() as conn, conn.transaction():
                self._local.conn, self._local.locked = conn, set()
                try:
                    yield
                    committing = True
                finally:
                    self._local.conn = None
        except psycopg.OperationalError as exc:
            reason = " ".join(str(exc).split())
            if committing:
                raise StoreError(
                    f"lost the connection to PostgreSQL {self._where} while committing "
                    f"({reason}): the transaction may or may not have been written") from exc
            if retryable:
                raise _Lost(reason) from exc
            raise StoreError(
                f"lost the connection to PostgreSQL {self._where} ({reason}); the transaction "
                f"was rolled back, nothing of it was written") from exc
        except psycopg.Error as exc:
            raise self._error(exc) from exc

    def _error(self, exc: psycopg.Error) -> StoreError | Conflict:
        message = " ".join(str(exc).split())
        if isinstance(exc, pg_errors.UniqueViolation):
            return Conflict(f"conflicts with a stored memory: {message}")
        return StoreError(f"PostgreSQL {self._where}: {message}")

    def _run(self, fn: Callable[[psycopg.Connection[Any]], T], scope: Scope | None = None,
             *, write: bool = True) -> T:
        """Run ``fn`` on the transaction's connection (locking ``scope`` first), or on a
        pooled one in its own transaction, retried once if the connection was lost before the
        commit. Inside a transaction a lost connection propagates to its boundary."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            try:
                if scope is not None:
                    self._lock(conn, scope)
                return fn(conn)
            except psycopg.OperationalError:
                raise
            except psycopg.Error as exc:
                raise self._error(exc) from exc
        once = self._once if write else self._read_once
        try:
            return once(fn, scope)
        except _Lost:
            self._pool.check()   # drop every dead connection (a restarted server kills all)
        try:
            return once(fn, scope)
        except _Lost as exc:
            raise StoreError(f"lost the connection to PostgreSQL {self._where} twice ({exc}); "
                             f"nothing of this call was written") from exc

    def _read_once(self, fn: Callable[[psycopg.Connection[Any]], T], scope: Scope | None) -> T:
        try:
            with self._pool.connection() as conn:  # autocommit: one round trip a statement
                return fn(conn)
        except psycopg.OperationalError as exc:
            raise _Lost(" ".join(str(exc).split())) from exc
        except psycopg.Error as exc:
            raise self._error(exc) from exc

    def _lock(self, conn: psycopg.Connection[Any], scope: Scope) -> None:
        """The scope's advisory lock, once per transaction (released at its end)."""
        if scope not in self._local.locked:
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                         (f"{scope.user}\x1f{scope.agent}",))
            self._local.locked.add(scope)

    def _once(self, fn: Callable[[psycopg.Connection[Any]], T], scope: Scope | None) -> T:
        with self._transaction(retryable=True):
            return self._run(fn, scope)

    # ---------------------------------------------------------------- embedder binding

    def embedder_info(self) -> tuple[str, int] | None:
        rows = dict(self._run(lambda c: c.execute(
            "SELECT key, value FROM meta WHERE key LIKE 'embedder_%'").fetchall(), write=False))
        if "embedder_model" not in rows:
            return None
        return rows["embedder_model"], int(rows["embedder_dimensions"])

    def bind_embedder(self, model_id: str, dimensions: int) -> None:
        def bind(conn: psycopg.Connection[Any]) -> None:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            info = self.embedder_info()
            if info is None:
                conn.execute("INSERT INTO meta(key, value) VALUES (%s, %s), (%s, %s)",
                             ("embedder_model", model_id,
                              "embedder_dimensions", str(int(dimensions))))
                conn.execute(  # type: ignore[call-overload]
                    f"CREATE INDEX IF NOT EXISTS memories_embedding ON memories USING hnsw "
                    f"((embedding::vector({int(dimensions)})) vector_cosine_ops)")
            elif info != (model_id, dimensions):
                raise StoreError(
                    f"{self._where} was built with embedder {info[0]} ({info[1]} dimensions); "
                    f"refusing to use {model_id} ({dimensions} dimensions). Open it with the "
                    f"same embedder, or export and re-import into a new database.")
        self._run(bind)


class _Lost(Exception):
    """The connection dropped outside a caller's transaction: the call may be retried."""


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
scope's rows by key and ranks them exactly. Full text: see pg_text.py."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from ..errors import ConfigError, Conflict, StoreError
from ..model import Layer, Record, Scope
from . import pg_concepts
from .base import SCOPE_EVENT, Event, IndexText, ListFilter
from .pg_codec import (
    COLUMNS,
    COPY_TYPES,
    SELECT,
    data_json,
    record_from_values,
    register_vector_dumper,
    row_values,
    vector_from_text,
    vector_text,
)
from .pg_concepts import ConceptTable
from .pg_goals import GoalTable, KeyTable
from .pg_links import LinkTable
from .pg_migrations import MIGRATIONS
from .pg_scopeindex import ScopeIndexes
from .pg_sessions import SessionTables
from .pg_sleep import SleepTables
from .pg_text import (
    BM25_SQL,
    WEIGHT_LETTER,
    Candidate,
    bm25,
    document,
    query_terms,
    tsquery,
)
from .pg_textindex import PgTextIndex
from .sqlite import record_from_row, snapshot_json

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
TEXT_CACHE_DOCS = 1_000_000    # documents held in the in-process text index (pg_textindex.py)
TEXT_INDEX_MIN_DOCS = 0        # smaller scopes are ranked by the SQL query
_MIGRATION_LOCK = 0x454E4752   # advisory lock key while migrating ("ENGR")
_FIELDS = ("body", "anchors", "context")


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


class PostgresStore(ConceptTable, LinkTable, SessionTables, GoalTable, KeyTable, SleepTables,
                    ScopeIndexes):
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
                    pg_concepts.fill(conn)
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

    # ---------------------------------------------------------------- writes

    def insert(self, record: Record, text: IndexText, vector: np.ndarray | None, *,
               actor: str | None = None, reason: str | None = None) -> None:
        def write(conn: psycopg.Connection[Any]) -> None:
            self._insert_row(conn, record, text, vector)
            self._log(conn, record, "create", actor=actor, reason=reason)
        self._run(write, record.scope)

    def _insert_row(self, conn: psycopg.Connection[Any], record: Record,
                    text: IndexText | None, vector: np.ndarray | None) -> None:
        extra, values = self._index_values(text, vector)
        names = [*COLUMNS, *extra]
        marks = ", ".join(["%s"] * len(COLUMNS) + [extra[n] for n in extra])
        try:
            with conn.transaction():  # a savepoint: a conflict leaves the caller's work intact
                conn.execute(  # type: ignore[call-overload]
                    f"INSERT INTO memories ({', '.join(names)}) VALUES ({marks})",
                    [*row_values(record), *values])
                pg_concepts.write(conn, record, replace=False)
        except pg_errors.UniqueViolation as exc:
            raise Conflict(f"cannot store memory {record.id}: "
                           f"{exc.diag.message_primary}") from exc

    @staticmethod
    def _index_values(text: IndexText | None,
                      vector: np.ndarray | None) -> tuple[dict[str, str], list[Any]]:
        """Columns to set for new text/vector, as name -> placeholder, and their values."""
        marks: dict[str, str] = {}
        values: list[Any] = []
        if text is not None:
            doc = document(text.body, text.anchors, text.context)
            marks.update(body="%s", anchors="%s", context="%s", doc_len="%s",
                         anchor_terms="%s")
            values += [doc.body, doc.anchors, doc.context, doc.length, doc.anchor_terms]
        if vector is not None:
            marks["embedding"] = "%s::vector"
            values.append(vector_text(vector))
        return marks, values

    def bulk_insert(self, items: Sequence[tuple[Record, IndexText | None, np.ndarray | None]],
                    *, actor: str | None = None, reason: str | None = None) -> int:
        """Insert many new memories, each with its "create" event, through COPY: the fast path
        for loads and imports of memories known to be new (no write guard runs here; a
        duplicate id fails the whole batch with ``Conflict``). One transaction (or the
        caller's). Returns how many were inserted."""
        index_columns = ("body", "anchors", "context", "doc_len", "anchor_terms", "embedding")
        scopes = sorted({rec.scope for rec, _, _ in items}, key=lambda s: (s.user, s.agent))

        def write(conn: psycopg.Connection[Any]) -> int:
            for scope in scopes:   # the same locks as single writes, in one order
                self._lock(conn, scope)
            with conn.cursor() as cur:
                register_vector_dumper(cur)
                with cur.copy(f"COPY memories ({', '.join([*COLUMNS, *index_columns])}) "
                              f"FROM STDIN (FORMAT BINARY)") as copy:
                    copy.set_types(COPY_TYPES)
                    for rec, text, vector in items:
                        copy.write_row([*row_values(rec), *_index_row(text, vector)])
                with cur.copy("COPY events (user_id, agent_id, memory_id, op, version, at, "
                              "snapshot, actor, reason) FROM STDIN") as copy:
                    for rec, _, _ in items:
                        copy.write_row((rec.user, rec.agent, rec.id, "create", rec.version,
                                        rec.updated_at, snapshot_json(rec), actor, reason))
            pg_concepts.copy(conn, [rec for rec, _, _ in items])
            return len(items)
        if not items:
            return 0
        return self._run(write)

    def import_record(self, record: Record, text: IndexText | None, vector: np.ndarray | None,
                      events: Sequence[Event]) -> None:
        def write(conn: psycopg.Connection[Any]) -> None:
            self._insert_row(conn, record, text, vector)
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO events(user_id, agent_id, memory_id, op, version, at, snapshot, "
                    "actor, reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [(record.user, record.agent, record.id, e.op, e.version, e.at,
                      snapshot_json(e.snapshot) if e.snapshot else None, e.actor, e.reason)
                     for e in events])
        self._run(write, record.scope)

    def save(self, record: Record, op: str, text: IndexText | None = None,
             vector: np.ndarray | None = None, *, actor: str | None = None,
             reason: str | None = None) -> None:
        def write(conn: psycopg.Connection[Any]) -> None:
            self._update_row(conn, record, text, vector)
            self._log(conn, record, op, actor=actor, reason=reason)
        self._run(write, record.scope)

    def _update_row(self, conn: psycopg.Connection[Any], record: Record,
                    text: IndexText | None, vector: np.ndarray | None,
                    clear_index: bool = False) -> None:
        extra, values = self._index_values(text, vector)
        if clear_index:
            extra = {c: "NULL" for c in
                     ("body", "anchors", "context", "doc_len", "anchor_terms", "embedding")}
        sets = [f"{c} = %s" for c in COLUMNS[3:]] + [f"{c} = {m}" for c, m in extra.items()]
        try:
            with conn.transaction():
                cur = conn.execute(  # type: ignore[call-overload]
                    f"UPDATE memories SET {', '.join(sets)} "
                    f"WHERE user_id = %s AND agent_id = %s AND id = %s",
                    [*row_values(record)[3:], *values, record.user, record.agent, record.id])
        except pg_errors.UniqueViolation as exc:
            raise Conflict(f"cannot update memory {record.id}: "
                           f"{exc.diag.message_primary}") from exc
        if cur.rowcount != 1:
            raise StoreError(f"memory {record.id} vanished during the update")
        pg_concepts.write(conn, record, replace=True)

    def _log(self, conn: psycopg.Connection[Any], record: Record, op: str, *,
             actor: str | None, reason: str | None) -> None:
        conn.execute(
            "INSERT INTO events(user_id, agent_id, memory_id, op, version, at, snapshot, actor, "
            "reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (record.user, record.agent, record.id, op, record.version, record.updated_at,
             snapshot_json(record), actor, reason))

    def erase(self, record: Record, *, actor: str | None = None,
              reason: str | None = None) -> None:
        """As SQLite's; the old row versions PostgreSQL keeps for MVCC go at the next VACUUM
        (autovacuum), not at the commit."""
        if not record.erased:
            raise StoreError(f"erase needs a tombstone (deleted, no content) for {record.id}")

        def write(conn: psycopg.Connection[Any]) -> None:
            _rewrite_log(conn, record.scope, record.id, Record.scrubbed)
            self._update_row(conn, record, None, None, clear_index=True)
            self._log(conn, record, "erase", actor=actor, reason=reason)
            self._drop_links(conn, record.scope, record.id)
        self._run(write, record.scope)

    def rewrite_log(self, scope: Scope, memory_id: str,
                    rewrite: Callable[[Record], Record]) -> int:
        return self._run(lambda conn: _rewrite_log(conn, scope, memory_id, rewrite), scope)

    def drop_scope(self, scope: Scope, at: datetime, op: str = "drop_scope", *,
                   actor: str | None = None, reason: str | None = None) -> int:
        def write(conn: psycopg.Connection[Any]) -> int:
            args = (scope.user, scope.agent)
            conn.execute("DELETE FROM events WHERE user_id = %s AND agent_id = %s "
                         "AND memory_id <> %s", (*args, SCOPE_EVENT))
            removed = conn.execute("DELETE FROM memories WHERE user_id = %s AND agent_id = %s",
                                   args).rowcount
            conn.execute("DELETE FROM scope_stats WHERE user_id = %s AND agent_id = %s", args)
            conn.execute("DELETE FROM concepts WHERE user_id = %s AND agent_id = %s", args)
            self._drop_sessions(conn, scope)
            self._drop_links(conn, scope)
            self._drop_sleep(conn, scope)
            conn.execute(
                "INSERT INTO events(user_id, agent_id, memory_id, op, version, at, snapshot, "
                "actor, reason) VALUES (%s, %s, %s, %s, 0, %s, NULL, %s, %s)",
                (*args, SCOPE_EVENT, op, at, actor, reason))
            return int(removed)
        return self._run(write, scope)

    def record_uses(self, scope: Scope, ids: Sequence[str], at: datetime,
                    debounce_s: float) -> int:
        if not ids:
            return 0

        def write(conn: psycopg.Connection[Any]) -> int:
            updates, events = [], []
            for rec in self.get_many(scope, ids).values():
                if rec.last_uses and (at - rec.last_uses[-1]).total_seconds() < debounce_s:
                    continue
                rec.last_uses = [*rec.last_uses, at][-8:]
                rec.use_count += 1
                updates.append((rec.use_count, data_json(rec), scope.user, scope.agent, rec.id))
                events.append((scope.user, scope.agent, rec.id, rec.version, at))
            with conn.cursor() as cur:
                cur.executemany("UPDATE memories SET use_count = %s, data = %s "
                                "WHERE user_id = %s AND agent_id = %s AND id = %s", updates)
                cur.executemany(
                    "INSERT INTO events(user_id, agent_id, memory_id, op, version, at) "
                    "VALUES (%s, %s, %s, 'use', %s, %s)", events)
            return len(updates)
        return self._run(write, scope)

    # ---------------------------------------------------------------- reads

    def _records(self, scope: Scope, sql: str, args: Sequence[Any]) -> list[Record]:
        rows = self._run(lambda c: c.execute(sql, args).fetchall(),  # type: ignore[call-overload]
                         scope, write=False)
        return [record_from_values(r) for r in rows]

    def get(self, scope: Scope, memory_id: str) -> Record | None:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s AND id = %s",
            (scope.user, scope.agent, memory_id))
        return found[0] if found else None

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s AND uri = %s "
            f"AND layer <> 'deleted'", (scope.user, scope.agent, uri))
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s "
            f"AND id = ANY(%s)", (scope.user, scope.agent, list(dict.fromkeys(ids))))
        return {r.id: r for r in found}

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]:
        return self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s "
            f"AND content_hash = %s AND kind = %s AND layer <> 'deleted' ORDER BY id",
            (scope.user, scope.agent, content_hash, kind))

    @staticmethod
    def _filter(scope: Scope, flt: ListFilter) -> tuple[str, list[Any]]:
        clauses = ["user_id = %s", "agent_id = %s"]
        args: list[Any] = [scope.user, scope.agent]
        for column, values in (("kind", flt.kinds), ("priority", flt.priorities),
                               ("layer", tuple(lay.value for lay in flt.layers))):
            if values:
                clauses.append(f"{column} = ANY(%s)")
                args.append(list(values))
        if flt.uri_prefix is not None:
            clauses.append("left(uri, %s) = %s")
            args += [len(flt.uri_prefix), flt.uri_prefix]
        if flt.since is not None:
            clauses.append("at >= %s")
            args.append(flt.since)
        if flt.until is not None:
            clauses.append("at < %s")
            args.append(flt.until)
        if flt.current_only:
            clauses.append("invalid_at IS NULL")
        return " AND ".join(clauses), args

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]:
        where, args = self._filter(scope, flt)
        order = "DESC" if flt.newest_first else "ASC"
        sql = f"SELECT {SELECT} FROM memories WHERE {where} ORDER BY at {order}, id {order}"
        if flt.limit is not None:
            sql += " LIMIT %s"
            args.append(flt.limit)
        if flt.offset:
            sql += " OFFSET %s"
            args.append(flt.offset)
        return iter(self._records(scope, sql, args))

    def count(self, scope: Scope, flt: ListFilter) -> int:
        where, args = self._filter(scope, flt)
        row = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"SELECT count(*) FROM memories WHERE {where}", args).fetchone(), scope, write=False)
        return int(row[0])

    def search_text(self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float],
                    limit: int, layers: Sequence[Layer]) -> list[tuple[str, float]]:
        terms = query_terms(tokens)
        columns = [f for f in _FIELDS if fields.get(f)]
        if not terms or not columns or limit <= 0 or not layers:
            return []

        if getattr(self._local, "conn", None) is None:   # outside a caller's transaction
            ranked = self._text.ranked(scope.user, scope.agent, terms, fields,
                                       {lay.value for lay in layers}, limit)
            if ranked is not None:
                return ranked
        return self._search_text_sql(scope, terms, fields, columns, limit, layers)

    def _search_text_sql(self, scope: Scope, terms: list[tuple[str, ...]],
                         fields: Mapping[str, float], columns: list[str], limit: int,
                         layers: Sequence[Layer]) -> list[tuple[str, float]]:
        if all(len(t) == 1 for t in terms):
            rows = self._run(lambda c: c.execute(BM25_SQL, {  # type: ignore[call-overload]
                "user": scope.user, "agent": scope.agent, "query": tsquery(terms, columns),
                "terms": [t[0] for t in terms],
                "letters": [WEIGHT_LETTER[f] for f in columns],
                "wa": float(fields.get("body", 0.0)), "wb": float(fields.get("anchors", 0.0)),
                "wc": float(fields.get("context", 0.0)),
                "layers": [lay.value for lay in layers], "limit": limit}).fetchall(),
                scope, write=False)
            return [(r[0], float(r[1])) for r in rows]

        def read(conn: psycopg.Connection[Any]) -> tuple[list[Candidate], Any]:
            rows = conn.execute(
                "SELECT id, layer, body, anchors, context, doc_len FROM memories "
                "WHERE user_id = %s AND agent_id = %s AND tsv @@ %s::tsquery",
                (scope.user, scope.agent, tsquery(terms, columns))).fetchall()
            stats = conn.execute(
                "SELECT docs, tokens FROM scope_stats WHERE user_id = %s AND agent_id = %s",
                (scope.user, scope.agent)).fetchone()
            return [Candidate(*r) for r in rows], stats
        candidates, stats = self._run(read, scope, write=False)
        if not candidates or stats is None:
            return []
        return bm25(candidates, terms, fields, int(stats[0]), int(stats[1]),
                    {lay.value for lay in layers}, limit)

    def search_vector(self, scope: Scope, vector: np.ndarray, limit: int,
                      layers: Sequence[Layer]) -> list[tuple[str, float]]:
        if limit <= 0 or not layers:
            return []
        dim = int(np.asarray(vector).size)
        want = 2 * limit + 8   # room for ties, broken by id below
        rows = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"SELECT id, 1 - (embedding::vector({dim}) <=> %s::vector({dim})) FROM memories "
            f"WHERE user_id = %s AND agent_id = %s AND layer = ANY(%s) "
            f"AND embedding IS NOT NULL "
            f"ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s",
            (vector_text(vector), scope.user, scope.agent, [lay.value for lay in layers],
             vector_text(vector), want)).fetchall(), scope, write=False)
        ranked = sorted(((r[0], float(r[1])) for r in rows), key=lambda x: (-x[1], x[0]))
        return ranked[:limit]

    def search_vector_many(self, scope: Scope, vectors: np.ndarray, limit: int,
                           layers: Sequence[Layer]) -> list[list[tuple[str, float]]]:
        """One ``search_vector`` per row: the same query, so the same ids and scores."""
        return [self.search_vector(scope, row, limit, layers) for row in np.asarray(vectors)]

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        rows = self._run(lambda c: c.execute(
            "SELECT id, embedding::text FROM memories WHERE user_id = %s AND agent_id = %s "
            "AND id = ANY(%s) AND embedding IS NOT NULL",
            (scope.user, scope.agent, list(ids))).fetchall(), scope, write=False)
        return {r[0]: vector_from_text(r[1]) for r in rows}

    def events(self, scope: Scope, memory_id: str) -> list[Event]:
        rows = self._run(lambda c: c.execute(
            "SELECT seq, memory_id, op, version, at, snapshot, actor, reason FROM events "
            "WHERE user_id = %s AND agent_id = %s AND memory_id = %s ORDER BY seq",
            (scope.user, scope.agent, memory_id)).fetchall(), scope, write=False)
        return [Event(seq=r[0], memory_id=r[1], op=r[2], version=r[3], at=r[4],
                      snapshot=record_from_row(json.loads(r[5])) if r[5] else None,
                      actor=r[6], reason=r[7]) for r in rows]

    def event_count(self, scope: Scope) -> int:
        row = self._run(lambda c: c.execute(
            "SELECT count(*) FROM events WHERE user_id = %s AND agent_id = %s",
            (scope.user, scope.agent)).fetchone(), scope, write=False)
        return int(row[0])

    def scopes(self) -> list[Scope]:
        rows = self._run(lambda c: c.execute(
            "SELECT DISTINCT user_id, agent_id FROM memories ORDER BY 1, 2").fetchall(),
            write=False)
        return [Scope(r[0], r[1]) for r in rows]


def _rewrite_log(conn: psycopg.Connection[Any], scope: Scope, memory_id: str,
                 rewrite: Callable[[Record], Record]) -> int:
    rows = conn.execute(
        "SELECT seq, snapshot FROM events WHERE user_id = %s AND agent_id = %s "
        "AND memory_id = %s AND snapshot IS NOT NULL",
        (scope.user, scope.agent, memory_id)).fetchall()
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE events SET snapshot = %s WHERE user_id = %s AND agent_id = %s AND seq = %s",
            [(snapshot_json(rewrite(record_from_row(json.loads(snap)))), scope.user,
              scope.agent, seq) for seq, snap in rows])
    return len(rows)


def _index_row(text: IndexText | None, vector: np.ndarray | None) -> list[Any]:
    """The index columns of a COPY row (None: NULL)."""
    row: list[Any] = [None] * 5
    if text is not None:
        doc = document(text.body, text.anchors, text.context)
        row = [doc.body, doc.anchors, doc.context, doc.length, doc.anchor_terms]
    return [*row, vector]


class _Lost(Exception):
    """The connection dropped outside a caller's transaction: the call may be retried."""


"""The embedded default store: one SQLite file (WAL), FTS5 over pre-tokenised text, and exact
cosine search over a per-scope float32 matrix kept in memory and refreshed incrementally."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..anchors import concept_names, indexed_concepts
from ..errors import Conflict, StoreError
from ..model import (
    ApiKey,
    Goal,
    GoalStatus,
    Kind,
    Layer,
    Lifecycle,
    Priority,
    Record,
    Role,
    Scope,
)
from .base import SCOPE_EVENT, Event, IndexText, ListFilter, SleepState
from .idorder import IdOrder
from .migrations import MIGRATIONS
from .sqlite_links import LinkTable
from .sqlite_sessions import SessionTables
from .textindex import TextIndex
from .upgrade import backup_before_migrating  # issue 18, upgrade safety
from .vectors import MARGIN, VectorCache

TEXT_FIELDS = ("body", "anchors", "context")  # the FTS columns after "scope", in order
APP_ID = 0x454E4752  # "ENGR" in the SQLite header's application_id
_COLUMNS = (
    "id user agent content content_hash kind uri priority lifecycle importance at recorded_at "
    "updated_at invalid_at superseded_by expires_at due_at layer use_count version data"
).split()
_SELECT = ", ".join(_COLUMNS)
_DATA_FIELDS = (
    "metadata people places topics keywords context valence intensity source_session source_turn "
    "derived_from last_uses overdue_since at_precision"
).split()


def ts(value: datetime | None) -> str | None:
    """UTC timestamps as fixed-width text, so text order is time order."""
    if value is None:
        return None
    value = value.astimezone(UTC)
    if value.year < 1000:  # strftime does not pad the year (and "1-01-01" would not read back)
        return f"{value.year:04d}{value.strftime('-%m-%dT%H:%M:%S.%fZ')}"
    return value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def from_ts(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:  # fromisoformat is ~20x faster than strptime and reads the same fixed-width form
        return datetime.fromisoformat(value)
    except ValueError:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def scope_token(scope: Scope) -> str:
    digest = hashlib.sha1(f"{scope.user}\x00{scope.agent}".encode()).hexdigest()[:20]
    return f"s{digest}"


def _row_values(rec: Record) -> list[Any]:
    data = {f: getattr(rec, f) for f in _DATA_FIELDS}
    data["last_uses"] = [ts(t) for t in rec.last_uses]
    data["overdue_since"] = ts(rec.overdue_since)
    return [
        rec.id, rec.user, rec.agent, rec.content, rec.content_hash, rec.kind.value, rec.uri,
        rec.priority.value, rec.lifecycle.value, rec.importance, ts(rec.at), ts(rec.recorded_at),
        ts(rec.updated_at), ts(rec.invalid_at), rec.superseded_by, ts(rec.expires_at),
        ts(rec.due_at), rec.layer.value, rec.use_count, rec.version,
        json.dumps(data, ensure_ascii=False, sort_keys=True),
    ]


def record_from_row(row: sqlite3.Row | dict[str, Any]) -> Record:
    return record_from_values([row[c] for c in _COLUMNS])


# enum lookups by value without Enum.__call__ (a miss still raises the enum's own error)
_KINDS = {m.value: m for m in Kind}
_PRIORITIES = {m.value: m for m in Priority}
_LIFECYCLES = {m.value: m for m in Lifecycle}
_LAYERS = {m.value: m for m in Layer}


def record_from_values(values: Sequence[Any]) -> Record:
    """A record from its column values in ``_COLUMNS`` order (a plain tuple row: the fast path
    for reads of many rows)."""
    (id_, user, agent, content, content_hash, kind, uri, priority, lifecycle, importance, at,
     recorded_at, updated_at, invalid_at, superseded_by, expires_at, due_at, layer, use_count,
     version, data_json) = values
    data = json.loads(data_json)
    data["last_uses"] = [from_ts(t) for t in data.get("last_uses", [])]
    data["overdue_since"] = from_ts(data.get("overdue_since"))
    return Record(
        id=id_, user=user, agent=agent, content=content, content_hash=content_hash,
        kind=_KINDS.get(kind) or Kind(kind), uri=uri,
        priority=_PRIORITIES.get(priority) or Priority(priority),
        lifecycle=_LIFECYCLES.get(lifecycle) or Lifecycle(lifecycle),
        importance=importance, at=from_ts(at),  # type: ignore[arg-type]
        recorded_at=from_ts(recorded_at),  # type: ignore[arg-type]
        updated_at=from_ts(updated_at),  # type: ignore[arg-type]
        invalid_at=from_ts(invalid_at), superseded_by=superseded_by,
        expires_at=from_ts(expires_at), due_at=from_ts(due_at),
        layer=_LAYERS.get(layer) or Layer(layer), use_count=use_count, version=version, **data,
    )


def _concepts_json(data_json: str) -> str:
    """The memory's concept names as a JSON list (SQL's engramdb_concepts, for migration 10)."""
    return json.dumps(concept_names(data_json), ensure_ascii=False)


def snapshot_json(rec: Record, values: list[Any] | None = None) -> str:
    """The record as its column values, in JSON (``values``: ``_row_values(rec)``, if known)."""
    row = values if values is not None else _row_values(rec)
    return json.dumps(dict(zip(_COLUMNS, row, strict=True)), ensure_ascii=False)


class SQLiteStore(SessionTables, LinkTable):
    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_ms: int = 10000) -> None:
        self.location = str(path)
        self._memory = self.location == ":memory:"
        if not self._memory:
            self._check_directory(Path(self.location))
        try:
            self._db = sqlite3.connect(
                self.location, isolation_level=None, check_same_thread=False,
                timeout=busy_timeout_ms / 1000,
            )
        except sqlite3.Error as exc:
            raise self._open_error(exc) from exc
        try:
            self._db.row_factory = sqlite3.Row
            self._lock = threading.RLock()
            self._depth = 0
            self._scrub = False  # an erase is in this transaction: see _start_scrub
            self._secure_delete = 0
            self._configure(busy_timeout_ms)
            self._db.create_function("engramdb_concepts", 1, _concepts_json, deterministic=True)
            # issue 18: the caches exist before the migration, whose rollback invalidates them
            self._vectors = VectorCache(self._db, self._lock)
            self._id_order = IdOrder(self._db)
            self._text = TextIndex(self._db)
            self._migrate()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise self._open_error(exc) from exc
            raise

    # ---------------------------------------------------------------- setup

    def _open_error(self, exc: sqlite3.Error) -> StoreError:
        if "unable to open" in str(exc):
            return StoreError(f"cannot open or create {self.location}: {exc} (is the directory "
                              f"writable, and the path not a directory?)")
        return StoreError(f"{self.location} is not an engramdb database: {exc}")

    @staticmethod
    def _check_directory(path: Path) -> None:
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.exists():
            raise StoreError(f"directory {parent} does not exist")
        if not path.exists() and not os.access(parent, os.W_OK):
            raise StoreError(f"directory {parent} is not writable")

    def _configure(self, busy_timeout_ms: int) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        db.execute("PRAGMA foreign_keys = ON")
        # One statement, one snapshot: read apart, another process's first migration could
        # commit in between (id still 0, tables now there) and we would refuse a good file.
        app_id, tables = db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT count(*) FROM sqlite_master)"
        ).fetchone()
        if app_id not in (0, APP_ID) or (app_id == 0 and tables > 0):
            raise StoreError(f"{self.location} is a SQLite file but not an engramdb database")
        if not self._memory:
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StoreError(f"cannot switch {self.location} to WAL (got {mode})")
            db.execute("PRAGMA synchronous = NORMAL")

    def _migrate(self) -> None:
        # ---- issue 18, upgrade safety: an older file is copied before it is migrated
        self.upgrade_backup = None if self._memory else backup_before_migrating(
            self._db, self.location, max(m.version for m in MIGRATIONS))
        # ---- end issue 18
        with self.transaction():
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {r[0] for r in self._db.execute("SELECT version FROM schema_migrations")}
            newest = max(m.version for m in MIGRATIONS)
            if done and max(done) > newest:
                raise StoreError(
                    f"{self.location} has schema version {max(done)}, newer than this engramdb "
                    f"({newest}): upgrade engramdb"
                )
            for migration in MIGRATIONS:
                if migration.version in done:
                    continue
                for statement in migration.statements:
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                    (migration.version, migration.name, ts(datetime.now(UTC))),
                )
            self._db.execute(f"PRAGMA application_id = {APP_ID}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._db.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                self._vectors.invalidate()
                self._id_order.invalidate()
                self._text.invalidate()
                raise
            else:
                try:
                    self._db.execute("COMMIT")
                except BaseException:  # the caches may hold what never reached the file
                    self._vectors.invalidate()
                    self._id_order.invalidate()
                    self._text.invalidate()
                    raise
            finally:
                self._depth = 0
                if self._scrub:
                    self._end_scrub()

    def _start_scrub(self) -> None:
        """Erased words must not stay in the file: freed space is zeroed (secure_delete), the
        full-text index is merged so its segments drop the deleted terms, and after the commit
        the WAL is checkpointed and truncated, so no old page image keeps them (best effort:
        a reader in another process can keep the WAL from being truncated)."""
        if not self._scrub:
            self._secure_delete = int(self._db.execute("PRAGMA secure_delete").fetchone()[0])
            self._db.execute("PRAGMA secure_delete = ON")
            self._scrub = True

    def _end_scrub(self) -> None:
        self._scrub = False
        self._db.execute(f"PRAGMA secure_delete = {self._secure_delete}")  # as it was
        if not self._memory and not self._db.in_transaction:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error:
                pass  # best effort: the next checkpoint writes the zeroed pages all the same

    # ---------------------------------------------------------------- embedder binding

    def embedder_info(self) -> tuple[str, int] | None:
        rows = dict(self._db.execute("SELECT key, value FROM meta WHERE key LIKE 'embedder_%'"))
        if "embedder_model" not in rows:
            return None
        return rows["embedder_model"], int(rows["embedder_dimensions"])

    def bind_embedder(self, model_id: str, dimensions: int) -> None:
        with self.transaction():
            info = self.embedder_info()
            if info is None:
                self._db.executemany(
                    "INSERT INTO meta(key, value) VALUES (?, ?)",
                    [("embedder_model", model_id), ("embedder_dimensions", str(dimensions))],
                )
            elif info != (model_id, dimensions):
                raise StoreError(
                    f"{self.location} was built with embedder {info[0]} ({info[1]} dimensions); "
                    f"refusing to use {model_id} ({dimensions} dimensions). Open it with the "
                    f"same embedder, or export and re-import into a new file."
                )

    # ---------------------------------------------------------------- writes

    def insert(
        self, record: Record, text: IndexText, vector: np.ndarray | None, *,
        actor: str | None = None, reason: str | None = None,
    ) -> None:
        with self.transaction():
            values = _row_values(record)  # encoded once: for the row and its snapshot
            rowid = self._insert_row(record, values)
            self._write_index(rowid, record.scope, text, vector)
            self._write_concepts(rowid, record)
            self._log(record, "create", values=values, actor=actor, reason=reason)

    def _insert_row(self, record: Record, values: list[Any] | None = None) -> int:
        try:
            cur = self._db.execute(
                f"INSERT INTO memories ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                values if values is not None else _row_values(record),
            )
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"cannot store memory {record.id}: {exc}") from exc
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def import_record(
        self, record: Record, text: IndexText | None, vector: np.ndarray | None,
        events: Sequence[Event],
    ) -> None:
        """Insert a record with its own event log (from an export) instead of a new one."""
        with self.transaction():
            rowid = self._insert_row(record)
            self._write_index(rowid, record.scope, text, vector)
            self._write_concepts(rowid, record)
            self._db.executemany(
                "INSERT INTO events(user, agent, memory_id, op, version, at, snapshot, actor, "
                "reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(record.user, record.agent, record.id, e.op, e.version, ts(e.at),
                  snapshot_json(e.snapshot) if e.snapshot else None, e.actor, e.reason)
                 for e in events],
            )

    def save(
        self, record: Record, op: str, text: IndexText | None = None,
        vector: np.ndarray | None = None, *, actor: str | None = None, reason: str | None = None,
    ) -> None:
        with self.transaction():
            sets = ", ".join(f"{c} = ?" for c in _COLUMNS[1:])
            values = _row_values(record)
            try:
                cur = self._db.execute(
                    f"UPDATE memories SET {sets} WHERE id = ? AND user = ? AND agent = ?",
                    [*values[1:], record.id, record.user, record.agent],
                )
            except sqlite3.IntegrityError as exc:
                raise Conflict(f"cannot update memory {record.id}: {exc}") from exc
            if cur.rowcount != 1:
                raise StoreError(f"memory {record.id} vanished during the update")
            rowid = self._rowid(record.id)
            if text is not None:
                self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._write_index(rowid, record.scope, text, vector)
            self._db.execute("DELETE FROM concepts WHERE mem_rowid = ?", (rowid,))
            self._write_concepts(rowid, record)
            self._log(record, op, values=values, actor=actor, reason=reason)

    def erase(self, record: Record, *, actor: str | None = None,
              reason: str | None = None) -> None:
        if not record.erased:
            raise StoreError(f"erase needs a tombstone (deleted, no content) for {record.id}")
        with self.transaction():
            self.rewrite_log(record.scope, record.id, Record.scrubbed)
            self.save(record, "erase", actor=actor, reason=reason)  # checks the scope
            rowid = self._rowid(record.id)
            self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._db.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
            self._vectors.remove(record.scope, rowid)
            self._drop_links(record.scope, record.id)

    def rewrite_log(self, scope: Scope, memory_id: str,
                    rewrite: Callable[[Record], Record]) -> int:
        with self.transaction():
            self._start_scrub()
            rows = self._db.execute(
                "SELECT seq, snapshot FROM events WHERE user = ? AND agent = ? AND memory_id = ? "
                "AND snapshot IS NOT NULL", (scope.user, scope.agent, memory_id)).fetchall()
            self._db.executemany(
                "UPDATE events SET snapshot = ? WHERE seq = ?",
                [(snapshot_json(rewrite(record_from_row(json.loads(snap)))), seq)
                 for seq, snap in rows])
        return len(rows)

    def drop_scope(self, scope: Scope, at: datetime, op: str = "drop_scope", *,
                   actor: str | None = None, reason: str | None = None) -> int:
        with self.transaction():
            self._start_scrub()
            where = "user = ? AND agent = ?"
            args = (scope.user, scope.agent)
            self._db.execute(
                f"DELETE FROM memories_fts WHERE rowid IN (SELECT rowid FROM memories "
                f"WHERE {where})", args)
            self._db.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
            self._vectors.drop_scope(scope)
            self._drop_sessions(scope)
            self._db.execute(f"DELETE FROM events WHERE {where} AND memory_id != ?",
                             (*args, SCOPE_EVENT))  # earlier scope events stay: the audit trail
            removed = self._db.execute(f"DELETE FROM memories WHERE {where}", args).rowcount
            self._drop_links(scope)
            self._db.execute(f"DELETE FROM sleep_state WHERE {where}", args)
            self._db.execute(f"DELETE FROM memory_due WHERE {where}", args)
            self._db.execute(f"DELETE FROM concepts WHERE {where}", args)
            self._db.execute(
                "INSERT INTO events(user, agent, memory_id, op, version, at, snapshot, actor, "
                "reason) VALUES (?, ?, ?, ?, 0, ?, NULL, ?, ?)",
                (scope.user, scope.agent, SCOPE_EVENT, op, ts(at), actor, reason))
            # rows left the table, which these two caches otherwise never see happen (the
            # vector cache follows scope_state, dropped above)
            self._id_order.invalidate()
            self._text.invalidate()
        return int(removed)

    def _write_index(
        self, rowid: int, scope: Scope, text: IndexText | None, vector: np.ndarray | None
    ) -> None:
        if text is not None:
            self._db.execute(
                "INSERT INTO memories_fts(rowid, scope, body, anchors, context) "
                "VALUES (?, ?, ?, ?, ?)",
                (rowid, scope_token(scope), text.body, text.anchors, text.context),
            )
        if vector is not None:
            self._vectors.put(scope, rowid, vector)

    def _write_concepts(self, rowid: int, record: Record) -> None:
        self._db.executemany(
            "INSERT OR IGNORE INTO concepts(user, agent, concept, mem_rowid) VALUES (?, ?, ?, ?)",
            [(record.user, record.agent, name, rowid) for name in indexed_concepts(record)])

    def _rowid(self, memory_id: str) -> int:
        row = self._db.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return int(row[0])

    def _log(self, record: Record, op: str, with_snapshot: bool = True,
             values: list[Any] | None = None, actor: str | None = None,
             reason: str | None = None) -> None:
        self._db.execute(
            "INSERT INTO events(user, agent, memory_id, op, version, at, snapshot, actor, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.user, record.agent, record.id, op, record.version, ts(record.updated_at),
             snapshot_json(record, values) if with_snapshot else None, actor, reason),
        )

    def record_uses(self, scope: Scope, ids: Sequence[str], at: datetime, debounce_s: float) -> int:
        if not ids:
            return 0
        used = 0
        with self.transaction():
            for rec in self.get_many(scope, ids).values():
                if rec.last_uses and (at - rec.last_uses[-1]).total_seconds() < debounce_s:
                    continue
                rec.last_uses = [*rec.last_uses, at][-8:]
                rec.use_count += 1
                self._db.execute(
                    "UPDATE memories SET use_count = ?, data = json_set(data, '$.last_uses', "
                    "json(?)) WHERE id = ? AND user = ? AND agent = ?",
                    (rec.use_count, json.dumps([ts(t) for t in rec.last_uses]), rec.id,
                     scope.user, scope.agent),
                )
                self._db.execute(
                    "INSERT INTO events(user, agent, memory_id, op, version, at, snapshot) "
                    "VALUES (?, ?, ?, 'use', ?, ?, NULL)",
                    (scope.user, scope.agent, rec.id, rec.version, ts(at)),
                )
                used += 1
        return used

    # ---------------------------------------------------------------- reads

    def _one(self, sql: str, args: Sequence[Any]) -> Record | None:
        with self._lock:
            row = self._db.execute(sql, args).fetchone()
        return record_from_row(row) if row else None

    def get(self, scope: Scope, memory_id: str) -> Record | None:
        return self._one(
            "SELECT * FROM memories WHERE id = ? AND user = ? AND agent = ?",
            (memory_id, scope.user, scope.agent),
        )

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None:
        return self._one(
            "SELECT * FROM memories WHERE uri = ? AND user = ? AND agent = ? "
            "AND layer != 'deleted'",
            (uri, scope.user, scope.agent),
        )

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
        out: dict[str, Record] = {}
        ids = list(dict.fromkeys(ids))
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                cur = self._db.cursor()
                cur.row_factory = None  # plain tuples, decoded by position
                rows = cur.execute(  # "+": look ids up by key, never scan the scope
                    f"SELECT {_SELECT} FROM memories WHERE +user = ? AND +agent = ? "
                    f"AND id IN ({', '.join('?' * len(chunk))})",
                    (scope.user, scope.agent, *chunk),
                )
                out.update((r[0], record_from_values(r)) for r in rows)
        return out

    def concept_members(self, scope: Scope, concept: str, limit: int) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT m.id FROM concepts c JOIN memories m ON m.rowid = c.mem_rowid "
                "WHERE c.user = ? AND c.agent = ? AND c.concept = ? AND m.layer = ? LIMIT ?",
                (scope.user, scope.agent, concept, Layer.CORE.value, limit)).fetchall()
        return sorted(r[0] for r in rows)

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM memories WHERE user = ? AND agent = ? AND content_hash = ? "
                "AND kind = ? AND layer != 'deleted' ORDER BY id",
                (scope.user, scope.agent, content_hash, kind),
            ).fetchall()
        return [record_from_row(r) for r in rows]

    def _where(self, scope: Scope, flt: ListFilter) -> tuple[str, list[Any]]:
        clauses = ["user = ?", "agent = ?"]
        args: list[Any] = [scope.user, scope.agent]
        if flt.kinds:
            clauses.append(f"kind IN ({', '.join('?' * len(flt.kinds))})")
            args.extend(flt.kinds)
        if flt.priorities:
            clauses.append(f"priority IN ({', '.join('?' * len(flt.priorities))})")
            args.extend(flt.priorities)
        if flt.layers:
            clauses.append(f"layer IN ({', '.join('?' * len(flt.layers))})")
            args.extend(layer.value for layer in flt.layers)
        if flt.uri_prefix is not None:
            clauses.append("substr(uri, 1, ?) = ?")
            args.extend([len(flt.uri_prefix), flt.uri_prefix])
        if flt.since is not None:
            clauses.append("at >= ?")
            args.append(ts(flt.since))
        if flt.until is not None:
            clauses.append("at < ?")
            args.append(ts(flt.until))
        if flt.current_only:
            clauses.append("invalid_at IS NULL")
        return " AND ".join(clauses), args

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]:
        where, args = self._where(scope, flt)
        order = "DESC" if flt.newest_first else "ASC"
        sql = f"SELECT {_SELECT} FROM memories WHERE {where} ORDER BY at {order}, id {order}"
        if flt.limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [flt.limit, flt.offset]
        elif flt.offset:
            sql += " LIMIT -1 OFFSET ?"
            args.append(flt.offset)
        with self._lock:
            cur = self._db.cursor()
            cur.row_factory = None  # plain tuples, decoded by position (as get_many)
            rows = cur.execute(sql, args).fetchall()
        return (record_from_values(r) for r in rows)

    def count(self, scope: Scope, flt: ListFilter) -> int:
        where, args = self._where(scope, flt)
        with self._lock:
            return int(self._db.execute(f"SELECT count(*) FROM memories WHERE {where}", args)
                       .fetchone()[0])

    def search_text(
        self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        terms = [t for t in dict.fromkeys(tokens) if t]
        columns = [f for f in TEXT_FIELDS if fields.get(f)]
        if not terms or not columns:
            return []
        phrase = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f'scope : "{scope_token(scope)}" AND {{{" ".join(columns)}}} : ({phrase})'
        weights = ", ".join(str(float(fields.get(f, 0.0))) for f in ("scope", *TEXT_FIELDS))
        sql = (
            f"SELECT m.id, -bm25(memories_fts, {weights}) AS s FROM memories_fts "
            f"JOIN memories m ON m.rowid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.layer IN ({', '.join('?' * len(layers))}) "
            f"ORDER BY s DESC, m.id LIMIT ?"
        )
        with self._lock:
            if limit > 0 and layers:
                found = self._search_text_in_memory(scope, terms, fields, limit, layers)
                if found is not None:
                    return found
                if self._id_order.ascending(scope):
                    return self._search_text_by_rowid(scope, match, weights, limit, layers)
            rows = self._db.execute(sql, (match, *[lay.value for lay in layers], limit))
            return [(r[0], float(r[1])) for r in rows]

    def _search_text_in_memory(
        self, scope: Scope, terms: list[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]] | None:
        """The same ranking as the SQL query below, from the in-memory postings
        (textindex.py); None where they cannot promise that: then run the query."""
        return self._text.ranked(scope.user, scope.agent, scope_token(scope), terms,
                                 dict(fields), {lay.value for lay in layers}, limit)

    def _search_text_by_rowid(
        self, scope: Scope, match: str, weights: str, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """The same ranking as the join above, for a scope whose ids ascend with rowid: the
        best rows by (score, rowid) come from the index alone, then only those are looked up
        (the join looked up every matching row, thousands at 100k memories)."""
        allowed = {lay.value for lay in layers}
        sql = (
            f"SELECT rowid, -bm25(memories_fts, {weights}) AS s FROM memories_fts "
            f"WHERE memories_fts MATCH ? ORDER BY s DESC, rowid LIMIT ?"
        )
        want = limit
        while True:
            found = self._db.execute(sql, (match, want)).fetchall()
            layer_of = self._layers(scope, [rowid for rowid, _ in found])
            kept = [(layer_of[r][0], float(s)) for r, s in found
                    if r in layer_of and layer_of[r][1] in allowed]
            if len(kept) >= limit or len(found) < want:
                return kept[:limit]
            want *= 4

    def search_vector(
        self, scope: Scope, vector: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        allowed = {lay.value for lay in layers}
        with self._lock:
            scan = self._vectors.scan(scope, vector)
            if scan is None or limit <= 0:
                return []
            want, total = 2 * limit, len(scan.rowids)   # room for the margin below
            while True:   # deeper on the same scores while the layers leave too few rows
                found = scan.candidates(want)
                layer_of = self._layers(scope, [scan.rowids[i] for i in found])
                good = sorted((int(i) for i in found if scan.rowids[i] in layer_of
                               and layer_of[scan.rowids[i]][1] in allowed),
                              key=lambda i: -scan.scores[i])
                if len(found) >= total:
                    break
                floor = float(scan.scores[found].min())   # every row left out scores below
                if len(good) >= limit and scan.scores[good[limit - 1]] - MARGIN >= floor:
                    break
                want *= 4
            if len(good) > limit:   # the rows that can be among the best once scored exactly
                edge = scan.scores[good[limit - 1]] - MARGIN
                good = [i for i in good if scan.scores[i] >= edge]
            kept = sorted(((layer_of[r][0], s) for r, s in scan.exact(good)),
                          key=lambda item: (-item[1], item[0]))  # ties: by id, as text
            return kept[:limit]

    def search_vector_many(
        self, scope: Scope, vectors: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[list[tuple[str, float]]]:
        allowed = {lay.value for lay in layers}
        out = []
        for i, found in enumerate(self._vectors.top_many(scope, vectors, limit)):
            layer_of = self._layers(scope, [rowid for rowid, _ in found])
            kept = sorted(((layer_of[r][0], s) for r, s in found
                           if r in layer_of and layer_of[r][1] in allowed),
                          key=lambda item: (-item[1], item[0]))
            if len(kept) < limit and len(found) >= limit:  # layers filtered some: search deeper
                kept = self.search_vector(scope, vectors[i], limit, layers)
            out.append(kept[:limit])
        return out

    def _layers(self, scope: Scope, rowids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """rowid -> (id, layer) of the scope's rows among ``rowids``."""
        out: dict[int, tuple[str, str]] = {}
        with self._lock:
            known = self._text.rows(scope.user, scope.agent, scope_token(scope), list(rowids))
            if known is not None:  # the text index follows ids and layers too, where built
                return known
            for start in range(0, len(rowids), 500):
                chunk = list(rowids[start : start + 500])
                rows = self._db.execute(
                    f"SELECT rowid, id, layer FROM memories WHERE +user = ? AND +agent = ? "
                    f"AND rowid IN ({', '.join('?' * len(chunk))})",
                    (scope.user, scope.agent, *chunk),
                )
                out.update((r[0], (r[1], r[2])) for r in rows)
        return out

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                rows = self._db.execute(
                    f"SELECT m.id, v.vec FROM vectors v JOIN memories m ON m.rowid = v.mem_rowid "
                    f"WHERE +m.user = ? AND +m.agent = ? "
                    f"AND m.id IN ({', '.join('?' * len(chunk))})",
                    (scope.user, scope.agent, *chunk),
                )
                out.update((r[0], np.frombuffer(r[1], dtype=np.float32).copy()) for r in rows)
        return out

    def events(self, scope: Scope, memory_id: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM events WHERE user = ? AND agent = ? AND memory_id = ? ORDER BY seq",
                (scope.user, scope.agent, memory_id),
            ).fetchall()
        return [
            Event(
                seq=r["seq"], memory_id=r["memory_id"], op=r["op"], version=r["version"],
                at=from_ts(r["at"]),  # type: ignore[arg-type]
                snapshot=record_from_row(json.loads(r["snapshot"])) if r["snapshot"] else None,
                actor=r["actor"], reason=r["reason"],
            )
            for r in rows
        ]

    def event_count(self, scope: Scope) -> int:
        with self._lock:
            return int(self._db.execute(
                "SELECT count(*) FROM events WHERE user = ? AND agent = ?",
                (scope.user, scope.agent),
            ).fetchone()[0])

    def scopes(self) -> list[Scope]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT user, agent FROM memories ORDER BY 1, 2")
            return [Scope(r[0], r[1]) for r in rows]

    # ---------------------------------------------------------------- goals

    def put_goal(self, goal: Goal) -> None:
        try:
            with self.transaction():
                self._db.execute(
                    "INSERT INTO goals (user, agent, id, title, status, parent, constraints, "
                    "evidence, open_loops, created_at, updated_at, closed_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user, agent, id) DO UPDATE SET title = excluded.title, "
                    "status = excluded.status, parent = excluded.parent, "
                    "constraints = excluded.constraints, evidence = excluded.evidence, "
                    "open_loops = excluded.open_loops, created_at = excluded.created_at, "
                    "updated_at = excluded.updated_at, closed_at = excluded.closed_at",
                    (goal.user, goal.agent, goal.id, goal.title, goal.status.value, goal.parent,
                     _json_list(goal.constraints), _json_list(goal.evidence),
                     _json_list(goal.open_loops), ts(goal.created_at), ts(goal.updated_at),
                     ts(goal.closed_at)))
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"goal {goal.id}: another goal of this scope is active "
                           f"({exc})") from None

    def get_goal(self, scope: Scope, goal_id: str) -> Goal | None:
        row = self._db.execute(
            f"SELECT {_GOAL_SELECT} FROM goals WHERE user = ? AND agent = ? AND id = ?",
            (scope.user, scope.agent, goal_id)).fetchone()
        return _goal_from_row(row) if row is not None else None

    def list_goals(self, scope: Scope, statuses: Sequence[GoalStatus] = ()) -> list[Goal]:
        sql = f"SELECT {_GOAL_SELECT} FROM goals WHERE user = ? AND agent = ?"
        args: list[Any] = [scope.user, scope.agent]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            args.extend(GoalStatus(s).value for s in statuses)
        rows = self._db.execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [_goal_from_row(r) for r in rows]

    def drop_goals(self, scope: Scope) -> int:
        with self.transaction():
            cur = self._db.execute("DELETE FROM goals WHERE user = ? AND agent = ?",
                                   (scope.user, scope.agent))
        return int(cur.rowcount)


    # ---------------------------------------------------------------- API keys

    def insert_key(self, key: ApiKey, key_hash: str) -> None:
        with self.transaction():
            try:
                self._db.execute(
                    "INSERT INTO api_keys(user, agent, id, key_hash, role, name, created_at, "
                    "revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (key.user, key.agent, key.id, key_hash, key.role.value, key.name,
                     ts(key.created_at), ts(key.revoked_at)))
            except sqlite3.IntegrityError as exc:
                raise Conflict(f"cannot store key {key.id}: {exc}") from exc

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_hash = ?",
                                   (key_hash,)).fetchone()
        return _key_from_row(row) if row else None

    def list_keys(self, scope: Scope | None = None) -> list[ApiKey]:
        sql = f"SELECT {_KEY_COLUMNS} FROM api_keys"
        args: tuple[str, ...] = ()
        if scope is not None:
            sql += " WHERE user = ? AND agent = ?"
            args = (scope.user, scope.agent)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [_key_from_row(r) for r in rows]

    def revoke_key(self, key_id: str, at: datetime) -> ApiKey | None:
        with self.transaction():
            self._db.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at "
                             "IS NULL", (ts(at), key_id))
            row = self._db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = ?",
                                   (key_id,)).fetchone()
        return _key_from_row(row) if row else None

    # ---------------------------------------------------------------- sleep state

    def sleep_state(self, scope: Scope) -> SleepState:
        with self._lock:
            row = self._db.execute(
                "SELECT last_at, event_seq, params, importance FROM sleep_state "
                "WHERE user = ? AND agent = ?", (scope.user, scope.agent)).fetchone()
        if row is None:
            return SleepState()
        return SleepState(from_ts(row[0]), int(row[1]), str(row[2]), float(row[3]))

    def save_sleep_state(self, scope: Scope, state: SleepState) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT INTO sleep_state(user, agent, last_at, event_seq, params, importance) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user, agent) DO UPDATE SET "
                "last_at = excluded.last_at, event_seq = excluded.event_seq, "
                "params = excluded.params, importance = excluded.importance",
                (scope.user, scope.agent, ts(state.last_at), state.event_seq, state.params,
                 state.importance))

    def add_written_importance(self, scope: Scope, amount: float) -> float:
        with self.transaction():
            self._db.execute(
                "INSERT INTO sleep_state(user, agent, importance) VALUES (?, ?, ?) "
                "ON CONFLICT(user, agent) DO UPDATE SET importance = importance + ?",
                (scope.user, scope.agent, amount, amount))
            row = self._db.execute("SELECT importance FROM sleep_state WHERE user = ? AND "
                                   "agent = ?", (scope.user, scope.agent)).fetchone()
        return float(row[0])

    def changed_since(self, scope: Scope, seq: int) -> tuple[int, list[str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT memory_id, max(seq) FROM events WHERE seq > ? AND user = ? AND "
                "agent = ? AND memory_id != ? GROUP BY memory_id ORDER BY min(seq)",
                (seq, scope.user, scope.agent, SCOPE_EVENT)).fetchall()
        return max([seq, *(int(r[1]) for r in rows)]), [r[0] for r in rows]

    def set_due(self, scope: Scope, due: Mapping[str, datetime | None]) -> None:
        with self.transaction():
            gone = [(scope.user, scope.agent, mid) for mid, at in due.items() if at is None]
            self._db.executemany("DELETE FROM memory_due WHERE user = ? AND agent = ? AND "
                                 "memory_id = ?", gone)
            self._db.executemany(
                "INSERT INTO memory_due(user, agent, memory_id, due) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(user, agent, memory_id) DO UPDATE SET due = excluded.due",
                [(scope.user, scope.agent, mid, ts(at)) for mid, at in due.items()
                 if at is not None])

    def due(self, scope: Scope, until: datetime) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT memory_id FROM memory_due WHERE user = ? AND agent = ? AND due <= ? "
                "ORDER BY due, memory_id", (scope.user, scope.agent, ts(until))).fetchall()
        return [r[0] for r in rows]


_KEY_COLUMNS = "id, user, agent, role, name, created_at, revoked_at"


_GOAL_SELECT = ("user, agent, id, title, status, parent, constraints, evidence, open_loops, "
                "created_at, updated_at, closed_at")


def _json_list(items: list[str]) -> str:
    return json.dumps(list(items), ensure_ascii=False)


def _goal_from_row(row: sqlite3.Row) -> Goal:
    created, updated = from_ts(row["created_at"]), from_ts(row["updated_at"])
    assert created is not None and updated is not None
    return Goal(
        id=row["id"], user=row["user"], agent=row["agent"], title=row["title"],
        status=GoalStatus(row["status"]), created_at=created, updated_at=updated,
        constraints=json.loads(row["constraints"]), evidence=json.loads(row["evidence"]),
        open_loops=json.loads(row["open_loops"]), parent=row["parent"],
        closed_at=from_ts(row["closed_at"]),
    )
def _key_from_row(row: Sequence[Any]) -> ApiKey:
    id_, user, agent, role, name, created_at, revoked_at = tuple(row)
    return ApiKey(id=id_, user=user, agent=agent, role=Role(role), name=name,
                  created_at=from_ts(created_at),  # type: ignore[arg-type]
                  revoked_at=from_ts(revoked_at))


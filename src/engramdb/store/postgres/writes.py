"""The PostgreSQL store's writes: insert (one, or many through COPY), save, import, erase,
redaction of the log, dropping a scope, uses.

A mix-in of ``PostgresStore``: each method runs through the store's ``_run`` (the caller's
transaction, or one of its own, with the scope's advisory lock)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from psycopg import errors as pg_errors

from ...errors import Conflict, StoreError
from ...model import Layer, Record, Scope
from ..common import note_use, record_from_row, snapshot_json
from ..protocol import SCOPE_EVENT, Event, IndexText
from . import concepts, triples
from .codec import COLUMNS, COPY_TYPES, data_json, register_vector_dumper, row_values, vector_text
from .cold import ColdTable
from .links import LinkTable
from .pii import PiiTable
from .reads import Reads
from .sessions import SessionTables
from .sleep import SleepTables
from .text import document


class Writes(Reads, LinkTable, SessionTables, SleepTables, PiiTable, ColdTable):
    def _lock(self, conn: psycopg.Connection[Any], scope: Scope) -> None:
        raise NotImplementedError  # PostgresStore's

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
                concepts.write(conn, record, replace=False)
                if text is not None:
                    triples.write(conn, record.scope, record.id, text.triples, replace=False,
                                  stance=text.stance)
                self._store_memo(conn, record.scope, record.id, vector)
                if record.layer == Layer.COLD:   # an imported cold memory (postgres/cold.py)
                    self._place(conn, record)
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
            concepts.copy(conn, [rec for rec, _, _ in items])
            triples.copy(conn, [(rec.scope, rec.id, text.triples) for rec, text, _ in items
                                if text is not None and text.triples])
            triples.copy_stances(conn, [(rec.scope, rec.id, text.stance) for rec, text, _ in items
                                        if text is not None and text.stance])
            for rec, _, vector in items:
                self._store_memo(conn, rec.scope, rec.id, vector)
                if rec.layer == Layer.COLD:
                    self._place(conn, rec)
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
            if record.layer != Layer.COLD:   # out of the cold tier first (postgres/cold.py)
                self._place(conn, record)
            self._update_row(conn, record, text, vector)
            if record.layer == Layer.COLD:   # into it, with any new text or vector
                self._place(conn, record)
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
        concepts.write(conn, record, replace=True)
        if text is not None or clear_index:
            triples.write(conn, record.scope, record.id, text.triples if text else (),
                          replace=True, stance=text.stance if text else "")
        if not clear_index:
            self._store_memo(conn, record.scope, record.id, vector)

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
            self._drop_pii(conn, record.scope, record.id)
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
            triples.drop(conn, scope)
            conn.execute("DELETE FROM cold_index WHERE user_id = %s AND agent_id = %s", args)
            conn.execute("DELETE FROM pending_vectors WHERE user_id = %s AND agent_id = %s",
                         args)
            self._drop_sessions(conn, scope)
            self._drop_links(conn, scope)
            self._drop_sleep(conn, scope)
            self._drop_pii(conn, scope)
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
                if not note_use(rec, at, debounce_s):
                    continue
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


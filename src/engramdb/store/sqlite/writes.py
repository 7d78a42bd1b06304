"""The SQLite store's writes: insert, save, import, erase, redaction of the log, dropping a
scope, uses. A mix-in of ``SQLiteStore``: it uses the store's connection, lock, caches and
transaction; the reads, links and sessions it touches come from their own mix-ins."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...errors import Conflict, StoreError
from ...model import Layer, Record, Scope
from ...text.anchors import indexed_concepts
from ..common import ROW_COLUMNS, note_use, record_from_row, row_values, snapshot_json, ts
from ..idorder import IdOrder
from ..passages import PendingPassages
from ..protocol import SCOPE_EVENT, Event, IndexText
from .cold import ColdTable
from .links import LinkTable
from .pii import PiiTable
from .reads import Reads
from .search import scope_token
from .sessions import SessionTables
from .triples import TripleTable

if TYPE_CHECKING:
    import numpy as np

    from ..textindex import TextIndex
    from ..vectors import VectorCache


class Writes(Reads, LinkTable, SessionTables, PiiTable, TripleTable,
             ColdTable):
    _vectors: VectorCache
    _id_order: IdOrder
    _text: TextIndex

    def _start_scrub(self) -> None:  # SQLiteStore's
        raise NotImplementedError

    def insert(
        self, record: Record, text: IndexText, vector: np.ndarray | None, *,
        actor: str | None = None, reason: str | None = None,
    ) -> None:
        with self.transaction():
            values = row_values(record)  # encoded once: for the row and its snapshot
            rowid = self._insert_row(record, values)
            self._write_index(rowid, record.scope, text, vector)
            self._place(rowid, record)
            self._write_concepts(rowid, record)
            self._write_triples(record.scope, record.id, text.triples, replace=False,
                                stance=text.stance)
            self._log(record, "create", values=values, actor=actor, reason=reason)

    def _insert_row(self, record: Record, values: list[Any] | None = None) -> int:
        try:
            cur = self._db.execute(
                f"INSERT INTO memories ({', '.join(ROW_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(ROW_COLUMNS))})",
                values if values is not None else row_values(record),
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
            self._place(rowid, record)
            self._write_concepts(rowid, record)
            if text is not None:
                self._write_triples(record.scope, record.id, text.triples, replace=False,
                                    stance=text.stance)
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
            sets = ", ".join(f"{c} = ?" for c in ROW_COLUMNS[1:])
            values = row_values(record)
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
            if record.layer != Layer.COLD:   # out of the cold tier first (sqlite/cold.py)
                self._place(rowid, record)
            if text is not None:
                self._db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            self._write_index(rowid, record.scope, text, vector)
            if record.layer == Layer.COLD:   # into it, with any new text or vector
                self._place(rowid, record)
            self._db.execute("DELETE FROM concepts WHERE mem_rowid = ?", (rowid,))
            self._write_concepts(rowid, record)
            if text is not None:
                self._write_triples(record.scope, record.id, text.triples, replace=True,
                                    stance=text.stance)
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
            self._drop_pii(record.scope, record.id)
            self._drop_triples(record.scope, record.id)

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
            self._drop_triples(scope)
            self._db.execute(f"DELETE FROM cold_index WHERE {where}", args)
            self._db.execute(f"DELETE FROM pending_vectors WHERE {where}", args)
            self._drop_pii(scope)
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

    @property
    def passage_memo(self) -> PendingPassages:
        """Where the engine leaves a long memory's passage vectors for the write that stores
        its vector (store/passages.py)."""
        return self._vectors.parts.memo

    def put_passages(self, scope: Scope, memory_id: str, vectors: np.ndarray) -> bool:
        with self.transaction():
            row = self._db.execute(
                "SELECT v.mem_rowid FROM vectors v JOIN memories m ON m.rowid = v.mem_rowid "
                "WHERE m.id = ? AND m.user = ? AND m.agent = ?",
                (memory_id, scope.user, scope.agent)).fetchone()
            if row is None:   # no vector of its text (pending, erased, gone): no passages
                return False
            self._vectors.parts.put(scope, int(row[0]), vectors)
        return True

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
                if not note_use(rec, at, debounce_s):
                    continue
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

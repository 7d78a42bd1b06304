"""The SQLite store's cold tier (store/cold.py): a cold memory's FTS5 row, vector and passages
live in ``cold_index`` (migration 16), out of the FTS5 table, the vector matrix and the
in-memory postings that every hot search reads. A mix-in of ``SQLiteStore``."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ...model import Layer, Record, Scope
from ..cold import (
    STATS_SQL,
    ColdText,
    holding_args,
    holding_sql,
    rank_text,
    rank_vectors,
    text_terms,
)
from ..common import ts
from ..postgres.text import FIELDS

if TYPE_CHECKING:
    import numpy as np

    from ..vectors import VectorCache

_UPSERT = (
    "INSERT INTO cold_index(mem_rowid, user, agent, has_text, body, anchors, context, vec, "
    "parts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(mem_rowid) DO UPDATE SET "
    "has_text = has_text OR excluded.has_text, "
    "body = CASE WHEN excluded.has_text THEN excluded.body ELSE body END, "
    "anchors = CASE WHEN excluded.has_text THEN excluded.anchors ELSE anchors END, "
    "context = CASE WHEN excluded.has_text THEN excluded.context ELSE context END, "
    "vec = coalesce(excluded.vec, vec), "
    "parts = CASE WHEN excluded.vec IS NOT NULL THEN excluded.parts ELSE parts END"
)


class ColdTable:
    _db: sqlite3.Connection
    _lock: threading.RLock
    _vectors: VectorCache

    def _place(self, rowid: int, record: Record) -> None:
        """After a write of ``record``'s row and hot index: its index where its layer says,
        cold exactly while the layer is."""
        cold = self._db.execute("SELECT 1 FROM cold_index WHERE mem_rowid = ?",
                                (rowid,)).fetchone() is not None
        if record.layer == Layer.COLD:
            self._freeze(rowid, record.scope)
        elif cold:
            self._thaw(rowid, record.scope)

    def _freeze(self, rowid: int, scope: Scope) -> None:
        """Move what the hot structures hold of the row (text, vector, passages) into its cold
        entry, replacing what the entry held of the same kind."""
        db = self._db
        text = db.execute("SELECT body, anchors, context FROM memories_fts WHERE rowid = ?",
                          (rowid,)).fetchone()
        vec = db.execute("SELECT vec FROM vectors WHERE mem_rowid = ?", (rowid,)).fetchone()
        parts = b"".join(r[0] for r in db.execute(
            "SELECT vec FROM passages WHERE mem_rowid = ? ORDER BY part", (rowid,)))
        if text is None and vec is None and db.execute(
                "SELECT 1 FROM cold_index WHERE mem_rowid = ?", (rowid,)).fetchone():
            return   # nothing hot: the entry stays as it is
        db.execute(_UPSERT, (rowid, scope.user, scope.agent, int(text is not None),
                             *(text or ("", "", "")), vec[0] if vec else None,
                             parts if vec and parts else None))
        if text is not None:
            db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
        if vec is not None:
            self._vectors.remove(scope, rowid)   # its passages follow (trigger)

    def _thaw(self, rowid: int, scope: Scope) -> None:
        """Bring the row's cold entry back into the hot structures, and drop the entry."""
        import numpy as np

        from .search import scope_token

        db = self._db
        has_text, body, anchors, context, vec, parts = db.execute(
            "SELECT has_text, body, anchors, context, vec, parts FROM cold_index "
            "WHERE mem_rowid = ?", (rowid,)).fetchone()
        db.execute("DELETE FROM cold_index WHERE mem_rowid = ?", (rowid,))
        if has_text:
            db.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
            db.execute("INSERT INTO memories_fts(rowid, scope, body, anchors, context) "
                       "VALUES (?, ?, ?, ?, ?)", (rowid, scope_token(scope), body, anchors,
                                                  context))
        if vec is not None:
            vector = np.frombuffer(vec, dtype=np.float32)
            self._vectors.put(scope, rowid, vector)
            if parts:
                self._vectors.parts.put(scope, rowid,
                                        np.frombuffer(parts, dtype=np.float32)
                                        .reshape(-1, len(vector)))

    # ---------------------------------------------------------------- reads

    def archived_before(self, scope: Scope, before: datetime, limit: int) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM memories WHERE user = ? AND agent = ? AND layer = 'archived' "
                "AND updated_at < ? ORDER BY id LIMIT ?",
                (scope.user, scope.agent, ts(before), limit))
            return [r[0] for r in rows]

    def _search_text_cold(self, scope: Scope, tokens: Sequence[str],
                          fields: Mapping[str, float], limit: int) -> list[tuple[str, float]]:
        terms = text_terms(tokens)
        if not terms or not any(fields.get(f) for f in FIELDS) or limit <= 0:
            return []
        where = "c.user = ? AND c.agent = ? AND c.has_text"
        with self._lock:   # one snapshot: the statistics and the entries that hold a term
            self._db.execute("SAVEPOINT cold_text")
            try:
                size, total = self._db.execute(
                    STATS_SQL + " c WHERE " + where, (scope.user, scope.agent)).fetchone()
                rows = self._db.execute(
                    f"SELECT m.id, c.body, c.anchors, c.context FROM cold_index c "
                    f"JOIN memories m ON m.rowid = c.mem_rowid WHERE {where} "
                    f"AND {holding_sql(terms, fields, '?')}",
                    (scope.user, scope.agent, *holding_args(terms, fields))).fetchall()
            finally:
                self._db.execute("RELEASE cold_text")
        return rank_text([ColdText(*r) for r in rows], terms, fields, limit, size, total)

    def _search_vector_cold(self, scope: Scope, vector: np.ndarray,
                            limit: int) -> list[tuple[str, float]]:
        import numpy as np

        query = np.asarray(vector, dtype=np.float32)
        with self._lock:
            rows = self._db.execute(
                "SELECT m.id, c.vec, c.parts FROM cold_index c "
                "JOIN memories m ON m.rowid = c.mem_rowid "
                "WHERE c.user = ? AND c.agent = ? AND c.vec IS NOT NULL",
                (scope.user, scope.agent)).fetchall()
        rows = [r for r in rows if len(r[1]) == 4 * query.size]
        if not rows:
            return []
        matrix = np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
        parts = {r[0]: np.frombuffer(r[2], dtype=np.float32).reshape(-1, query.size)
                 for r in rows if r[2]}
        return rank_vectors([r[0] for r in rows], matrix, query, limit, parts)

    def _cold_blobs(self, scope: Scope, ids: Sequence[str],
                    column: str) -> list[tuple[str, bytes]]:
        """(id, ``vec`` or ``parts`` blob) of the cold entries of these ids that hold one."""
        out: list[tuple[str, bytes]] = []
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                out += self._db.execute(   # by id first: never a walk of the cold tier
                    f"SELECT m.id, c.{column} FROM memories m CROSS JOIN cold_index c "
                    f"ON c.mem_rowid = m.rowid WHERE m.id IN ({', '.join('?' * len(chunk))}) "
                    f"AND +m.user = ? AND +m.agent = ? AND c.{column} IS NOT NULL",
                    (*chunk, scope.user, scope.agent)).fetchall()
        return out

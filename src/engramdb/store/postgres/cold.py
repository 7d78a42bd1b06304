"""The PostgreSQL store's cold tier (store/cold.py): a cold memory's text columns, embedding and
passages live in ``cold_index`` (migration 16), and its row in ``memories`` holds none of them,
so the GIN and vector indexes, the scope's BM25 statistics and the in-process text index (all
of which read those columns) leave it out. A mix-in of ``PostgresStore``; each method runs in
the caller's connection or through ``_run``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
import psycopg

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
from ..protocol import IndexText
from .codec import vector_from_text
from .text import FIELDS

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s AND id = %s"
_FREEZE = f"""
INSERT INTO cold_index AS c (user_id, agent_id, id, has_text, body, anchors, context,
                             embedding, parts)
SELECT m.user_id, m.agent_id, m.id, m.body IS NOT NULL, coalesce(m.body, ''),
       coalesce(m.anchors, ''), coalesce(m.context, ''), m.embedding,
       (SELECT array_agg(p.embedding ORDER BY p.part) FROM passages p
        WHERE p.user_id = m.user_id AND p.agent_id = m.agent_id AND p.memory_id = m.id)
FROM memories m WHERE m.{_KEY.replace(" AND ", " AND m.")}
  AND (m.body IS NOT NULL OR m.embedding IS NOT NULL)
ON CONFLICT (user_id, agent_id, id) DO UPDATE SET
  has_text = c.has_text OR excluded.has_text,
  body = CASE WHEN excluded.has_text THEN excluded.body ELSE c.body END,
  anchors = CASE WHEN excluded.has_text THEN excluded.anchors ELSE c.anchors END,
  context = CASE WHEN excluded.has_text THEN excluded.context ELSE c.context END,
  embedding = coalesce(excluded.embedding, c.embedding),
  parts = CASE WHEN excluded.embedding IS NOT NULL THEN excluded.parts ELSE c.parts END
"""
_CLEAR = (f"UPDATE memories SET body = NULL, anchors = NULL, context = NULL, doc_len = NULL, "
          f"anchor_terms = NULL, embedding = NULL WHERE {_KEY} "
          f"AND (body IS NOT NULL OR embedding IS NOT NULL)")


class ColdTable:
    _update_row: Callable[..., None]        # writes.py's
    _write_passages: Callable[..., None]    # passages.py's

    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def _place(self, conn: Conn, record: Record) -> None:
        """After a write of ``record``'s row and index columns: its index where its layer
        says, cold exactly while the layer is."""
        key = (record.user, record.agent, record.id)
        if record.layer == Layer.COLD:
            conn.execute(_FREEZE, key)
            conn.execute(_CLEAR, key)
            return
        row = conn.execute(
            f"SELECT has_text, body, anchors, context, embedding::text, "
            f"(SELECT array_agg(u::text ORDER BY n) FROM unnest(parts) WITH ORDINALITY "
            f"AS x(u, n)) FROM cold_index WHERE {_KEY}", key).fetchone()
        if row is None:
            return
        conn.execute(f"DELETE FROM cold_index WHERE {_KEY}", key)
        has_text, body, anchors, context, vec, parts = row
        vector = vector_from_text(vec) if vec is not None else None
        text = IndexText(body, anchors, context) if has_text else None
        if text is None and vector is None:
            return
        self._update_row(conn, record, text, vector)
        if vector is not None and parts:
            self._write_passages(conn, record.scope, record.id,
                                 np.vstack([vector_from_text(p) for p in parts]))

    def archived_before(self, scope: Scope, before: datetime, limit: int) -> list[str]:
        rows = self._run(lambda c: c.execute(
            "SELECT id FROM memories WHERE user_id = %s AND agent_id = %s "
            "AND layer = 'archived' AND updated_at < %s ORDER BY id LIMIT %s",
            (scope.user, scope.agent, before, limit)).fetchall(), scope, write=False)
        return [r[0] for r in rows]

    def _search_text_cold(self, scope: Scope, tokens: Sequence[str],
                          fields: Mapping[str, float], limit: int) -> list[tuple[str, float]]:
        terms = text_terms(tokens)
        if not terms or not any(fields.get(f) for f in FIELDS) or limit <= 0:
            return []
        where = "user_id = %s AND agent_id = %s AND has_text"

        def read(conn: Conn) -> tuple[tuple[int, int], list[Any]]:
            stats = conn.execute(STATS_SQL + " WHERE " + where,
                                 (scope.user, scope.agent)).fetchone()
            rows = conn.execute(  # type: ignore[call-overload]
                f"SELECT id, body, anchors, context FROM cold_index WHERE {where} "
                f"AND {holding_sql(terms, fields, '%s')}",
                (scope.user, scope.agent, *holding_args(terms, fields))).fetchall()
            return (int(stats[0]), int(stats[1])), rows
        (size, total), rows = self._run(read, scope, write=False)
        return rank_text([ColdText(*r) for r in rows], terms, fields, limit, size, total)

    def _search_vector_cold(self, scope: Scope, vector: np.ndarray,
                            limit: int) -> list[tuple[str, float]]:
        dim = int(np.asarray(vector).size)
        rows = self._run(lambda c: c.execute(
            "SELECT id, embedding::text, (SELECT array_agg(u::text ORDER BY n) "
            "FROM unnest(parts) WITH ORDINALITY AS x(u, n)) FROM cold_index "
            "WHERE user_id = %s AND agent_id = %s AND embedding IS NOT NULL "
            "AND vector_dims(embedding) = %s",
            (scope.user, scope.agent, dim)).fetchall(), scope, write=False)
        if not rows:
            return []
        matrix = np.vstack([vector_from_text(r[1]) for r in rows])
        parts = {r[0]: np.vstack([vector_from_text(p) for p in r[2]]) for r in rows if r[2]}
        return rank_vectors([r[0] for r in rows], matrix, vector, limit, parts)

    def _cold_vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        rows = self._run(lambda c: c.execute(
            "SELECT id, embedding::text FROM cold_index WHERE user_id = %s AND agent_id = %s "
            "AND id = ANY(%s) AND embedding IS NOT NULL",
            (scope.user, scope.agent, list(ids))).fetchall(), scope, write=False)
        return {r[0]: vector_from_text(r[1]) for r in rows}

    def _cold_passages(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        rows = self._run(lambda c: c.execute(
            "SELECT id, (SELECT array_agg(u::text ORDER BY n) FROM unnest(parts) "
            "WITH ORDINALITY AS x(u, n)) FROM cold_index WHERE user_id = %s "
            "AND agent_id = %s AND id = ANY(%s) AND parts IS NOT NULL",
            (scope.user, scope.agent, list(ids))).fetchall(), scope, write=False)
        return {r[0]: np.vstack([vector_from_text(p) for p in r[1]]) for r in rows if r[1]}


"""The PostgreSQL store's passage vectors: a long memory's passages (text/passages.py), each its
own vector beside the memory's pooled one, so the dense search scores a long memory by its best
passage. A mix-in of ``PostgresStore``.

Triggers (migration 15) delete a memory's passages when its ``embedding`` changes or the row is
deleted, so a passage never outlives the vector of the text it was cut from. The engine leaves
the passages of a vector it computed in ``passage_memo`` (store/passages.py); the write that
stores that vector stores them in its transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import psycopg

from ...model import Layer, Scope
from ..passages import PendingPassages
from .codec import vector_from_text, vector_text

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"


class PassageTable:
    _memo: PendingPassages | None = None
    _cold_passages: Callable[..., dict[str, np.ndarray]]   # postgres/cold.py's

    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    @property
    def passage_memo(self) -> PendingPassages:
        if self._memo is None:
            self._memo = PendingPassages()
        return self._memo

    def _store_memo(self, conn: Conn, scope: Scope, memory_id: str,
                    vector: np.ndarray | None) -> None:
        """After a write that stored ``vector``: its passages, if the engine left them."""
        if vector is None or self._memo is None:
            return
        parts = self._memo.take(vector)
        if parts is not None:
            self._write_passages(conn, scope, memory_id, parts)

    @staticmethod
    def _write_passages(conn: Conn, scope: Scope, memory_id: str, parts: np.ndarray) -> None:
        conn.execute(f"DELETE FROM passages WHERE {_KEY} AND memory_id = %s",
                     (scope.user, scope.agent, memory_id))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO passages(user_id, agent_id, memory_id, part, embedding) "
                "VALUES (%s, %s, %s, %s, %s::vector)",
                [(scope.user, scope.agent, memory_id, part, vector_text(vec))
                 for part, vec in enumerate(np.asarray(parts), start=1)])

    def put_passages(self, scope: Scope, memory_id: str, vectors: np.ndarray) -> bool:
        def write(conn: Conn) -> bool:
            row = conn.execute(f"SELECT 1 FROM memories WHERE {_KEY} AND id = %s "
                               f"AND embedding IS NOT NULL",
                               (scope.user, scope.agent, memory_id)).fetchone()
            if row is None:   # no vector of its text (pending, erased, gone): no passages
                return False
            self._write_passages(conn, scope, memory_id, vectors)
            return True
        return self._run(write, scope)

    def passages(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids:
            return {}
        rows = self._run(lambda c: c.execute(
            f"SELECT memory_id, embedding::text FROM passages WHERE {_KEY} "
            f"AND memory_id = ANY(%s) ORDER BY memory_id, part",
            (scope.user, scope.agent, list(ids))).fetchall(), scope, write=False)
        out: dict[str, list[np.ndarray]] = {}
        for mid, text in rows:
            out.setdefault(mid, []).append(vector_from_text(text))
        found = {mid: np.vstack(vecs) for mid, vecs in out.items()}
        missing = [mid for mid in ids if mid not in found]
        if missing:   # a cold memory's, from its cold entry (postgres/cold.py)
            found.update(self._cold_passages(scope, missing))
        return found

    def _best_passages(self, scope: Scope, vector: np.ndarray, layers: Sequence[Layer],
                       want: int) -> list[tuple[str, float]]:
        """(id, its best passage's cosine) of the memories of ``layers`` with passages, best
        first, at most ``want``."""
        query = vector_text(vector)
        rows = self._run(lambda c: c.execute(
            "SELECT p.memory_id, max(1 - (p.embedding <=> %s::vector)) AS s FROM passages p "
            "JOIN memories m ON m.user_id = p.user_id AND m.agent_id = p.agent_id "
            "AND m.id = p.memory_id WHERE p.user_id = %s AND p.agent_id = %s "
            "AND m.layer = ANY(%s) GROUP BY p.memory_id ORDER BY s DESC, p.memory_id LIMIT %s",
            (query, scope.user, scope.agent, [lay.value for lay in layers], want)).fetchall(),
            scope, write=False)
        return [(r[0], float(r[1])) for r in rows]

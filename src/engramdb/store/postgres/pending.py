"""The PostgreSQL store's pending vectors (migration 12): memories written with
``Config.embed = "deferred"`` whose vector is still to be computed (engine/deferred.py). As
SQLite keeps them (sqlite/pending.py).

A mix-in of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import psycopg

from ...model import Scope
from ..protocol import Pending
from .codec import vector_text

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"


class PendingTable:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def _store_memo(self, conn: Conn, scope: Scope, memory_id: str,
                    vector: np.ndarray | None) -> None:
        raise NotImplementedError  # postgres/passages.py

    def add_pending(self, scope: Scope, items: Mapping[str, bool]) -> None:
        if not items:
            return

        def write(conn: Conn) -> None:
            ids = list(items)
            found = [r[0] for r in conn.execute(
                f"UPDATE memories SET embedding = NULL WHERE {_KEY} AND id = ANY(%s) "
                f"RETURNING id", (scope.user, scope.agent, ids)).fetchall()]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO pending_vectors(user_id, agent_id, memory_id, judge) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, agent_id, memory_id) "
                    "DO UPDATE SET judge = pending_vectors.judge OR excluded.judge",
                    [(scope.user, scope.agent, mid, items[mid]) for mid in found])
        self._run(write, scope)

    def pending(self, limit: int) -> list[Pending]:
        rows = self._run(lambda c: c.execute(
            "SELECT user_id, agent_id, memory_id, judge FROM pending_vectors ORDER BY seq "
            "LIMIT %s", (int(limit),)).fetchall(), write=False)
        return [Pending(Scope(r[0], r[1]), r[2], bool(r[3])) for r in rows]

    def pending_count(self, scope: Scope | None = None) -> int:
        if scope is None:
            row = self._run(lambda c: c.execute(
                "SELECT count(*) FROM pending_vectors").fetchone(), write=False)
        else:
            row = self._run(lambda c: c.execute(
                f"SELECT count(*) FROM pending_vectors WHERE {_KEY}",
                (scope.user, scope.agent)).fetchone(), write=False)
        return int(row[0])

    def finish_pending(self, scope: Scope, vectors: Mapping[str, np.ndarray],
                       drop: Sequence[str] = ()) -> list[str]:
        def write(conn: Conn) -> list[str]:
            waiting = {r[0] for r in conn.execute(
                f"DELETE FROM pending_vectors WHERE {_KEY} AND memory_id = ANY(%s) "
                f"RETURNING memory_id", (scope.user, scope.agent, [*vectors, *drop])).fetchall()}
            done = []
            for mid, vector in vectors.items():
                if mid in waiting and conn.execute(
                        f"UPDATE memories SET embedding = %s::vector WHERE {_KEY} AND id = %s",
                        (vector_text(vector), scope.user, scope.agent, mid)).rowcount:
                    done.append(mid)
                    self._store_memo(conn, scope, mid, vector)
            return done
        return self._run(write, scope)

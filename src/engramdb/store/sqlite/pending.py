"""The SQLite store's pending vectors: memories written with ``Config.embed = "deferred"``
whose vector is still to be computed (engine/deferred.py). A mix-in of ``SQLiteStore``: it
uses the store's connection, lock, vector cache and transaction."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ...model import Scope
from ..protocol import Pending

if TYPE_CHECKING:
    import numpy as np

    from ..vectors import VectorCache


class PendingTable:
    _db: sqlite3.Connection
    _lock: threading.RLock
    _vectors: VectorCache

    def transaction(self) -> AbstractContextManager[None]:  # SQLiteStore's
        raise NotImplementedError

    def add_pending(self, scope: Scope, items: Mapping[str, bool]) -> None:
        if not items:
            return
        with self.transaction():
            rows = self._rowids(scope, list(items))
            for rowid in rows.values():
                self._vectors.remove(scope, rowid)
            self._db.executemany(
                "INSERT INTO pending_vectors(memory_id, user, agent, judge) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(memory_id) DO UPDATE SET judge = max(judge, excluded.judge)",
                [(mid, scope.user, scope.agent, int(judge)) for mid, judge in items.items()
                 if mid in rows])

    def pending(self, limit: int) -> list[Pending]:
        with self._lock:
            rows = self._db.execute(
                "SELECT user, agent, memory_id, judge FROM pending_vectors ORDER BY seq LIMIT ?",
                (int(limit),)).fetchall()
        return [Pending(Scope(r[0], r[1]), r[2], bool(r[3])) for r in rows]

    def pending_count(self, scope: Scope | None = None) -> int:
        with self._lock:
            if scope is None:
                row = self._db.execute("SELECT count(*) FROM pending_vectors").fetchone()
            else:
                row = self._db.execute(
                    "SELECT count(*) FROM pending_vectors WHERE user = ? AND agent = ?",
                    (scope.user, scope.agent)).fetchone()
        return int(row[0])

    def finish_pending(self, scope: Scope, vectors: Mapping[str, np.ndarray],
                       drop: Sequence[str] = ()) -> list[str]:
        with self.transaction():
            ids = [*vectors, *drop]
            marks = ", ".join("?" * len(ids))
            waiting = {r[0] for r in self._db.execute(
                f"SELECT memory_id FROM pending_vectors WHERE user = ? AND agent = ? "
                f"AND memory_id IN ({marks})", (scope.user, scope.agent, *ids))} if ids else set()
            rows = self._rowids(scope, [mid for mid in vectors if mid in waiting])
            for mid, rowid in rows.items():
                self._vectors.put(scope, rowid, vectors[mid])
            self._db.executemany("DELETE FROM pending_vectors WHERE memory_id = ?",
                                 [(mid,) for mid in waiting])
        return list(rows)

    def _rowids(self, scope: Scope, ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            found.update((r[0], int(r[1])) for r in self._db.execute(
                f"SELECT id, rowid FROM memories WHERE user = ? AND agent = ? "
                f"AND id IN ({', '.join('?' * len(part))})", (scope.user, scope.agent, *part)))
        return found

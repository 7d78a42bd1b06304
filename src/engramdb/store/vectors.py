"""Exact cosine search over a per-scope float32 matrix, cached in memory.

The matrix is loaded once per scope and refreshed incrementally: every vector write bumps
the scope's row in ``scope_state`` (inside the writer's transaction), so a reader in any
process sees a change with one primary-key lookup and loads only the rows it lacks."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field

import numpy as np

from ..model import Scope


@dataclass
class _Matrix:
    seq: int = 0
    rowids: list[int] = field(default_factory=list)
    position: dict[int, int] = field(default_factory=dict)
    data: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    used: int = 0

    def view(self) -> np.ndarray:
        return self.data[: self.used]


class VectorCache:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock
        self._scopes: dict[Scope, _Matrix] = {}

    def invalidate(self) -> None:
        self._scopes.clear()

    def put(self, scope: Scope, rowid: int, vector: np.ndarray) -> None:
        blob = np.asarray(vector, dtype=np.float32).tobytes()
        db = self._db
        existed = db.execute("DELETE FROM vectors WHERE mem_rowid = ?", (rowid,)).rowcount
        cur = db.execute(
            "INSERT INTO vectors(mem_rowid, user, agent, vec) VALUES (?, ?, ?, ?)",
            (rowid, scope.user, scope.agent, blob),
        )
        db.execute(
            "INSERT INTO scope_state(user, agent, vec_seq, vec_count) VALUES (?, ?, ?, 1) "
            "ON CONFLICT(user, agent) DO UPDATE SET vec_seq = excluded.vec_seq, "
            "vec_count = vec_count + ?",
            (scope.user, scope.agent, cur.lastrowid, 0 if existed else 1),
        )

    def top(self, scope: Scope, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        with self._lock:
            matrix = self._fresh(scope)
            rows = matrix.view()
            if not len(rows):
                return []
            scores = rows @ np.asarray(query, dtype=np.float32)
            rowids = matrix.rowids
        n = min(limit, len(scores))
        if n < len(scores):  # the best n, plus every row tied with the n-th (callers break ties)
            cut = scores[np.argpartition(-scores, n - 1)[:n]].min()
            idx = np.flatnonzero(scores >= cut)
        else:
            idx = np.arange(len(scores))
        order = sorted(idx, key=lambda i: (-float(scores[i]), rowids[i]))
        return [(rowids[i], float(scores[i])) for i in order]

    def _fresh(self, scope: Scope) -> _Matrix:
        state = self._db.execute(
            "SELECT vec_seq, vec_count FROM scope_state WHERE user = ? AND agent = ?",
            (scope.user, scope.agent),
        ).fetchone()
        seq, count = (state[0], state[1]) if state else (0, 0)
        matrix = self._scopes.get(scope)
        if matrix is None or seq < matrix.seq:
            matrix = self._scopes[scope] = _Matrix()
        if seq != matrix.seq:
            self._load(scope, matrix, matrix.seq)
            matrix.seq = seq
        if matrix.used != count:  # rows were removed elsewhere: reload from scratch
            matrix = self._scopes[scope] = _Matrix()
            self._load(scope, matrix, 0)
            matrix.seq = seq
        return matrix

    def _load(self, scope: Scope, matrix: _Matrix, after: int) -> None:
        rows = self._db.execute(
            "SELECT mem_rowid, vec FROM vectors WHERE user = ? AND agent = ? AND seq > ? "
            "ORDER BY seq",
            (scope.user, scope.agent, after),
        ).fetchall()
        if not rows:
            return
        dim = len(rows[0][1]) // 4
        if matrix.data.shape[1] != dim:
            matrix.data = np.zeros((0, dim), dtype=np.float32)
        fresh = [(r, v) for r, v in rows if r not in matrix.position]
        need = matrix.used + len(fresh)
        if need > len(matrix.data):
            grown = np.zeros((max(need, 2 * len(matrix.data), 64), dim), dtype=np.float32)
            grown[: matrix.used] = matrix.data[: matrix.used]
            matrix.data = grown
        for rowid, blob in rows:
            pos = matrix.position.get(rowid)
            if pos is None:
                pos = matrix.used
                matrix.position[rowid] = pos
                matrix.rowids.append(rowid)
                matrix.used += 1
            matrix.data[pos] = np.frombuffer(blob, dtype=np.float32)

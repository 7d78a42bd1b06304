"""The SQLite store's sleep bookkeeping (dynamics/incremental.py): per scope, its last sleep
and the importance written since; per memory, when a sleep next needs to look at it. A mix-in
of ``SQLiteStore``: it uses the store's connection, lock and transaction."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping
from contextlib import AbstractContextManager
from datetime import datetime

from ...model import Scope
from ..common import from_ts, ts
from ..protocol import SCOPE_EVENT, SleepState


class SleepTables:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # SQLiteStore's
        raise NotImplementedError

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


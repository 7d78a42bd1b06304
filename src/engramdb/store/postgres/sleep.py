"""The PostgreSQL store's sleep state (migration 9): per scope, what the last sleep saw and
the importance written since; per memory, when a sleep next needs to look at it. As SQLite
keeps them (sqlite/); read by dynamics/incremental.py.

A mix-in of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from ...model import Scope
from ..protocol import SCOPE_EVENT, SleepState

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"


class SleepTables:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def sleep_state(self, scope: Scope) -> SleepState:
        def read(conn: Conn) -> SleepState:
            row = conn.execute(f"SELECT last_at, event_seq, params, importance FROM sleep_state "
                               f"WHERE {_KEY}", (scope.user, scope.agent)).fetchone()
            if row is None:
                return SleepState()
            return SleepState(row[0], int(row[1]), str(row[2]), float(row[3]))

        return self._run(read, write=False)

    def save_sleep_state(self, scope: Scope, state: SleepState) -> None:
        def write(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO sleep_state(user_id, agent_id, last_at, event_seq, params, "
                "importance) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, agent_id) "
                "DO UPDATE SET last_at = excluded.last_at, event_seq = excluded.event_seq, "
                "params = excluded.params, importance = excluded.importance",
                (scope.user, scope.agent, state.last_at, state.event_seq, state.params,
                 state.importance))

        self._run(write, scope)

    def add_written_importance(self, scope: Scope, amount: float) -> float:
        def write(conn: Conn) -> float:
            row = conn.execute(
                "INSERT INTO sleep_state(user_id, agent_id, importance) VALUES (%s, %s, %s) "
                "ON CONFLICT (user_id, agent_id) DO UPDATE SET "
                "importance = sleep_state.importance + excluded.importance RETURNING importance",
                (scope.user, scope.agent, amount)).fetchone()
            return float(row[0])

        return self._run(write, scope)

    def changed_since(self, scope: Scope, seq: int) -> tuple[int, list[str]]:
        def read(conn: Conn) -> tuple[int, list[str]]:
            rows = conn.execute(
                f"SELECT memory_id, max(seq) FROM events WHERE {_KEY} AND seq > %s "
                f"AND memory_id <> %s GROUP BY memory_id ORDER BY min(seq)",
                (scope.user, scope.agent, seq, SCOPE_EVENT)).fetchall()
            return max([seq, *(int(r[1]) for r in rows)]), [r[0] for r in rows]

        return self._run(read, write=False)

    def set_due(self, scope: Scope, due: Mapping[str, datetime | None]) -> None:
        def write(conn: Conn) -> None:
            gone = [mid for mid, at in due.items() if at is None]
            if gone:
                conn.execute(f"DELETE FROM memory_due WHERE {_KEY} AND memory_id = ANY(%s)",
                             (scope.user, scope.agent, gone))
            kept = [(scope.user, scope.agent, mid, at) for mid, at in due.items()
                    if at is not None]
            if kept:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO memory_due(user_id, agent_id, memory_id, due) "
                        "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, agent_id, memory_id) "
                        "DO UPDATE SET due = excluded.due", kept)

        self._run(write, scope)

    def due(self, scope: Scope, until: datetime) -> list[str]:
        def read(conn: Conn) -> list[str]:
            rows = conn.execute(
                f"SELECT memory_id FROM memory_due WHERE {_KEY} AND due <= %s "
                f"ORDER BY due, memory_id", (scope.user, scope.agent, until)).fetchall()
            return [r[0] for r in rows]

        return self._run(read, write=False)

    @staticmethod
    def _drop_sleep(conn: Conn, scope: Scope) -> None:
        for table in ("sleep_state", "memory_due"):
            conn.execute(f"DELETE FROM {table} WHERE {_KEY}", (scope.user, scope.agent))

"""The SQLite store's goals (the goal stack of attention/goals.py) and API keys (the HTTP
door). Mix-ins of ``SQLiteStore``: they use the store's connection, lock and transaction."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from ...errors import Conflict
from ...model import ApiKey, Goal, GoalStatus, Role, Scope
from ..common import from_ts, json_list, ts


class GoalTable:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # SQLiteStore's
        raise NotImplementedError

    def put_goal(self, goal: Goal) -> None:
        try:
            with self.transaction():
                self._db.execute(
                    "INSERT INTO goals (user, agent, id, title, status, parent, constraints, "
                    "evidence, open_loops, created_at, updated_at, closed_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user, agent, id) DO UPDATE SET title = excluded.title, "
                    "status = excluded.status, parent = excluded.parent, "
                    "constraints = excluded.constraints, evidence = excluded.evidence, "
                    "open_loops = excluded.open_loops, created_at = excluded.created_at, "
                    "updated_at = excluded.updated_at, closed_at = excluded.closed_at",
                    (goal.user, goal.agent, goal.id, goal.title, goal.status.value, goal.parent,
                     json_list(goal.constraints), json_list(goal.evidence),
                     json_list(goal.open_loops), ts(goal.created_at), ts(goal.updated_at),
                     ts(goal.closed_at)))
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"goal {goal.id}: another goal of this scope is active "
                           f"({exc})") from None

    def get_goal(self, scope: Scope, goal_id: str) -> Goal | None:
        row = self._db.execute(
            f"SELECT {_GOAL_SELECT} FROM goals WHERE user = ? AND agent = ? AND id = ?",
            (scope.user, scope.agent, goal_id)).fetchone()
        return _goal_from_row(row) if row is not None else None

    def list_goals(self, scope: Scope, statuses: Sequence[GoalStatus] = ()) -> list[Goal]:
        sql = f"SELECT {_GOAL_SELECT} FROM goals WHERE user = ? AND agent = ?"
        args: list[Any] = [scope.user, scope.agent]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            args.extend(GoalStatus(s).value for s in statuses)
        rows = self._db.execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [_goal_from_row(r) for r in rows]

    def drop_goals(self, scope: Scope) -> int:
        with self.transaction():
            cur = self._db.execute("DELETE FROM goals WHERE user = ? AND agent = ?",
                                   (scope.user, scope.agent))
        return int(cur.rowcount)



class KeyTable:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # SQLiteStore's
        raise NotImplementedError

    def insert_key(self, key: ApiKey, key_hash: str) -> None:
        with self.transaction():
            try:
                self._db.execute(
                    "INSERT INTO api_keys(user, agent, id, key_hash, role, name, created_at, "
                    "revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (key.user, key.agent, key.id, key_hash, key.role.value, key.name,
                     ts(key.created_at), ts(key.revoked_at)))
            except sqlite3.IntegrityError as exc:
                raise Conflict(f"cannot store key {key.id}: {exc}") from exc

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_hash = ?",
                                   (key_hash,)).fetchone()
        return _key_from_row(row) if row else None

    def list_keys(self, scope: Scope | None = None) -> list[ApiKey]:
        sql = f"SELECT {_KEY_COLUMNS} FROM api_keys"
        args: tuple[str, ...] = ()
        if scope is not None:
            sql += " WHERE user = ? AND agent = ?"
            args = (scope.user, scope.agent)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [_key_from_row(r) for r in rows]

    def revoke_key(self, key_id: str, at: datetime) -> ApiKey | None:
        with self.transaction():
            self._db.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at "
                             "IS NULL", (ts(at), key_id))
            row = self._db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = ?",
                                   (key_id,)).fetchone()
        return _key_from_row(row) if row else None


_KEY_COLUMNS = "id, user, agent, role, name, created_at, revoked_at"


_GOAL_SELECT = ("user, agent, id, title, status, parent, constraints, evidence, open_loops, "
                "created_at, updated_at, closed_at")


def _goal_from_row(row: sqlite3.Row) -> Goal:
    created, updated = from_ts(row["created_at"]), from_ts(row["updated_at"])
    assert created is not None and updated is not None
    return Goal(
        id=row["id"], user=row["user"], agent=row["agent"], title=row["title"],
        status=GoalStatus(row["status"]), created_at=created, updated_at=updated,
        constraints=json.loads(row["constraints"]), evidence=json.loads(row["evidence"]),
        open_loops=json.loads(row["open_loops"]), parent=row["parent"],
        closed_at=from_ts(row["closed_at"]),
    )


def _key_from_row(row: Sequence[Any]) -> ApiKey:
    id_, user, agent, role, name, created_at, revoked_at = tuple(row)
    return ApiKey(id=id_, user=user, agent=agent, role=Role(role), name=name,
                  created_at=from_ts(created_at),  # type: ignore[arg-type]
                  revoked_at=from_ts(revoked_at))


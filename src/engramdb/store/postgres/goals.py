"""The PostgreSQL store's goals (migration 6) and HTTP API keys (migration 7), as SQLite keeps
them (sqlite/).

Mix-ins of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors

from ...errors import Conflict
from ...model import ApiKey, Goal, GoalStatus, Role, Scope

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"
_GOAL = ("user_id, agent_id, id, title, status, parent, constraints, evidence, open_loops, "
         "created_at, updated_at, closed_at")
_API_KEY = "id, user_id, agent_id, role, name, created_at, revoked_at"


def _json_list(items: list[str]) -> str:
    return json.dumps(list(items), ensure_ascii=False)


def _goal(row: Sequence[Any]) -> Goal:
    (user, agent, id_, title, status, parent, constraints, evidence, open_loops, created,
     updated, closed) = row
    return Goal(id=id_, user=user, agent=agent, title=title, status=GoalStatus(status),
                created_at=created, updated_at=updated, constraints=json.loads(constraints),
                evidence=json.loads(evidence), open_loops=json.loads(open_loops),
                parent=parent, closed_at=closed)


def _api_key(row: Sequence[Any]) -> ApiKey:
    id_, user, agent, role, name, created, revoked = row
    return ApiKey(id=id_, user=user, agent=agent, role=Role(role), name=name,
                  created_at=created, revoked_at=revoked)


class _Tables:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's


class GoalTable(_Tables):
    def put_goal(self, goal: Goal) -> None:
        def write(conn: Conn) -> None:
            try:
                with conn.transaction():  # a savepoint: a conflict leaves the caller's work
                    conn.execute(
                        f"INSERT INTO goals ({_GOAL}) VALUES "
                        f"(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                        f"ON CONFLICT (user_id, agent_id, id) DO UPDATE SET "
                        f"title = excluded.title, status = excluded.status, "
                        f"parent = excluded.parent, constraints = excluded.constraints, "
                        f"evidence = excluded.evidence, open_loops = excluded.open_loops, "
                        f"created_at = excluded.created_at, updated_at = excluded.updated_at, "
                        f"closed_at = excluded.closed_at",
                        (goal.user, goal.agent, goal.id, goal.title, goal.status.value,
                         goal.parent, _json_list(goal.constraints), _json_list(goal.evidence),
                         _json_list(goal.open_loops), goal.created_at, goal.updated_at,
                         goal.closed_at))
            except pg_errors.UniqueViolation as exc:
                raise Conflict(f"goal {goal.id}: another goal of this scope is active "
                               f"({exc.diag.message_primary})") from None
        self._run(write, goal.scope)

    def get_goal(self, scope: Scope, goal_id: str) -> Goal | None:
        row = self._run(lambda c: c.execute(
            f"SELECT {_GOAL} FROM goals WHERE {_KEY} AND id = %s",
            (scope.user, scope.agent, goal_id)).fetchone(), scope, write=False)
        return _goal(row) if row else None

    def list_goals(self, scope: Scope, statuses: Sequence[GoalStatus] = ()) -> list[Goal]:
        sql = f"SELECT {_GOAL} FROM goals WHERE {_KEY}"
        args: list[Any] = [scope.user, scope.agent]
        if statuses:
            sql += " AND status = ANY(%s)"
            args.append([GoalStatus(s).value for s in statuses])
        rows = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            sql + " ORDER BY created_at, id", args).fetchall(), scope, write=False)
        return [_goal(r) for r in rows]

    def drop_goals(self, scope: Scope) -> int:
        return int(self._run(lambda c: c.execute(
            f"DELETE FROM goals WHERE {_KEY}", (scope.user, scope.agent)).rowcount, scope))


class KeyTable(_Tables):
    def insert_key(self, key: ApiKey, key_hash: str) -> None:
        def write(conn: Conn) -> None:
            try:
                with conn.transaction():
                    conn.execute(
                        "INSERT INTO api_keys(user_id, agent_id, id, key_hash, role, name, "
                        "created_at, revoked_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                        (key.user, key.agent, key.id, key_hash, key.role.value, key.name,
                         key.created_at, key.revoked_at))
            except pg_errors.UniqueViolation as exc:
                raise Conflict(f"cannot store key {key.id}: "
                               f"{exc.diag.message_primary}") from None
        self._run(write)

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        row = self._run(lambda c: c.execute(
            f"SELECT {_API_KEY} FROM api_keys WHERE key_hash = %s", (key_hash,)).fetchone(),
            write=False)
        return _api_key(row) if row else None

    def list_keys(self, scope: Scope | None = None) -> list[ApiKey]:
        sql = f"SELECT {_API_KEY} FROM api_keys"
        args: tuple[str, ...] = ()
        if scope is not None:
            sql += f" WHERE {_KEY}"
            args = (scope.user, scope.agent)
        rows = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            sql + " ORDER BY created_at, id", args).fetchall(), write=False)
        return [_api_key(r) for r in rows]

    def revoke_key(self, key_id: str, at: datetime) -> ApiKey | None:
        def write(conn: Conn) -> Any:
            conn.execute("UPDATE api_keys SET revoked_at = %s WHERE id = %s "
                         "AND revoked_at IS NULL", (at, key_id))
            return conn.execute(f"SELECT {_API_KEY} FROM api_keys WHERE id = %s",
                                (key_id,)).fetchone()
        row = self._run(write)
        return _api_key(row) if row else None

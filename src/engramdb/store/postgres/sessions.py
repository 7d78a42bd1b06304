"""The PostgreSQL tables of working memory (migration 5): sessions, their turns, offloaded
blobs, as sqlite/sessions.py keeps them for SQLite.

A mix-in of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors

from ...errors import Conflict
from ...model import Scope
from ...working.state import Blob, SessionInfo, Settings, Turn

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"
_SESSION = "id, settings, created_at, updated_at, ended_at, summary, notes"
_TURN = "seq, role, content, at, tokens, pinned, ref, folded"


def _session(row: Sequence[Any]) -> SessionInfo:
    id_, settings, created, updated, ended, summary, notes = row
    return SessionInfo(id=id_, settings=Settings(**json.loads(settings)), created_at=created,
                       updated_at=updated, ended_at=ended, summary=summary,
                       notes=json.loads(notes))


def _insert_once(conn: Conn, sql: str, args: Sequence[Any], what: str) -> None:
    """Insert in a savepoint: a taken key is ``Conflict`` and leaves the caller's work whole."""
    try:
        with conn.transaction():
            conn.execute(sql, args)  # type: ignore[call-overload]
    except pg_errors.UniqueViolation as exc:
        raise Conflict(f"{what} exists already") from exc


class SessionTables:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def session(self, scope: Scope, session_id: str) -> SessionInfo | None:
        row = self._run(lambda c: c.execute(
            f"SELECT {_SESSION} FROM wm_sessions WHERE {_KEY} AND id = %s",
            (scope.user, scope.agent, session_id)).fetchone(), scope, write=False)
        return _session(row) if row else None

    def sessions(self, scope: Scope) -> list[SessionInfo]:
        rows = self._run(lambda c: c.execute(
            f"SELECT {_SESSION} FROM wm_sessions WHERE {_KEY} ORDER BY created_at, id",
            (scope.user, scope.agent)).fetchall(), scope, write=False)
        return [_session(r) for r in rows]

    def save_session(self, scope: Scope, info: SessionInfo) -> None:
        self._run(lambda c: c.execute(
            "INSERT INTO wm_sessions(user_id, agent_id, id, settings, created_at, updated_at, "
            "ended_at, summary, notes) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (user_id, agent_id, id) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at, ended_at = excluded.ended_at, "
            "summary = excluded.summary, notes = excluded.notes",
            (scope.user, scope.agent, info.id, json.dumps(info.settings.to_dict()),
             info.created_at, info.updated_at, info.ended_at, info.summary,
             json.dumps(info.notes, ensure_ascii=False))), scope)

    def add_turn(self, scope: Scope, session_id: str, turn: Turn) -> None:
        self._run(lambda c: _insert_once(
            c, "INSERT INTO wm_turns(user_id, agent_id, session_id, seq, role, content, at, "
               "tokens, pinned, ref, folded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (scope.user, scope.agent, session_id, turn.seq, turn.role, turn.content, turn.at,
             turn.tokens, turn.pinned, turn.ref, turn.folded),
            f"turn {turn.seq} of session {session_id!r}"), scope)

    def fold_turns(self, scope: Scope, session_id: str, seqs: Sequence[int]) -> None:
        if not seqs:
            return
        self._run(lambda c: c.execute(
            f"UPDATE wm_turns SET folded = true WHERE {_KEY} AND session_id = %s "
            f"AND seq = ANY(%s)", (scope.user, scope.agent, session_id, list(seqs))), scope)

    def turns(self, scope: Scope, session_id: str) -> list[Turn]:
        rows = self._run(lambda c: c.execute(
            f"SELECT {_TURN} FROM wm_turns WHERE {_KEY} AND session_id = %s ORDER BY seq",
            (scope.user, scope.agent, session_id)).fetchall(), scope, write=False)
        return [Turn(seq=r[0], role=r[1], content=r[2], at=r[3], tokens=r[4], pinned=r[5],
                     ref=r[6], folded=r[7]) for r in rows]

    def put_blob(self, scope: Scope, blob: Blob) -> None:
        self._run(lambda c: _insert_once(
            c, "INSERT INTO wm_blobs(user_id, agent_id, ref, session_id, content, tokens, at) "
               "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (scope.user, scope.agent, blob.ref, blob.session_id, blob.content, blob.tokens,
             blob.at), f"blob {blob.ref!r}"), scope)

    def blob(self, scope: Scope, ref: str) -> Blob | None:
        r = self._run(lambda c: c.execute(
            f"SELECT ref, session_id, content, tokens, at FROM wm_blobs WHERE {_KEY} "
            f"AND ref = %s", (scope.user, scope.agent, ref)).fetchone(), scope, write=False)
        return Blob(ref=r[0], session_id=r[1], content=r[2], tokens=r[3], at=r[4]) if r else None

    @staticmethod
    def _drop_sessions(conn: Conn, scope: Scope) -> None:
        """Inside the caller's write: every session, turn and blob of the scope."""
        for table in ("wm_blobs", "wm_turns", "wm_sessions"):
            conn.execute(f"DELETE FROM {table} WHERE {_KEY}",  # type: ignore[call-overload]
                         (scope.user, scope.agent))

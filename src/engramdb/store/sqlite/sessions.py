"""The SQLite tables of working memory (migration 5): sessions, their turns, offloaded blobs.

A mix-in of SQLiteStore: it uses the store's connection, lock and transaction."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Never

from ...errors import Conflict
from ...model import Scope
from ...working.state import Blob, SessionInfo, Settings, Turn
from ..common import from_ts as _from_ts
from ..common import ts as _ts


class SessionTables:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]: ...  # SQLiteStore's

    def session(self, scope: Scope, session_id: str) -> SessionInfo | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM wm_sessions WHERE user = ? AND agent = ? AND id = ?",
                (scope.user, scope.agent, session_id)).fetchone()
        return _session(row) if row else None

    def sessions(self, scope: Scope) -> list[SessionInfo]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM wm_sessions WHERE user = ? AND agent = ? ORDER BY created_at, id",
                (scope.user, scope.agent)).fetchall()
        return [_session(r) for r in rows]

    def save_session(self, scope: Scope, info: SessionInfo) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT INTO wm_sessions(user, agent, id, settings, created_at, updated_at, "
                "ended_at, summary, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(user, agent, id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at, ended_at = excluded.ended_at, "
                "summary = excluded.summary, notes = excluded.notes",
                (scope.user, scope.agent, info.id, json.dumps(info.settings.to_dict()),
                 _ts(info.created_at), _ts(info.updated_at), _ts(info.ended_at), info.summary,
                 json.dumps(info.notes, ensure_ascii=False)))

    def add_turn(self, scope: Scope, session_id: str, turn: Turn) -> None:
        with self.transaction(), _unique(f"turn {turn.seq} of session {session_id!r}"):
            self._db.execute(
                "INSERT INTO wm_turns(user, agent, session_id, seq, role, content, at, tokens, "
                "pinned, ref, folded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (scope.user, scope.agent, session_id, turn.seq, turn.role, turn.content,
                 _ts(turn.at), turn.tokens, int(turn.pinned), turn.ref, int(turn.folded)))

    def fold_turns(self, scope: Scope, session_id: str, seqs: Sequence[int]) -> None:
        with self.transaction():
            self._db.executemany(
                "UPDATE wm_turns SET folded = 1 WHERE user = ? AND agent = ? AND session_id = ? "
                "AND seq = ?", [(scope.user, scope.agent, session_id, s) for s in seqs])

    def turns(self, scope: Scope, session_id: str) -> list[Turn]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM wm_turns WHERE user = ? AND agent = ? AND session_id = ? "
                "ORDER BY seq", (scope.user, scope.agent, session_id)).fetchall()
        return [Turn(seq=r["seq"], role=r["role"], content=r["content"],
                     at=_from_ts(r["at"]) or _missing("at"), tokens=r["tokens"],
                     pinned=bool(r["pinned"]), ref=r["ref"], folded=bool(r["folded"]))
                for r in rows]

    def put_blob(self, scope: Scope, blob: Blob) -> None:
        with self.transaction(), _unique(f"blob {blob.ref!r}"):
            self._db.execute(
                "INSERT INTO wm_blobs(user, agent, ref, session_id, content, tokens, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (scope.user, scope.agent, blob.ref, blob.session_id, blob.content, blob.tokens,
                 _ts(blob.at)))

    def blob(self, scope: Scope, ref: str) -> Blob | None:
        with self._lock:
            r = self._db.execute(
                "SELECT * FROM wm_blobs WHERE user = ? AND agent = ? AND ref = ?",
                (scope.user, scope.agent, ref)).fetchone()
        if r is None:
            return None
        return Blob(ref=r["ref"], session_id=r["session_id"], content=r["content"],
                    tokens=r["tokens"], at=_from_ts(r["at"]) or _missing("at"))

    def _drop_sessions(self, scope: Scope) -> None:
        for table in ("wm_blobs", "wm_turns", "wm_sessions"):
            self._db.execute(f"DELETE FROM {table} WHERE user = ? AND agent = ?",
                             (scope.user, scope.agent))


@contextmanager
def _unique(what: str) -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise Conflict(f"{what} exists already") from exc


def _session(r: sqlite3.Row) -> SessionInfo:
    return SessionInfo(
        id=r["id"], settings=Settings(**json.loads(r["settings"])),
        created_at=_from_ts(r["created_at"]) or _missing("created_at"),
        updated_at=_from_ts(r["updated_at"]) or _missing("updated_at"),
        ended_at=_from_ts(r["ended_at"]), summary=r["summary"], notes=json.loads(r["notes"]))


def _missing(name: str) -> Never:
    raise ValueError(f"stored session row has no {name}")

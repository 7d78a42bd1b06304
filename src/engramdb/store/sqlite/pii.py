"""The SQLite store's table of masked personal data (migration 12, write/privacy.py): per
memory, each placeholder of its text with the kind and value it stands for. A hard forget and
a dropped scope delete a memory's rows. A mix-in of ``SQLiteStore``."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager

from ...model import Scope


class PiiTable:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # SQLiteStore's
        raise NotImplementedError

    def put_pii(self, scope: Scope, memory_id: str,
                values: Mapping[str, tuple[str, str]]) -> None:
        with self.transaction():
            self._drop_pii(scope, memory_id)
            self._db.executemany(
                "INSERT INTO pii_values(user, agent, memory_id, placeholder, kind, value) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(scope.user, scope.agent, memory_id, ph, kind, value)
                 for ph, (kind, value) in values.items()])

    def pii_values(self, scope: Scope, ids: Sequence[str]) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                part = list(ids[start:start + 500])
                rows = self._db.execute(
                    f"SELECT memory_id, placeholder, value FROM pii_values WHERE user = ? AND "
                    f"agent = ? AND memory_id IN ({','.join('?' * len(part))})",
                    (scope.user, scope.agent, *part)).fetchall()
                for mid, ph, value in rows:
                    out.setdefault(mid, {})[ph] = value
        return out

    def _drop_pii(self, scope: Scope, memory_id: str | None = None) -> None:
        if memory_id is None:
            self._db.execute("DELETE FROM pii_values WHERE user = ? AND agent = ?",
                             (scope.user, scope.agent))
        else:
            self._db.execute("DELETE FROM pii_values WHERE user = ? AND agent = ? AND "
                             "memory_id = ?", (scope.user, scope.agent, memory_id))

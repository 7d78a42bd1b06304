"""The PostgreSQL store's table of masked personal data (migration 12), as SQLite keeps it
(sqlite/pii.py). A mix-in of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import psycopg

from ...model import Scope

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_KEY = "user_id = %s AND agent_id = %s"


class PiiTable:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def put_pii(self, scope: Scope, memory_id: str,
                values: Mapping[str, tuple[str, str]]) -> None:
        def write(conn: Conn) -> None:
            self._drop_pii(conn, scope, memory_id)
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO pii_values(user_id, agent_id, memory_id, placeholder, kind, "
                    "value) VALUES (%s, %s, %s, %s, %s, %s)",
                    [(scope.user, scope.agent, memory_id, ph, kind, value)
                     for ph, (kind, value) in values.items()])
        self._run(write, scope)

    def pii_values(self, scope: Scope, ids: Sequence[str]) -> dict[str, dict[str, str]]:
        def read(conn: Conn) -> dict[str, dict[str, str]]:
            out: dict[str, dict[str, str]] = {}
            rows = conn.execute(f"SELECT memory_id, placeholder, value FROM pii_values WHERE "
                                f"{_KEY} AND memory_id = ANY(%s)",
                                (scope.user, scope.agent, list(ids))).fetchall()
            for mid, ph, value in rows:
                out.setdefault(mid, {})[ph] = value
            return out

        if not ids:
            return {}
        return self._run(read, write=False)

    @staticmethod
    def _drop_pii(conn: Conn, scope: Scope, memory_id: str | None = None) -> None:
        if memory_id is None:
            conn.execute(f"DELETE FROM pii_values WHERE {_KEY}", (scope.user, scope.agent))
        else:
            conn.execute(f"DELETE FROM pii_values WHERE {_KEY} AND memory_id = %s",
                         (scope.user, scope.agent, memory_id))

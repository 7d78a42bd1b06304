"""The SQLite store's links: typed, directed edges between memories of one scope (migration 4).

A mix-in of ``SQLiteStore``: it uses the store's connection, lock and transaction. Every query
leads with the scope columns, so no call reads or changes another scope's links."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from ...model import Link, Scope
from ..common import from_ts, link_list_sql, strengthened, ts

_COLS = "user, agent, source, target, relation, weight, created_at, updated_at"
_CHUNK = 500  # ids per IN (...) list: well under SQLite's variable limit


def _link(row: Sequence[Any]) -> Link:
    user, agent, source, target, relation, weight, created, updated = row
    return Link(source=source, target=target, relation=relation, weight=float(weight),
                created_at=from_ts(created), updated_at=from_ts(updated),  # type: ignore[arg-type]
                user=user, agent=agent)


class LinkTable:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # provided by SQLiteStore
        raise NotImplementedError

    def put_link(self, link: Link) -> None:
        with self.transaction():
            self._db.execute(
                f"INSERT INTO links ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user, agent, source, target, relation) DO UPDATE SET "
                "weight = excluded.weight, updated_at = excluded.updated_at",
                (link.user, link.agent, link.source, link.target, link.relation, link.weight,
                 ts(link.created_at), ts(link.updated_at)))

    def get_link(self, scope: Scope, source: str, target: str, relation: str) -> Link | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLS} FROM links WHERE user = ? AND agent = ? AND source = ? "
                "AND target = ? AND relation = ?",
                (scope.user, scope.agent, source, target, relation)).fetchone()
        return _link(row) if row else None

    def links(self, scope: Scope, ids: Sequence[str],
              relations: Sequence[str] = ()) -> list[Link]:
        """Every link with either end in ``ids`` (of the given relations; empty: all), ordered
        by source, target, relation."""
        found: dict[tuple[str, str, str], Link] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ", ".join("?" * len(chunk))
            rel = f" AND relation IN ({', '.join('?' * len(relations))})" if relations else ""
            with self._lock:
                for end in ("source", "target"):
                    rows = self._db.execute(
                        f"SELECT {_COLS} FROM links WHERE user = ? AND agent = ? "
                        f"AND {end} IN ({marks}){rel}",
                        (scope.user, scope.agent, *chunk, *relations)).fetchall()
                    for row in rows:
                        link = _link(row)
                        found[(link.source, link.target, link.relation)] = link
        return [found[key] for key in sorted(found)]

    def remove_links(self, scope: Scope, source: str, target: str,
                     relation: str | None = None) -> int:
        rel = " AND relation = ?" if relation is not None else ""
        args = (scope.user, scope.agent, source, target) + ((relation,) if relation else ())
        with self.transaction():
            cur = self._db.execute(
                f"DELETE FROM links WHERE user = ? AND agent = ? AND source = ? AND target = ?"
                f"{rel}", args)
        return int(cur.rowcount)

    def strengthen_links(self, scope: Scope, pairs: Sequence[tuple[str, str]], relation: str,
                         step: float, cap: float, at: datetime, debounce_s: float) -> int:
        """Add ``step`` to each directed link (created at ``step`` when new), capped at ``cap``;
        a link changed within ``debounce_s`` before ``at`` is left as it is. Returns how many
        links changed."""
        changed = 0
        with self.transaction():
            for source, target in pairs:
                new = strengthened(self.get_link(scope, source, target, relation), scope, source,
                                   target, relation, step, cap, at, debounce_s)
                if new is not None:
                    self.put_link(new)
                    changed += 1
        return changed

    def list_links(self, scope: Scope, *, relation: str | None = None,
                   below: float | None = None, since: datetime | None = None,
                   limit: int | None = None) -> list[Link]:
        """The scope's links, weakest first (then by source, target, relation): for pruning."""
        tail, args = link_list_sql("?", relation, below, ts(since), limit)
        sql = f"SELECT {_COLS} FROM links WHERE user = ? AND agent = ?{tail}"
        with self._lock:
            return [_link(row) for row in self._db.execute(sql, [scope.user, scope.agent, *args])]

    def delete_links(self, scope: Scope, links: Sequence[Link]) -> int:
        """Delete exactly these links (matched by scope, source, target, relation)."""
        removed = 0
        with self.transaction():
            for link in links:
                removed += self._db.execute(
                    "DELETE FROM links WHERE user = ? AND agent = ? AND source = ? "
                    "AND target = ? AND relation = ?",
                    (scope.user, scope.agent, link.source, link.target, link.relation)).rowcount
        return removed

    def link_count(self, scope: Scope) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM links WHERE user = ? AND agent = ?",
                                        (scope.user, scope.agent)).fetchone()[0])

    def _drop_links(self, scope: Scope, memory_id: str | None = None) -> None:
        """Inside the caller's transaction: the links of one memory, or of the whole scope."""
        if memory_id is None:
            self._db.execute("DELETE FROM links WHERE user = ? AND agent = ?",
                             (scope.user, scope.agent))
            return
        self._db.execute("DELETE FROM links WHERE user = ? AND agent = ? AND "
                         "(source = ? OR target = ?)",
                         (scope.user, scope.agent, memory_id, memory_id))


def _chunks(ids: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]

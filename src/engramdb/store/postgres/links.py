"""The PostgreSQL store's links: typed, directed edges between memories of one scope
(migration 4), as sqlite/links.py keeps them for SQLite.

A mix-in of ``PostgresStore``: each method runs through the store's ``_run`` (the caller's
transaction, or one of its own, with the scope's advisory lock for writes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from ...model import Link, Scope
from ..common import link_list_sql, strengthened

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_COLS = "user_id, agent_id, source, target, relation, weight, created_at, updated_at"
_KEY = "user_id = %s AND agent_id = %s"
_UPSERT = (
    f"INSERT INTO links ({_COLS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (user_id, agent_id, source, target, relation) DO UPDATE SET "
    "weight = excluded.weight, updated_at = excluded.updated_at")


def _link(row: Sequence[Any]) -> Link:
    user, agent, source, target, relation, weight, created, updated = row
    return Link(source=source, target=target, relation=relation, weight=float(weight),
                created_at=created, updated_at=updated, user=user, agent=agent)


def _values(link: Link) -> tuple[Any, ...]:
    return (link.user, link.agent, link.source, link.target, link.relation, link.weight,
            link.created_at, link.updated_at)


class LinkTable:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def put_link(self, link: Link) -> None:
        self._run(lambda c: c.execute(_UPSERT, _values(link)), Scope(link.user, link.agent))

    def get_link(self, scope: Scope, source: str, target: str, relation: str) -> Link | None:
        row = self._run(lambda c: c.execute(
            f"SELECT {_COLS} FROM links WHERE {_KEY} AND source = %s AND target = %s "
            f"AND relation = %s", (scope.user, scope.agent, source, target, relation)
        ).fetchone(), scope, write=False)
        return _link(row) if row else None

    def links(self, scope: Scope, ids: Sequence[str],
              relations: Sequence[str] = ()) -> list[Link]:
        if not ids:
            return []
        rel = " AND relation = ANY(%s)" if relations else ""
        args: list[Any] = [scope.user, scope.agent, list(ids), list(ids)]
        if relations:
            args.append(list(relations))
        rows = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"SELECT {_COLS} FROM links WHERE {_KEY} "
            f"AND (source = ANY(%s) OR target = ANY(%s)){rel} "
            f"ORDER BY source, target, relation", args).fetchall(), scope, write=False)
        return [_link(r) for r in rows]

    def remove_links(self, scope: Scope, source: str, target: str,
                     relation: str | None = None) -> int:
        rel = " AND relation = %s" if relation is not None else ""
        args = (scope.user, scope.agent, source, target) + (
            (relation,) if relation is not None else ())
        return self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"DELETE FROM links WHERE {_KEY} AND source = %s AND target = %s{rel}",
            args).rowcount, scope)

    def strengthen_links(self, scope: Scope, pairs: Sequence[tuple[str, str]], relation: str,
                         step: float, cap: float, at: datetime, debounce_s: float) -> int:
        """As SQLite's: pair by pair, in order (a pair given twice sees its first change)."""
        if not pairs:
            return 0

        def write(conn: Conn) -> int:
            rows = conn.execute(
                f"SELECT {_COLS} FROM links WHERE {_KEY} AND relation = %s "
                f"AND (source, target) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
                (scope.user, scope.agent, relation, [p[0] for p in pairs],
                 [p[1] for p in pairs])).fetchall()
            known = {(x.source, x.target): x for x in map(_link, rows)}
            changed: list[Link] = []
            for source, target in pairs:
                new = strengthened(known.get((source, target)), scope, source, target, relation,
                                   step, cap, at, debounce_s)
                if new is not None:
                    known[(source, target)] = new
                    changed.append(new)
            with conn.cursor() as cur:
                cur.executemany(_UPSERT, [_values(x) for x in changed])
            return len(changed)
        return self._run(write, scope)

    def list_links(self, scope: Scope, *, relation: str | None = None,
                   below: float | None = None, since: datetime | None = None,
                   limit: int | None = None) -> list[Link]:
        tail, args = link_list_sql("%s", relation, below, since, limit)
        sql = f"SELECT {_COLS} FROM links WHERE {_KEY}{tail}"
        args = [scope.user, scope.agent, *args]
        rows = self._run(lambda c: c.execute(sql, args).fetchall(),  # type: ignore[call-overload]
                         scope, write=False)
        return [_link(r) for r in rows]

    def delete_links(self, scope: Scope, links: Sequence[Link]) -> int:
        if not links:
            return 0
        return self._run(lambda c: c.execute(
            f"DELETE FROM links WHERE {_KEY} AND (source, target, relation) IN "
            f"(SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))",
            (scope.user, scope.agent, [x.source for x in links], [x.target for x in links],
             [x.relation for x in links])).rowcount, scope)

    def link_count(self, scope: Scope) -> int:
        row = self._run(lambda c: c.execute(
            f"SELECT count(*) FROM links WHERE {_KEY}", (scope.user, scope.agent)).fetchone(),
            scope, write=False)
        return int(row[0])

    @staticmethod
    def _drop_links(conn: Conn, scope: Scope, memory_id: str | None = None) -> None:
        """Inside the caller's write: the links of one memory, or of the whole scope."""
        if memory_id is None:
            conn.execute(f"DELETE FROM links WHERE {_KEY}", (scope.user, scope.agent))
            return
        conn.execute(f"DELETE FROM links WHERE {_KEY} AND (source = %s OR target = %s)",
                     (scope.user, scope.agent, memory_id, memory_id))

"""The PostgreSQL store's triple table (migration 16), as SQLite's (sqlite/triples.py): per
memory, the subject-predicate-object triples its last index text carried, in their order.

The write helpers run inside the caller's write (the store's ``_run``, under the scope's lock);
``TripleTable`` is a mix-in of ``PostgresStore``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg

from ...model import Kind, Layer, Scope
from ..protocol import Triple

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_COLUMNS = "user_id, agent_id, memory_id, n, subject, predicate, object"


def write(conn: Conn, scope: Scope, memory_id: str, triples: Sequence[Triple], *,
          replace: bool, stance: str = "") -> None:
    """A memory's triples and its stance (write/stance.py: table stances, migration 18)."""
    if replace:
        drop(conn, scope, memory_id)
    if triples:
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO triples ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                            "ON CONFLICT DO NOTHING",
                            [(scope.user, scope.agent, memory_id, n, *t)
                             for n, t in enumerate(triples)])
    if stance:
        conn.execute("INSERT INTO stances (user_id, agent_id, memory_id, stance) "
                     "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, agent_id, memory_id) "
                     "DO UPDATE SET stance = excluded.stance",
                     (scope.user, scope.agent, memory_id, stance))


def drop(conn: Conn, scope: Scope, memory_id: str | None = None) -> None:
    for table in ("triples", "stances"):
        if memory_id is None:
            conn.execute(f"DELETE FROM {table} WHERE user_id = %s AND agent_id = %s",
                         (scope.user, scope.agent))
        else:
            conn.execute(f"DELETE FROM {table} WHERE user_id = %s AND agent_id = %s AND "
                         "memory_id = %s", (scope.user, scope.agent, memory_id))


def copy_stances(conn: Conn, rows: Sequence[tuple[Scope, str, str]]) -> None:
    """The stances of new memories, through COPY (bulk_insert)."""
    with conn.cursor().copy("COPY stances (user_id, agent_id, memory_id, stance) "
                            "FROM STDIN") as cp:
        for scope, memory_id, stance in rows:
            cp.write_row((scope.user, scope.agent, memory_id, stance))


def copy(conn: Conn, rows: Sequence[tuple[Scope, str, Sequence[Triple]]]) -> None:
    """The triple rows of new memories, through COPY (bulk_insert)."""
    with conn.cursor().copy(f"COPY triples ({_COLUMNS}) FROM STDIN") as cp:
        for scope, memory_id, triples in rows:
            for n, t in enumerate(triples):
                cp.write_row((scope.user, scope.agent, memory_id, n, *t))


def fill(conn: Conn) -> None:
    """Migration 16's data: the triples of the facts already stored, read by the same Python
    code as every write's (write/triples.py), in batches loaded with COPY."""
    from ...write.triples import read_triples

    with conn.cursor(name="engramdb_fill_triples") as cur:
        cur.execute("SELECT user_id, agent_id, id, content, kind FROM memories WHERE kind IN "
                    "('identity', 'preference', 'fact') AND content <> ''")
        while batch := cur.fetchmany(2000):   # no FETCH while a COPY runs: one COPY a batch
            copy(conn, [(Scope(u, a), mid, read_triples(content, Kind(kind)))
                        for u, a, mid, content, kind in batch])


class TripleTable:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def triples(self, scope: Scope, *, ids: Sequence[str] | None = None,
                subject: str | None = None, predicate: str | None = None,
                limit: int = 1000) -> list[tuple[str, Triple]]:
        where = ["t.user_id = %s", "t.agent_id = %s", "m.layer <> %s"]
        args: list[Any] = [scope.user, scope.agent, Layer.DELETED.value]
        if subject is not None:
            where.append("t.subject = %s")
            args.append(subject)
        if predicate is not None:
            where.append("t.predicate = %s")
            args.append(predicate)
        if ids is not None:
            where.append("t.memory_id = ANY(%s)")
            args.append(list(ids))
        rows = self._run(lambda c: c.execute(
            "SELECT t.memory_id, t.subject, t.predicate, t.object FROM triples t JOIN memories m "
            "ON m.user_id = t.user_id AND m.agent_id = t.agent_id AND m.id = t.memory_id "
            f"WHERE {' AND '.join(where)} ORDER BY t.memory_id DESC, t.n LIMIT %s",
            (*args, limit)).fetchall(), scope, write=False)
        return [(r[0], Triple(r[1], r[2], r[3])) for r in rows]

    def stances(self, scope: Scope, ids: Sequence[str]) -> dict[str, str]:
        if not ids:
            return {}
        rows = self._run(lambda c: c.execute(
            "SELECT memory_id, stance FROM stances WHERE user_id = %s AND agent_id = %s AND "
            "memory_id = ANY(%s)", (scope.user, scope.agent, list(ids))).fetchall(),
            scope, write=False)
        return {r[0]: r[1] for r in rows}

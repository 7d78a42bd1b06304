"""The PostgreSQL store's concept table (migration 10), as SQLite's: each memory's concept
names (text/anchors.py), one row each, so that a concept's members are one index range
(recall/concepts.py). A narrow table of its own rather than a column of ``memories``: filling it
for a store that exists already writes these rows only, not every memory's row again (with
their vector and text indexes).

``ConceptTable`` is a mix-in of ``PostgresStore``; the write helpers run inside the caller's
write (the store's ``_run``, under the scope's lock)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg

from ...model import Layer, Record, Scope
from ...text.anchors import concept_names, indexed_concepts

T = TypeVar("T")
Conn = psycopg.Connection[Any]


def rows(record: Record) -> list[tuple[str, str, str, str]]:
    return [(record.user, record.agent, name, record.id) for name in indexed_concepts(record)]


def write(conn: Conn, record: Record, *, replace: bool) -> None:
    """The record's concept rows (``replace``: instead of those it had)."""
    if replace:
        conn.execute("DELETE FROM concepts WHERE user_id = %s AND agent_id = %s AND id = %s",
                     (record.user, record.agent, record.id))
    found = rows(record)
    if found:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO concepts (user_id, agent_id, concept, id) "
                            "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING", found)


def copy(conn: Conn, records: Sequence[Record]) -> None:
    """The concept rows of new records, through COPY (bulk_insert)."""
    with conn.cursor().copy("COPY concepts (user_id, agent_id, concept, id) FROM STDIN") as cp:
        for record in records:
            for row in rows(record):
                cp.write_row(row)


def fill(conn: Conn) -> None:
    """Migration 10's data: the concept rows of the memories already stored, computed by the
    same Python code as every write's, read in batches and loaded with COPY."""
    with conn.cursor(name="engramdb_fill_concepts") as cur:
        cur.execute("SELECT user_id, agent_id, id, data FROM memories WHERE layer = 'core' "
                    "AND data LIKE "
                    "ANY (ARRAY['%\"people\": [\"%', '%\"places\": [\"%', "
                    "'%\"topics\": [\"%', '%\"keywords\": [\"%'])")
        while batch := cur.fetchmany(5000):   # no FETCH while a COPY runs: one COPY a batch
            with conn.cursor().copy("COPY concepts (user_id, agent_id, concept, id) "
                                    "FROM STDIN") as cp:
                for user_id, agent_id, memory_id, data in batch:
                    for name in dict.fromkeys(concept_names(data)):
                        cp.write_row((user_id, agent_id, name, memory_id))


class ConceptTable:
    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def concept_members(self, scope: Scope, concept: str, limit: int) -> list[str]:
        found = self._run(lambda c: c.execute(
            "SELECT c.id FROM concepts c JOIN memories m ON m.user_id = c.user_id "
            "AND m.agent_id = c.agent_id AND m.id = c.id WHERE c.user_id = %s "
            "AND c.agent_id = %s AND c.concept = %s AND m.layer = %s LIMIT %s",
            (scope.user, scope.agent, concept, Layer.CORE.value, limit)).fetchall(),
            scope, write=False)
        return sorted(r[0] for r in found)

    def concept_counts(self, scope: Scope, kinds: Sequence[str],
                       limit: int) -> list[tuple[str, int, str]]:
        if not kinds or limit <= 0:
            return []
        like = " OR ".join("c.concept LIKE %s" for _ in kinds)
        found = self._run(lambda c: c.execute(
            "SELECT c.concept, count(*), min(c.id) FROM concepts c JOIN memories m "
            "ON m.user_id = c.user_id AND m.agent_id = c.agent_id AND m.id = c.id "
            f"WHERE c.user_id = %s AND c.agent_id = %s AND m.layer = %s AND ({like}) "
            "GROUP BY c.concept ORDER BY count(*) DESC, c.concept LIMIT %s",
            (scope.user, scope.agent, Layer.CORE.value, *(f"{k}:%" for k in kinds),
             limit)).fetchall(), scope, write=False)
        return [(r[0], int(r[1]), r[2]) for r in found]

"""The SQLite store's triple table (migration 16, write/triples.py): per memory, the
subject-predicate-object triples its last index text carried (``IndexText.triples``), in their
order. Written with the full-text index (insert, import, a save that rewrites the index);
deleted by a hard forget and a dropped scope. A mix-in of ``SQLiteStore``."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence

from ...model import Kind, Layer, Scope
from ..protocol import Triple

TRIPLE_KINDS = (Kind.IDENTITY.value, Kind.PREFERENCE.value, Kind.FACT.value)


def triples_json(content: str, kind: str) -> str:
    """The triples of a memory's text as a JSON list (SQL's engramdb_triples, migration 16)."""
    from ...write.triples import read_triples

    try:
        found = read_triples(content, Kind(kind))
    except ValueError:
        found = ()
    return json.dumps([list(t) for t in found], ensure_ascii=False)


class TripleTable:
    _db: sqlite3.Connection
    _lock: threading.RLock

    def _write_triples(self, scope: Scope, memory_id: str, triples: Sequence[Triple],
                       replace: bool, stance: str = "") -> None:
        """A memory's triples and its stance (write/stance.py: table stances, migration 18),
        from its index text."""
        if replace:
            self._drop_triples(scope, memory_id)
        self._db.executemany(
            "INSERT OR IGNORE INTO triples(user, agent, memory_id, n, subject, predicate, "
            "object) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(scope.user, scope.agent, memory_id, n, *t) for n, t in enumerate(triples)])
        if stance:
            self._db.execute("INSERT OR REPLACE INTO stances(user, agent, memory_id, stance) "
                             "VALUES (?, ?, ?, ?)", (scope.user, scope.agent, memory_id, stance))

    def _drop_triples(self, scope: Scope, memory_id: str | None = None) -> None:
        for table in ("triples", "stances"):
            if memory_id is None:
                self._db.execute(f"DELETE FROM {table} WHERE user = ? AND agent = ?",
                                 (scope.user, scope.agent))
            else:
                self._db.execute(f"DELETE FROM {table} WHERE user = ? AND agent = ? AND "
                                 "memory_id = ?", (scope.user, scope.agent, memory_id))

    def stances(self, scope: Scope, ids: Sequence[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        ids = list(dict.fromkeys(ids))
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                out.update(self._db.execute(
                    f"SELECT memory_id, stance FROM stances WHERE user = ? AND agent = ? AND "
                    f"memory_id IN ({', '.join('?' * len(chunk))})",
                    (scope.user, scope.agent, *chunk)).fetchall())
        return out

    def triples(self, scope: Scope, *, ids: Sequence[str] | None = None,
                subject: str | None = None, predicate: str | None = None,
                limit: int = 1000) -> list[tuple[str, Triple]]:
        where = ["t.user = ?", "t.agent = ?", "m.layer != ?"]
        args: list[object] = [scope.user, scope.agent, Layer.DELETED.value]
        if subject is not None:
            where.append("t.subject = ?")
            args.append(subject)
        if predicate is not None:
            where.append("t.predicate = ?")
            args.append(predicate)
        out: list[tuple[str, Triple]] = []
        parts = [None] if ids is None else [list(ids[i:i + 500]) for i in range(0, len(ids), 500)]
        with self._lock:
            for part in parts:
                clause = list(where)
                if part is not None:
                    clause.append(f"t.memory_id IN ({','.join('?' * len(part))})")
                rows = self._db.execute(
                    "SELECT t.memory_id, t.subject, t.predicate, t.object FROM triples t "
                    "JOIN memories m ON m.id = t.memory_id "
                    f"WHERE {' AND '.join(clause)} ORDER BY t.memory_id DESC, t.n LIMIT ?",
                    (*args, *(part or ()), limit)).fetchall()
                out += [(r[0], Triple(r[1], r[2], r[3])) for r in rows]
        out.sort(key=lambda item: item[0], reverse=True)  # stable: each memory's order kept
        return out[:limit]

"""The SQLite store's reads: single memories, lists and counts by filter, vectors, the event
log. A mix-in of ``SQLiteStore``: it uses the store's connection and lock."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...model import Layer, Record, Scope
from ..common import ROW_COLUMNS, from_ts, record_from_row, record_from_values, ts
from ..protocol import Event, ListFilter
from .recordcache import RecordCache
from .search import scope_token

if TYPE_CHECKING:
    import numpy as np

    from ..textindex import TextIndex

SELECT = ", ".join(ROW_COLUMNS)


class Reads:
    _db: sqlite3.Connection
    _lock: threading.RLock
    _records: RecordCache
    _text: TextIndex
    _cold_blobs: Callable[..., list[tuple[str, bytes]]]   # sqlite/cold.py's

    def _one(self, sql: str, args: Sequence[Any]) -> Record | None:
        with self._lock:
            row = self._db.execute(sql, args).fetchone()
        return record_from_row(row) if row else None

    def get(self, scope: Scope, memory_id: str) -> Record | None:
        return self._one(
            "SELECT * FROM memories WHERE id = ? AND user = ? AND agent = ?",
            (memory_id, scope.user, scope.agent),
        )

    def locate(self, memory_id: str) -> Record | None:
        return self._one("SELECT * FROM memories WHERE id = ?", (memory_id,))

    def ids_with_prefix(self, scope: Scope, prefix: str, limit: int) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                # +user, +agent: the id range is the index to use (a scope can be large)
                "SELECT id FROM memories WHERE id >= ? AND id < ? AND +user = ? AND +agent = ? "
                "ORDER BY id LIMIT ?", (prefix, prefix + "\U0010ffff", scope.user, scope.agent,
                                        limit)).fetchall()
        return [r[0] for r in rows]

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None:
        return self._one(
            "SELECT * FROM memories WHERE uri = ? AND user = ? AND agent = ? "
            "AND layer != 'deleted'",
            (uri, scope.user, scope.agent),
        )

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
        """The scope's records among ``ids``, in the order the query below returns them (by
        id, 500 at a time); the ones read before and unchanged since come from the record
        cache (recordcache.py), as copies or made again, the caller's own."""
        return self._many(scope, ids, shared=False)

    def read_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
        """``get_many``'s records, not copied: the record cache's own, for a reader that
        changes none of them (recall reads a hundred candidates a query and returns a few,
        which it copies: recall/reading.py)."""
        return self._many(scope, ids, shared=True)

    def _many(self, scope: Scope, ids: Sequence[str], shared: bool) -> dict[str, Record]:
        out: dict[str, Record] = {}
        ids = list(dict.fromkeys(ids))
        with self._lock:
            kept = self._records
            kept.follow()
            for start in range(0, len(ids), 500):
                chunk = sorted(ids[start : start + 500])
                found = {i: rec for i in chunk
                         if (rec := kept.get(scope.user, scope.agent, i, shared)) is not None}
                missing = [i for i in chunk if i not in found]
                if missing:
                    found.update((r[0], kept.put(record_from_values(r), shared))
                                 for r in self._rows(scope, missing))
                out.update((i, found[i]) for i in chunk if i in found)
        return out

    def _rows(self, scope: Scope, ids: list[str]) -> list[tuple[Any, ...]]:
        """The scope's rows among ``ids`` as plain tuples in ``ROW_COLUMNS`` order: by rowid
        where the text index knows the ids' rowids (one look-up each, not two), the rest by
        id; a row read by rowid counts only if it is still the id asked for."""
        cur = self._db.cursor()
        cur.row_factory = None  # plain tuples, decoded by position
        rowids = self._text.rowids_of(scope.user, scope.agent, scope_token(scope), ids)
        rows: list[tuple[Any, ...]] = []
        if rowids:
            wanted = set(ids)
            rows = [r for r in cur.execute(
                f"SELECT {SELECT} FROM memories WHERE +user = ? AND +agent = ? "
                f"AND rowid IN ({', '.join('?' * len(rowids))})",
                (scope.user, scope.agent, *rowids)) if r[0] in wanted]
            ids = [i for i in ids if i not in {r[0] for r in rows}]
        if ids:
            rows += cur.execute(  # "+": look ids up by key, never scan the scope
                f"SELECT {SELECT} FROM memories WHERE +user = ? AND +agent = ? "
                f"AND id IN ({', '.join('?' * len(ids))})", (scope.user, scope.agent, *ids))
        return rows

    def concept_members(self, scope: Scope, concept: str, limit: int) -> list[str]:
        """The core memories holding ``concept``, by id (up to ``limit``): kept from one read
        to the next until a row is added or changed, as ``layer_count`` (association asks
        for the same few people and places query after query)."""
        def members() -> tuple[str, ...]:
            rows = self._db.execute(
                "SELECT m.id FROM concepts c JOIN memories m ON m.rowid = c.mem_rowid "
                "WHERE c.user = ? AND c.agent = ? AND c.concept = ? AND m.layer = ? LIMIT ?",
                (scope.user, scope.agent, concept, Layer.CORE.value, limit)).fetchall()
            return tuple(sorted(r[0] for r in rows))

        with self._lock:
            return list(self._text.counted(("concept", scope.user, scope.agent, concept,
                                            str(limit)), members))

    def concept_counts(self, scope: Scope, kinds: Sequence[str],
                       limit: int) -> list[tuple[str, int, str]]:
        if not kinds or limit <= 0:
            return []
        like = " OR ".join("c.concept LIKE ?" for _ in kinds)
        with self._lock:
            rows = self._db.execute(
                "SELECT c.concept, count(*), min(m.id) FROM concepts c "
                "JOIN memories m ON m.rowid = c.mem_rowid "
                f"WHERE c.user = ? AND c.agent = ? AND m.layer = ? AND ({like}) "
                "GROUP BY c.concept ORDER BY count(*) DESC, c.concept LIMIT ?",
                (scope.user, scope.agent, Layer.CORE.value, *(f"{k}:%" for k in kinds),
                 limit)).fetchall()
        return [(r[0], int(r[1]), r[2]) for r in rows]

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM memories WHERE user = ? AND agent = ? AND content_hash = ? "
                "AND kind = ? AND layer != 'deleted' ORDER BY id",
                (scope.user, scope.agent, content_hash, kind),
            ).fetchall()
        return [record_from_row(r) for r in rows]

    def _where(self, scope: Scope, flt: ListFilter) -> tuple[str, list[Any]]:
        clauses = ["user = ?", "agent = ?"]
        args: list[Any] = [scope.user, scope.agent]
        if flt.kinds:
            clauses.append(f"kind IN ({', '.join('?' * len(flt.kinds))})")
            args.extend(flt.kinds)
        if flt.priorities:
            clauses.append(f"priority IN ({', '.join('?' * len(flt.priorities))})")
            args.extend(flt.priorities)
        if flt.layers:   # with kinds, "+": the kind index, not the layer's (a scan of core)
            clauses.append(f"{'+' if flt.kinds else ''}layer IN "
                           f"({', '.join('?' * len(flt.layers))})")
            args.extend(layer.value for layer in flt.layers)
        if flt.uri_prefix is not None:
            clauses.append("substr(uri, 1, ?) = ?")
            args.extend([len(flt.uri_prefix), flt.uri_prefix])
        if flt.since is not None:
            clauses.append("at >= ?")
            args.append(ts(flt.since))
        if flt.until is not None:
            clauses.append("at < ?")
            args.append(ts(flt.until))
        if flt.current_only:
            clauses.append("invalid_at IS NULL")
        if flt.contains:
            clauses.append("instr(lower(content), ?) > 0")
            args.append(flt.contains.lower())
        return " AND ".join(clauses), args

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]:
        where, args = self._where(scope, flt)
        order = "DESC" if flt.newest_first else "ASC"
        sql = f"SELECT {SELECT} FROM memories WHERE {where} ORDER BY at {order}, id {order}"
        if flt.limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [flt.limit, flt.offset]
        elif flt.offset:
            sql += " LIMIT -1 OFFSET ?"
            args.append(flt.offset)
        with self._lock:
            cur = self._db.cursor()
            cur.row_factory = None  # plain tuples, decoded by position (as get_many)
            rows = cur.execute(sql, args).fetchall()
        return (record_from_values(r) for r in rows)

    def count(self, scope: Scope, flt: ListFilter) -> int:
        where, args = self._where(scope, flt)
        with self._lock:
            return int(self._db.execute(f"SELECT count(*) FROM memories WHERE {where}", args)
                       .fetchone()[0])

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        import numpy as np

        return {mid: np.frombuffer(vec, dtype=np.float32).copy()
                for mid, vec in self.vector_blobs(scope, ids).items()}

    def passages(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        import numpy as np

        return {mid: np.vstack([np.frombuffer(v, dtype=np.float32) for v in rows])
                for mid, rows in self.passage_blobs(scope, ids).items()}

    def vector_blobs(self, scope: Scope, ids: Sequence[str]) -> dict[str, bytes]:
        """``vectors`` as stored: float32 bytes (an export writes them without numpy); a cold
        memory's from its cold entry (sqlite/cold.py)."""
        found = dict(self._vector_rows("vectors", scope, ids))
        missing = [mid for mid in ids if mid not in found]
        if missing:
            found.update(self._cold_blobs(scope, missing, "vec"))
        return found

    def passage_blobs(self, scope: Scope, ids: Sequence[str]) -> dict[str, list[bytes]]:
        """``passages`` as stored: each passage's float32 bytes, in order."""
        out: dict[str, list[bytes]] = {}
        for mid, vec in self._vector_rows("passages", scope, ids, "ORDER BY m.id, p.part"):
            out.setdefault(mid, []).append(vec)
        missing = [mid for mid in ids if mid not in out]
        if missing:   # a cold memory's: one blob of its passages, cut at its vector's size
            sizes = {mid: len(v) for mid, v in self._cold_blobs(scope, missing, "vec")}
            for mid, blob in self._cold_blobs(scope, missing, "parts"):
                size = sizes.get(mid)
                if size:
                    out[mid] = [blob[i : i + size] for i in range(0, len(blob), size)]
        return out

    def _vector_rows(self, table: str, scope: Scope, ids: Sequence[str],
                     order: str = "") -> list[tuple[str, bytes]]:
        """(memory id, vector blob) rows of ``table`` (vectors or passages, joined to their
        memory as ``p``) for these ids, read 500 ids a query."""
        rows: list[tuple[str, bytes]] = []
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                rows += self._db.execute(
                    f"SELECT m.id, p.vec FROM {table} p JOIN memories m ON m.rowid = p.mem_rowid "
                    f"WHERE +m.user = ? AND +m.agent = ? "
                    f"AND m.id IN ({', '.join('?' * len(chunk))}) {order}",
                    (scope.user, scope.agent, *chunk),
                ).fetchall()
        return rows

    def events(self, scope: Scope, memory_id: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM events WHERE user = ? AND agent = ? AND memory_id = ? ORDER BY seq",
                (scope.user, scope.agent, memory_id),
            ).fetchall()
        return [
            Event(
                seq=r["seq"], memory_id=r["memory_id"], op=r["op"], version=r["version"],
                at=from_ts(r["at"]),  # type: ignore[arg-type]
                snapshot=record_from_row(json.loads(r["snapshot"])) if r["snapshot"] else None,
                actor=r["actor"], reason=r["reason"],
            )
            for r in rows
        ]

    def event_count(self, scope: Scope) -> int:
        with self._lock:
            return int(self._db.execute(
                "SELECT count(*) FROM events WHERE user = ? AND agent = ?",
                (scope.user, scope.agent),
            ).fetchone()[0])

    def scopes(self) -> list[Scope]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT user, agent FROM memories ORDER BY 1, 2")
            return [Scope(r[0], r[1]) for r in rows]

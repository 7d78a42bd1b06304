"""The PostgreSQL store's reads: single memories, lists and counts by filter, BM25 text search
(the in-process index of textindex.py, or SQL), HNSW vector search, vectors, the event log.

A mix-in of ``PostgresStore``: each method runs through the store's ``_run``."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import psycopg

from ...model import Layer, Record, Scope
from ..cold import with_cold
from ..common import record_from_row
from ..protocol import Event, ListFilter
from .codec import SELECT, record_from_values, vector_from_text, vector_text
from .passages import PassageTable
from .text import BM25_SQL, WEIGHT_LETTER, Candidate, bm25, query_terms, tsquery
from .textindex import PgTextIndex

T = TypeVar("T")
Conn = psycopg.Connection[Any]
_FIELDS = ("body", "anchors", "context")


class Reads(PassageTable):
    _local: threading.local
    _text: PgTextIndex
    _search_text_cold: Callable[..., list[tuple[str, float]]]    # postgres/cold.py's
    _search_vector_cold: Callable[..., list[tuple[str, float]]]
    _cold_vectors: Callable[..., dict[str, np.ndarray]]

    def _run(self, fn: Callable[[Conn], T], scope: Scope | None = None, *,
             write: bool = True) -> T:
        raise NotImplementedError  # PostgresStore's

    def _records(self, scope: Scope, sql: str, args: Sequence[Any]) -> list[Record]:
        rows = self._run(lambda c: c.execute(sql, args).fetchall(),  # type: ignore[call-overload]
                         scope, write=False)
        return [record_from_values(r) for r in rows]

    def get(self, scope: Scope, memory_id: str) -> Record | None:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s AND id = %s",
            (scope.user, scope.agent, memory_id))
        return found[0] if found else None

    def locate(self, memory_id: str) -> Record | None:
        rows = self._run(lambda c: c.execute(
            f"SELECT {SELECT} FROM memories WHERE id = %s", (memory_id,)).fetchall(),
            write=False)
        return record_from_values(rows[0]) if rows else None

    def ids_with_prefix(self, scope: Scope, prefix: str, limit: int) -> list[str]:
        rows = self._run(lambda c: c.execute(
            "SELECT id FROM memories WHERE user_id = %s AND agent_id = %s AND id >= %s "
            "AND id < %s ORDER BY id LIMIT %s",
            (scope.user, scope.agent, prefix, prefix + "\U0010ffff", limit),
        ).fetchall(), scope, write=False)
        return [r[0] for r in rows]

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s AND uri = %s "
            f"AND layer <> 'deleted'", (scope.user, scope.agent, uri))
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
        found = self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s "
            f"AND id = ANY(%s)", (scope.user, scope.agent, list(dict.fromkeys(ids))))
        return {r.id: r for r in found}

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]:
        return self._records(scope,
            f"SELECT {SELECT} FROM memories WHERE user_id = %s AND agent_id = %s "
            f"AND content_hash = %s AND kind = %s AND layer <> 'deleted' ORDER BY id",
            (scope.user, scope.agent, content_hash, kind))

    @staticmethod
    def _filter(scope: Scope, flt: ListFilter) -> tuple[str, list[Any]]:
        clauses = ["user_id = %s", "agent_id = %s"]
        args: list[Any] = [scope.user, scope.agent]
        for column, values in (("kind", flt.kinds), ("priority", flt.priorities),
                               ("layer", tuple(lay.value for lay in flt.layers))):
            if values:
                clauses.append(f"{column} = ANY(%s)")
                args.append(list(values))
        if flt.uri_prefix is not None:
            clauses.append("left(uri, %s) = %s")
            args += [len(flt.uri_prefix), flt.uri_prefix]
        if flt.since is not None:
            clauses.append("at >= %s")
            args.append(flt.since)
        if flt.until is not None:
            clauses.append("at < %s")
            args.append(flt.until)
        if flt.current_only:
            clauses.append("invalid_at IS NULL")
        if flt.contains:
            clauses.append("strpos(lower(content), %s) > 0")
            args.append(flt.contains.lower())
        return " AND ".join(clauses), args

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]:
        where, args = self._filter(scope, flt)
        order = "DESC" if flt.newest_first else "ASC"
        sql = f"SELECT {SELECT} FROM memories WHERE {where} ORDER BY at {order}, id {order}"
        if flt.limit is not None:
            sql += " LIMIT %s"
            args.append(flt.limit)
        if flt.offset:
            sql += " OFFSET %s"
            args.append(flt.offset)
        return iter(self._records(scope, sql, args))

    def count(self, scope: Scope, flt: ListFilter) -> int:
        where, args = self._filter(scope, flt)
        row = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"SELECT count(*) FROM memories WHERE {where}", args).fetchone(), scope, write=False)
        return int(row[0])

    def search_text(self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float],
                    limit: int, layers: Sequence[Layer]) -> list[tuple[str, float]]:
        return with_cold(layers, limit,
                         lambda hot: self._search_text_hot(scope, tokens, fields, limit, hot),
                         lambda: self._search_text_cold(scope, tokens, fields, limit))

    def _search_text_hot(self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float],
                         limit: int, layers: Sequence[Layer]) -> list[tuple[str, float]]:
        terms = query_terms(tokens)
        columns = [f for f in _FIELDS if fields.get(f)]
        if not terms or not columns or limit <= 0 or not layers:
            return []

        if getattr(self._local, "conn", None) is None:   # outside a caller's transaction
            ranked = self._text.ranked(scope.user, scope.agent, terms, fields,
                                       {lay.value for lay in layers}, limit)
            if ranked is not None:
                return ranked
        return self._search_text_sql(scope, terms, fields, columns, limit, layers)

    def _search_text_sql(self, scope: Scope, terms: list[tuple[str, ...]],
                         fields: Mapping[str, float], columns: list[str], limit: int,
                         layers: Sequence[Layer]) -> list[tuple[str, float]]:
        if all(len(t) == 1 for t in terms):
            rows = self._run(lambda c: c.execute(BM25_SQL, {  # type: ignore[call-overload]
                "user": scope.user, "agent": scope.agent, "query": tsquery(terms, columns),
                "terms": [t[0] for t in terms],
                "letters": [WEIGHT_LETTER[f] for f in columns],
                "wa": float(fields.get("body", 0.0)), "wb": float(fields.get("anchors", 0.0)),
                "wc": float(fields.get("context", 0.0)),
                "layers": [lay.value for lay in layers], "limit": limit}).fetchall(),
                scope, write=False)
            return [(r[0], float(r[1])) for r in rows]

        def read(conn: psycopg.Connection[Any]) -> tuple[list[Candidate], Any]:
            rows = conn.execute(
                "SELECT id, layer, body, anchors, context, doc_len FROM memories "
                "WHERE user_id = %s AND agent_id = %s AND tsv @@ %s::tsquery",
                (scope.user, scope.agent, tsquery(terms, columns))).fetchall()
            stats = conn.execute(
                "SELECT docs, tokens FROM scope_stats WHERE user_id = %s AND agent_id = %s",
                (scope.user, scope.agent)).fetchone()
            return [Candidate(*r) for r in rows], stats
        candidates, stats = self._run(read, scope, write=False)
        if not candidates or stats is None:
            return []
        return bm25(candidates, terms, fields, int(stats[0]), int(stats[1]),
                    {lay.value for lay in layers}, limit)

    def search_vector(self, scope: Scope, vector: np.ndarray, limit: int,
                      layers: Sequence[Layer]) -> list[tuple[str, float]]:
        return with_cold(layers, limit,
                         lambda hot: self._search_vector_hot(scope, vector, limit, hot),
                         lambda: self._search_vector_cold(scope, vector, limit))

    def _search_vector_hot(self, scope: Scope, vector: np.ndarray, limit: int,
                           layers: Sequence[Layer]) -> list[tuple[str, float]]:
        if limit <= 0 or not layers:
            return []
        dim = int(np.asarray(vector).size)
        want = 2 * limit + 8   # room for ties, broken by id below
        rows = self._run(lambda c: c.execute(  # type: ignore[call-overload]
            f"SELECT id, 1 - (embedding::vector({dim}) <=> %s::vector({dim})) FROM memories "
            f"WHERE user_id = %s AND agent_id = %s AND layer = ANY(%s) "
            f"AND embedding IS NOT NULL "
            f"ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s",
            (vector_text(vector), scope.user, scope.agent, [lay.value for lay in layers],
             vector_text(vector), want)).fetchall(), scope, write=False)
        best = {r[0]: float(r[1]) for r in rows}
        for mid, score in self._best_passages(scope, vector, layers, want):
            best[mid] = max(score, best.get(mid, score))   # a long memory: its best passage
        ranked = sorted(best.items(), key=lambda x: (-x[1], x[0]))
        return ranked[:limit]

    def search_vector_many(self, scope: Scope, vectors: np.ndarray, limit: int,
                           layers: Sequence[Layer]) -> list[list[tuple[str, float]]]:
        """One ``search_vector`` per row: the same query, so the same ids and scores."""
        return [self.search_vector(scope, row, limit, layers) for row in np.asarray(vectors)]

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]:
        rows = self._run(lambda c: c.execute(
            "SELECT id, embedding::text FROM memories WHERE user_id = %s AND agent_id = %s "
            "AND id = ANY(%s) AND embedding IS NOT NULL",
            (scope.user, scope.agent, list(ids))).fetchall(), scope, write=False)
        found = {r[0]: vector_from_text(r[1]) for r in rows}
        missing = [mid for mid in ids if mid not in found]
        if missing:   # a cold memory's, from its cold entry (postgres/cold.py)
            found.update(self._cold_vectors(scope, missing))
        return found

    def events(self, scope: Scope, memory_id: str) -> list[Event]:
        rows = self._run(lambda c: c.execute(
            "SELECT seq, memory_id, op, version, at, snapshot, actor, reason FROM events "
            "WHERE user_id = %s AND agent_id = %s AND memory_id = %s ORDER BY seq",
            (scope.user, scope.agent, memory_id)).fetchall(), scope, write=False)
        return [Event(seq=r[0], memory_id=r[1], op=r[2], version=r[3], at=r[4],
                      snapshot=record_from_row(json.loads(r[5])) if r[5] else None,
                      actor=r[6], reason=r[7]) for r in rows]

    def event_count(self, scope: Scope) -> int:
        row = self._run(lambda c: c.execute(
            "SELECT count(*) FROM events WHERE user_id = %s AND agent_id = %s",
            (scope.user, scope.agent)).fetchone(), scope, write=False)
        return int(row[0])

    def scopes(self) -> list[Scope]:
        rows = self._run(lambda c: c.execute(
            "SELECT DISTINCT user_id, agent_id FROM memories ORDER BY 1, 2").fetchall(),
            write=False)
        return [Scope(r[0], r[1]) for r in rows]

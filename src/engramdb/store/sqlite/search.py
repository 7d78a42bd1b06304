"""The SQLite store's searches: BM25 over the FTS5 table (or the in-memory postings of
textindex.py, where they promise the same ranking) and exact cosine over the vector cache.
A mix-in of ``SQLiteStore``: it uses the store's connection, lock and caches."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from ...model import Layer, Scope
from ..cold import with_cold
from ..idorder import IdOrder

if TYPE_CHECKING:
    import numpy as np

    from ..textindex import TextIndex
    from ..vectors import VectorCache

T = TypeVar("T")
TEXT_FIELDS = ("body", "anchors", "context")  # the FTS columns after "scope", in order


class Holding:
    """Memory ids, asked about one at a time: those whose live document in the text index
    (``where``: id -> document) is marked in ``held``; the ids of the thousands of holders of
    a common name are never listed. A document added after ``held`` was made is not in it."""

    def __init__(self, where: dict[str, int], held: np.ndarray) -> None:
        self._where, self._held = where, held

    def __contains__(self, memory_id: object) -> bool:
        doc = self._where.get(memory_id)  # type: ignore[call-overload]
        return doc is not None and doc < len(self._held) and bool(self._held[doc])


@lru_cache(maxsize=1024)
def scope_token(scope: Scope) -> str:
    digest = hashlib.sha1(f"{scope.user}\x00{scope.agent}".encode()).hexdigest()[:20]
    return f"s{digest}"



class Search:
    _search_text_cold: Callable[..., list[tuple[str, float]]]    # sqlite/cold.py's
    _search_vector_cold: Callable[..., list[tuple[str, float]]]
    _db: sqlite3.Connection
    _lock: threading.RLock
    _vectors: VectorCache
    _id_order: IdOrder
    _text: TextIndex

    def search_text(
        self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        return with_cold(layers, limit,
                         lambda hot: self._search_text_hot(scope, tokens, fields, limit, hot),
                         lambda: self._search_text_cold(scope, tokens, fields, limit))

    def _search_text_hot(
        self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        terms = [t for t in dict.fromkeys(tokens) if t]
        columns = [f for f in TEXT_FIELDS if fields.get(f)]
        if not terms or not columns:
            return []
        phrase = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f'scope : "{scope_token(scope)}" AND {{{" ".join(columns)}}} : ({phrase})'
        weights = ", ".join(str(float(fields.get(f, 0.0))) for f in ("scope", *TEXT_FIELDS))
        sql = (
            f"SELECT m.id, -bm25(memories_fts, {weights}) AS s FROM memories_fts "
            f"JOIN memories m ON m.rowid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.layer IN ({', '.join('?' * len(layers))}) "
            f"ORDER BY s DESC, m.id LIMIT ?"
        )
        with self._lock:
            if limit > 0 and layers:
                found = self._search_text_in_memory(scope, terms, fields, limit, layers)
                if found is not None:
                    return found
                if self._id_order.ascending(scope):
                    return self._search_text_by_rowid(scope, match, weights, limit, layers)
            rows = self._db.execute(sql, (match, *[lay.value for lay in layers], limit))
            return [(r[0], float(r[1])) for r in rows]

    def term_counts(self, scope: Scope, terms: Sequence[str], cap: int,
                    layers: Sequence[Layer]) -> dict[str, int]:
        """For each term, how many memories in ``layers`` hold it (in any text column), up to
        ``cap``: ``len(search_text(scope, [term], every column, cap, layers))``, from the
        in-memory postings in one pass where they can answer, else one search per term."""
        every = {f: 1.0 for f in TEXT_FIELDS}
        with self._lock:
            if cap > 0 and layers and Layer.COLD not in layers:
                found = self._text.doc_counts(scope.user, scope.agent, scope_token(scope),
                                              list(terms), {lay.value for lay in layers}, cap)
                if found is not None:
                    return found
            if Layer.COLD in layers:
                return {t: len(self.search_text(scope, [t], every, cap, layers)) for t in terms}
            return {t: self._count_text(scope, t, cap, layers) for t in terms}

    def _count_text(self, scope: Scope, term: str, cap: int, layers: Sequence[Layer]) -> int:
        """``len(search_text(scope, [term], every column, cap, layers))`` without ranking:
        the matching rows are counted until ``cap`` (a ranking scores every one of them: a
        common word inside a write's transaction, where the postings cannot answer, cost
        milliseconds at 40k memories)."""
        if not term or cap <= 0 or not layers:
            return 0
        quoted = '"' + term.replace('"', '""') + '"'
        match = f'scope : "{scope_token(scope)}" AND {{{" ".join(TEXT_FIELDS)}}} : ({quoted})'
        sql = (f"SELECT count(*) FROM (SELECT 1 FROM memories_fts JOIN memories m "
               f"ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ? "
               f"AND m.layer IN ({', '.join('?' * len(layers))}) LIMIT ?)")
        return int(self._db.execute(sql, (match, *[lay.value for lay in layers], cap))
                   .fetchone()[0])

    def anchor_holders(self, scope: Scope, tokens: Sequence[str]) -> Holding | None:
        """The scope's memories whose indexed anchors (people, places, topics, keywords:
        ``write/prepare.py`` ``index_text``) hold any of ``tokens``, from the text index's
        postings, to ask about by id (``in``); None where the index cannot say (not built, not
        exact, or inside a transaction). A memory with no text row (an erased one) has no
        anchors either."""
        import numpy as np

        from ..textindex import COLUMNS

        anchors = COLUMNS.index("anchors") - 1   # postings number the columns after "scope"
        with self._lock:
            if not self._text.built(scope.user, scope.agent):
                return None   # not built: a reader that never searched text need not pay
            index = self._text.scope(scope.user, scope.agent, scope_token(scope))
            if index is None:
                return None
            held = np.zeros(len(index.ids), dtype=bool)
            for token in dict.fromkeys(tokens):
                tid = index.vocab.get(token)
                if tid is not None:
                    docs, cols, _ = index.postings(tid)
                    held[docs[(cols == anchors) & index.alive[docs]]] = True
            return Holding(index.where, held)

    def indexed_terms(self, scope: Scope, ids: Sequence[str], terms: Sequence[str],
                      ) -> tuple[list[str], np.ndarray] | None:
        """Which ``terms`` each of ``ids`` holds among the tokens its write stored in each
        text column (body, anchors, context: ``write/prepare.py`` ``index_text``), from the
        postings: the ids the text index holds, and per term and id the bits ``1 << column``
        (``Postings.columns_of``); None where the index cannot say (not built, not exact, or
        inside a transaction)."""
        with self._lock:
            if not self._text.built(scope.user, scope.agent):
                return None
            index = self._text.scope(scope.user, scope.agent, scope_token(scope))
            if index is None:
                return None
            where = index.where
            known = [i for i in ids if i in where]
            return known, index.columns_of([where[i] for i in known], list(terms), index.size)

    def layer_count(self, scope: Scope, layers: Sequence[Layer]) -> int:
        """How many of the scope's memories are in ``layers`` (``count`` with a filter on
        layers alone), kept from one read to the next until a row is added or changed."""
        return self._by_layers(scope, layers, "layers", "SELECT count(*)", "",
                               lambda row: int(row[0]))

    def layer_held(self, scope: Scope, layers: Sequence[Layer]) -> bool:
        """Does the scope hold a memory in ``layers`` (``list`` with that filter and limit 1
        finds one): kept as ``layer_count`` is (waking asks at every recall whether anything
        is archived)."""
        return self._by_layers(scope, layers, "held", "SELECT 1", "LIMIT 1",
                               lambda row: row is not None)

    def _by_layers(self, scope: Scope, layers: Sequence[Layer], name: str, select: str,
                   tail: str, read: Callable[[Any], T]) -> T:
        """``read`` of the one row ``select`` gives over the scope's memories in ``layers``,
        kept (the text index's ``counted``) until a row is added or changed."""
        values = sorted({lay.value for lay in layers})
        sql = (f"{select} FROM memories WHERE user = ? AND agent = ? "
               f"AND layer IN ({', '.join('?' * len(values))}) {tail}")

        def run() -> T:
            return read(self._db.execute(sql, (scope.user, scope.agent, *values)).fetchone())

        with self._lock:
            return self._text.counted((name, scope.user, scope.agent, *values), run)

    def _search_text_in_memory(
        self, scope: Scope, terms: list[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]] | None:
        """The same ranking as the SQL query below, from the in-memory postings
        (textindex.py); None where they cannot promise that: then run the query."""
        return self._text.ranked(scope.user, scope.agent, scope_token(scope), terms,
                                 dict(fields), {lay.value for lay in layers}, limit)

    def _search_text_by_rowid(
        self, scope: Scope, match: str, weights: str, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """The same ranking as the join above, for a scope whose ids ascend with rowid: the
        best rows by (score, rowid) come from the index alone, then only those are looked up
        (the join looked up every matching row, thousands at 100k memories)."""
        allowed = {lay.value for lay in layers}
        sql = (
            f"SELECT rowid, -bm25(memories_fts, {weights}) AS s FROM memories_fts "
            f"WHERE memories_fts MATCH ? ORDER BY s DESC, rowid LIMIT ?"
        )
        want = limit
        while True:
            found = self._db.execute(sql, (match, want)).fetchall()
            layer_of = self._layers(scope, [rowid for rowid, _ in found])
            kept = [(layer_of[r][0], float(s)) for r, s in found
                    if r in layer_of and layer_of[r][1] in allowed]
            if len(kept) >= limit or len(found) < want:
                return kept[:limit]
            want *= 4

    def search_vector(
        self, scope: Scope, vector: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        return with_cold(layers, limit,
                         lambda hot: self._search_vector_hot(scope, vector, limit, hot),
                         lambda: self._search_vector_cold(scope, vector, limit))

    def _search_vector_hot(
        self, scope: Scope, vector: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        from ..vectors import MARGIN

        allowed = {lay.value for lay in layers}
        with self._lock:
            scan = self._vectors.scan(scope, vector)
            if scan is None or limit <= 0:
                return []
            # a quarter more than asked: room for the layers left out and the margin below
            want, total = limit + max(limit // 4, 8), len(scan.rowids)
            while True:   # deeper on the same scores while the layers leave too few rows
                found = scan.candidates(want)
                good, layer_of = self._kept(scope, scan.rowids, found.tolist(),
                                            (-scan.scores[found]).tolist(), allowed)
                if len(found) >= total:
                    break
                floor = float(scan.scores[found].min())   # every row left out scores below
                if len(good) >= limit and scan.scores[good[limit - 1]] - MARGIN >= floor:
                    break
                # deeper by the share the layers kept (an archive-heavy scope), at least twice
                want = max(2 * want, want * (limit + limit // 4) // max(len(good), 1) + 1)
            if len(good) > limit:   # the rows that can be among the best once scored exactly
                edge = scan.scores[good[limit - 1]] - MARGIN
                good = [i for i in good if scan.scores[i] >= edge]
            # best first, ties by id as text: sorted by id, then a stable sort by score
            kept = sorted(sorted((layer_of[r][0], s) for r, s in scan.exact(good)),
                          key=itemgetter(1), reverse=True)
            return kept[:limit]

    def _kept(self, scope: Scope, rowids: list[int], found: list[int], negated: list[float],
              allowed: set[str]) -> tuple[list[int], dict[int, tuple[str, str]]]:
        """The positions ``found`` whose rows are in ``allowed`` layers, best score first
        (``negated``: each one's score, negated; equal scores keep their order), and the
        (id, layer) of the rows looked at."""
        layer_of = self._layers(scope, [rowids[i] for i in found])
        kept = [(i, neg) for i, neg in zip(found, negated, strict=True)
                if (row := layer_of.get(rowids[i])) is not None and row[1] in allowed]
        kept.sort(key=itemgetter(1))
        return [i for i, _ in kept], layer_of

    def search_vector_many(
        self, scope: Scope, vectors: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[list[tuple[str, float]]]:
        if Layer.COLD in layers:   # the cold tier is scanned per query (store/cold.py)
            return [self.search_vector(scope, row, limit, layers) for row in vectors]
        allowed = {lay.value for lay in layers}
        out = []
        for i, found in enumerate(self._vectors.top_many(scope, vectors, limit)):
            layer_of = self._layers(scope, [rowid for rowid, _ in found])
            kept = sorted(((layer_of[r][0], s) for r, s in found
                           if r in layer_of and layer_of[r][1] in allowed),
                          key=lambda item: (-item[1], item[0]))
            if len(kept) < limit and len(found) >= limit:  # layers filtered some: search deeper
                kept = self.search_vector(scope, vectors[i], limit, layers)
            out.append(kept[:limit])
        return out

    def _layers(self, scope: Scope, rowids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """rowid -> (id, layer) of the scope's rows among ``rowids``."""
        out: dict[int, tuple[str, str]] = {}
        with self._lock:
            known = self._text.rows(scope.user, scope.agent, scope_token(scope), list(rowids))
            if known is not None:  # the text index follows ids and layers too, where built
                return known
            for start in range(0, len(rowids), 500):
                chunk = list(rowids[start : start + 500])
                rows = self._db.execute(
                    f"SELECT rowid, id, layer FROM memories WHERE +user = ? AND +agent = ? "
                    f"AND rowid IN ({', '.join('?' * len(chunk))})",
                    (scope.user, scope.agent, *chunk),
                )
                out.update((r[0], (r[1], r[2])) for r in rows)
        return out

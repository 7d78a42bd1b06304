"""Exact cosine search over a per-scope float32 matrix, cached in memory.

The matrix is loaded once per scope and refreshed incrementally: every vector write bumps
the scope's row in ``scope_state`` (inside the writer's transaction), so a reader in any
process sees a change with one primary-key lookup and loads only the rows it lacks."""

from __future__ import annotations

import sqlite3
import threading
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model import Scope
from .changes import Changes, Looked
from .passages import PassageCache

_CHUNK = 8192  # vectors read per batch while loading
TOP_MANY_BLOCK = 64  # queries scored per matrix product in top_many (memory: 64 x the scope)


@dataclass
class _Matrix:
    """The vectors as columns (dimensions x capacity): ``query @ view`` then streams each
    dimension's row once, about 1.7x faster than rows @ query at 100k x 384 (the product is
    bound by memory bandwidth; the scores are the same cosines, summed in another order)."""

    seq: int = 0
    # one entry per vector of the scope, in forms the garbage collector does not walk entry by
    # entry (an array of machine integers; a dict of ints it does not track at all)
    rowids: array[int] = field(default_factory=lambda: array("q"))
    position: dict[int, int] = field(default_factory=dict)
    data: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    used: int = 0

    def view(self) -> np.ndarray:
        return self.data[:, : self.used]


class VectorCache:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock,
                 changes: Changes | None = None) -> None:
        self._db = db
        self._lock = lock
        self._changes = changes or Changes(db)
        self._scopes: dict[Scope, _Matrix] = {}
        self._looked = Looked(self._changes)   # when each scope's copy was last found fresh
        # long memories' passages (store/passages.py)
        self.parts = PassageCache(db, lock, self._changes)

    def invalidate(self) -> None:
        self._scopes.clear()
        self._looked.forget()
        self.parts.invalidate()

    def put(self, scope: Scope, rowid: int, vector: np.ndarray) -> None:
        blob = np.asarray(vector, dtype=np.float32).tobytes()
        db = self._db
        parts = self.parts.memo.take(vector)   # computed with it (engine _embed), if long
        old = db.execute("SELECT vec FROM vectors WHERE mem_rowid = ?", (rowid,)).fetchone()
        if old is None or old[0] != blob:   # the same vector again keeps its passages
            self._replace(scope, rowid, blob)
        if parts is not None:
            self.parts.put(scope, rowid, parts)

    def _replace(self, scope: Scope, rowid: int, blob: bytes) -> None:
        db = self._db
        existed = db.execute("DELETE FROM vectors WHERE mem_rowid = ?", (rowid,)).rowcount
        cur = db.execute(
            "INSERT INTO vectors(mem_rowid, user, agent, vec) VALUES (?, ?, ?, ?)",
            (rowid, scope.user, scope.agent, blob),
        )
        db.execute(
            "INSERT INTO scope_state(user, agent, vec_seq, vec_count) VALUES (?, ?, ?, 1) "
            "ON CONFLICT(user, agent) DO UPDATE SET vec_seq = excluded.vec_seq, "
            "vec_count = vec_count + ?",
            (scope.user, scope.agent, cur.lastrowid, 0 if existed else 1),
        )

    def remove(self, scope: Scope, rowid: int) -> None:
        """Drop one row's vector: readers see the scope's count fall and reload it."""
        if self._db.execute("DELETE FROM vectors WHERE mem_rowid = ?", (rowid,)).rowcount:
            self._db.execute(
                "UPDATE scope_state SET vec_count = vec_count - 1 WHERE user = ? AND agent = ?",
                (scope.user, scope.agent))

    def drop_scope(self, scope: Scope) -> None:
        """Drop every vector of the scope and its state row (readers then start afresh)."""
        self._db.execute("DELETE FROM vectors WHERE user = ? AND agent = ?",
                         (scope.user, scope.agent))
        self._db.execute("DELETE FROM scope_state WHERE user = ? AND agent = ?",
                         (scope.user, scope.agent))
        self._db.execute("DELETE FROM passage_state WHERE user = ? AND agent = ?",
                         (scope.user, scope.agent))   # its passages went with the vectors
        self._scopes.pop(scope, None)
        self.parts.drop(scope)

    def top(self, scope: Scope, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        found = self.scan(scope, query)
        return found.best(limit) if found is not None else []

    def scan(self, scope: Scope, query: np.ndarray) -> Scan | None:
        """Every row's score for one query (one pass over the matrix), to take the best of at
        several depths: a caller that filters the rows (layers) goes deeper without scanning
        again. None when the scope has no vectors."""
        with self._lock:
            matrix = self._fresh(scope)
            if not matrix.used:
                return None
            query = np.asarray(query, dtype=np.float32)
            scores, extra = self._with_parts(scope, matrix, query, _product(matrix, query))
            return Scan(scores, matrix.view(), query, matrix.rowids[: matrix.used], extra)

    def top_many(self, scope: Scope, queries: np.ndarray,
                 limit: int) -> list[list[tuple[int, float]]]:
        """``top`` for each row of ``queries``, with one matrix product for them all."""
        with self._lock:
            matrix = self._fresh(scope)
            if not matrix.used or not len(queries):
                return [[] for _ in range(len(queries))]
            columns = matrix.view()
            queries = np.asarray(queries, dtype=np.float32)
            out = []
            # a block of queries at a time: one product for 1,000 drafts over 80k memories
            # was a 320 MB matrix; the scores returned are computed again pair by pair (_best)
            for start in range(0, len(queries), TOP_MANY_BLOCK):
                block = queries[start : start + TOP_MANY_BLOCK]
                for row, query in zip(block @ columns, block, strict=True):
                    scores, extra = self._with_parts(scope, matrix, query, row)
                    out.append(_best(scores, columns, query, matrix.rowids, limit, extra))
            return out

    def _with_parts(self, scope: Scope, matrix: _Matrix, query: np.ndarray,
                    scores: np.ndarray) -> tuple[np.ndarray, dict[int, float]]:
        """The scores with each long memory's best passage where it beats its own vector,
        and those passage scores by rowid."""
        extra = self.parts.best(scope, query)
        if not extra:
            return scores, extra
        known = [(matrix.position[r], v) for r, v in extra.items() if r in matrix.position]
        if known:
            scores = scores.copy()
            at = np.asarray([p for p, _ in known])
            scores[at] = np.maximum(scores[at], np.asarray([v for _, v in known],
                                                           dtype=scores.dtype))
        return scores, extra

    def _fresh(self, scope: Scope) -> _Matrix:
        """The scope's matrix as the table has it now: not looked at again while nothing
        changed since (store/changes.py)."""
        return self._looked.fresh(scope, self._scopes.get(scope), lambda: self._load_fresh(scope))

    def _load_fresh(self, scope: Scope) -> _Matrix:
        state = self._db.execute(
            "SELECT vec_seq, vec_count FROM scope_state WHERE user = ? AND agent = ?",
            (scope.user, scope.agent),
        ).fetchone()
        seq, count = (state[0], state[1]) if state else (0, 0)
        matrix = self._scopes.get(scope)
        if matrix is None or seq < matrix.seq:
            matrix = self._scopes[scope] = _Matrix()
        if seq != matrix.seq:
            self._load(scope, matrix, matrix.seq)
            matrix.seq = seq
        if matrix.used != count:  # rows were removed elsewhere: reload from scratch
            matrix = self._scopes[scope] = _Matrix()
            self._load(scope, matrix, 0)
            matrix.seq = seq
        return matrix

    def _load(self, scope: Scope, matrix: _Matrix, after: int) -> None:
        cur = self._db.execute(
            "SELECT mem_rowid, vec FROM vectors WHERE user = ? AND agent = ? AND seq > ? "
            "ORDER BY seq",
            (scope.user, scope.agent, after),
        )
        while rows := cur.fetchmany(_CHUNK):
            self._place(matrix, rows)

    @staticmethod
    def _place(matrix: _Matrix, rows: list[tuple[int, bytes]]) -> None:
        """Write vectors in their order (a later one for the same rowid wins)."""
        dim = len(rows[0][1]) // 4
        if matrix.data.shape[0] != dim:
            matrix.data = np.zeros((dim, 0), dtype=np.float32)
        block = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
        block = block.reshape(len(rows), dim)
        used = matrix.used
        positions = []
        for rowid, _ in rows:
            pos = matrix.position.get(rowid)
            if pos is None:
                pos = matrix.position[rowid] = matrix.used
                matrix.rowids.append(rowid)
                matrix.used += 1
            positions.append(pos)
        if matrix.used > matrix.data.shape[1]:
            grown = np.zeros((dim, max(matrix.used, 2 * matrix.data.shape[1], 64)),
                             dtype=np.float32)
            grown[:, :used] = matrix.data[:, :used]
            matrix.data = grown
        if len(set(positions)) == len(positions):
            matrix.data[:, positions] = block.T
        else:
            for pos, vector in zip(positions, block, strict=True):
                matrix.data[:, pos] = vector


MARGIN = 1e-4  # the matrix product's scores differ from the per-pair ones far less than this
SPARSE = 4     # a query with under 1/SPARSE of its dimensions non-zero is scored on those alone


def _product(matrix: _Matrix, query: np.ndarray) -> np.ndarray:
    """Every row's score for ``query`` from the columns, for choosing rows (their exact scores
    come one pair at a time, ``_exact``). A query vector that is mostly zeros (the hashing
    embedder's: one dimension per word, ~10-50 of 384) is scored on its non-zero dimensions
    alone: a product with every row, as rounded as the whole one (a zero adds nothing), that
    reads a tenth of the matrix."""
    used = matrix.used
    nonzero = np.flatnonzero(query)
    if len(nonzero) * SPARSE < len(query):
        product: np.ndarray = query[nonzero] @ matrix.data[nonzero, :used]
    else:
        product = query @ matrix.data[:, :used]
    return product


@dataclass
class Scan:
    """One query's scores over a scope's matrix (``VectorCache.scan``)."""

    scores: np.ndarray
    columns: np.ndarray
    query: np.ndarray
    rowids: Sequence[int]
    extra: dict[int, float] = field(default_factory=dict)   # rowid -> best passage's cosine

    def best(self, limit: int) -> list[tuple[int, float]]:
        return _best(self.scores, self.columns, self.query, self.rowids, limit, self.extra)

    def candidates(self, want: int) -> np.ndarray:
        """Positions of the best ``want`` rows by the product's scores, with every row tied
        with the last."""
        if want >= len(self.scores):
            return np.arange(len(self.scores))
        return top_positions(self.scores, want)

    def exact(self, positions: list[int] | np.ndarray) -> list[tuple[int, float]]:
        """(rowid, cosine computed one pair at a time) for these positions."""
        return _exact(self.columns, self.query, self.rowids, positions, self.extra)


def _best(scores: np.ndarray, columns: np.ndarray, query: np.ndarray, rowids: Sequence[int],
          limit: int, extra: dict[int, float] | None = None) -> list[tuple[int, float]]:
    """The best ``limit`` rows, plus every row tied with the last of them (callers break ties),
    best first and by rowid among equals. The scores returned are computed again one pair at a
    time: the same number whether the search ran for one query or a batch of them."""
    n = min(limit, len(scores))
    if n < len(scores):
        idx = top_positions(scores, n)
    else:
        idx = np.arange(len(scores))
    return sorted(_exact(columns, query, rowids, idx, extra),
                  key=lambda item: (-item[1], item[0]))


TOP_BLOCK = 256  # scores per block in top_cut, at most
MIN_BLOCK = 8


def _block(size: int, n: int) -> int:
    """Scores per block: TOP_BLOCK, halved while that leaves fewer than 4n blocks (down to
    MIN_BLOCK): the more blocks, the higher the floor, the fewer scores above it (the best
    125 of 10k: 625 blocks of 16, not 39 of 256, which fell back to selecting among all)."""
    block = TOP_BLOCK
    while block > MIN_BLOCK and size // block < 4 * n:
        block //= 2
    return block


def top_cut(scores: np.ndarray, n: int) -> float:
    """The ``n``-th highest score (1 <= n < len(scores)): the same number as the lowest of
    ``np.argpartition``'s ``n`` best, at a fraction of its cost on a large scope (a selection
    over 80k scores cost as much as the matrix product that made them). Each block of scores
    (``_block``) gives its highest; the ``n``-th highest of those is a score at most the
    ``n``-th highest overall (``n`` blocks hold a score that high), so the ``n`` best are among
    the few scores at or above it, and the selection runs on those alone."""
    block = _block(len(scores), n)
    whole = len(scores) // block * block
    if whole // block < n:
        return float(scores[np.argpartition(-scores, n - 1)[:n]].min())
    highs = scores[:whole].reshape(-1, block).max(axis=1)
    floor = np.partition(highs, len(highs) - n)[len(highs) - n]
    rest = scores[scores >= floor]
    return float(rest[np.argpartition(-rest, n - 1)[:n]].min())


def top_positions(scores: np.ndarray, n: int) -> np.ndarray:
    """The positions of the ``n`` highest scores and of every score tied with the ``n``-th,
    ascending (1 <= n < len(scores)): ``np.flatnonzero(scores >= top_cut(scores, n))``, with
    one pass over the scores fewer (the rows at or above the cut are among those at or above
    ``top_cut``'s floor, which it has found already)."""
    block = _block(len(scores), n)
    whole = len(scores) // block * block
    if whole // block < n:
        return np.flatnonzero(scores >= top_cut(scores, n))
    highs = scores[:whole].reshape(-1, block).max(axis=1)
    near = np.flatnonzero(scores >= np.partition(highs, len(highs) - n)[len(highs) - n])
    rest = scores[near]
    return near[rest >= rest[np.argpartition(-rest, n - 1)[:n]].min()]


def _exact(columns: np.ndarray, query: np.ndarray, rowids: Sequence[int],
           positions: list[int] | np.ndarray,
           extra: dict[int, float] | None = None) -> list[tuple[int, float]]:
    """Each cosine on its own (``cosines``): the same bits however many rows are scored at
    once; a long memory's best passage where it is higher."""
    scores = cosines(columns[:, positions].T, query).tolist()
    out = [(rowids[i], score) for i, score in zip(positions, scores, strict=True)]
    if extra:
        out = [(rowid, max(score, extra.get(rowid, score))) for rowid, score in out]
    return out


def cosines(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's dot product with ``query`` (unit vectors: their cosine), every exact score's
    formula: the rows copied in row order, multiplied by the query, and each row summed along
    itself, so a row's score has the same bits however many rows are scored with it (a matrix
    product's need not: BLAS blocks rows and columns by their count). One call for a recall's
    ~100 rows at 10k costs half of a dot product a row (0.16 against 0.35 ms)."""
    block = np.ascontiguousarray(rows, dtype=np.float32).reshape(-1, len(query))
    return (block * np.asarray(query, dtype=np.float32)).sum(axis=1)

"""An inverted index in numpy arrays, the part the SQLite and PostgreSQL text indexes share
(store/textindex.py, store/postgres/textindex.py): each term's postings (document, column, count)
sorted by term in flat arrays, and the postings added since in a ``pending`` map, merged in
by ``compact``. The scopes built on it add their documents' lengths, layers and the checks
that tie them to their store's own full-text search."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Postings:
    vocab: dict[str, int] = field(default_factory=dict)
    # postings of term t: docs/cols/counts[starts[t]:starts[t+1]], then pending[t]
    starts: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    docs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    cols: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    # term -> its pending postings as (document, column, count, ...): machine integers, not a
    # tuple per posting (a scope of 40k memories compacts ~150k at a time)
    pending: dict[int, array[int]] = field(default_factory=dict)
    pending_size: int = 0

    def pend(self, tid: int, doc: int, col: int, count: int) -> None:
        """Add one posting of term ``tid`` to the pending ones."""
        kept = self.pending.get(tid)
        if kept is None:
            kept = self.pending[tid] = array("q")
        kept.append(doc)
        kept.append(col)
        kept.append(count)
        self.pending_size += 1

    def sort_in(self, terms: list[int], cells: list[int], documents: int) -> None:
        """Build the sorted arrays at once from one entry per token: its term id and its cell
        (document * 3 + column)."""
        width = 3 * max(1, documents)
        keys, counts = np.unique(np.array(terms, dtype=np.int64) * width
                                 + np.array(cells, dtype=np.int64), return_counts=True)
        cell = keys % width
        self.docs = (cell // 3).astype(np.int32)
        self.cols = (cell % 3).astype(np.int8)
        self.counts = counts.astype(np.int32)
        per_term = np.bincount(keys // width, minlength=len(self.vocab))
        self.starts = np.concatenate([[0], np.cumsum(per_term)]).astype(np.int64)

    def compact(self) -> None:
        """Move pending postings into the sorted arrays."""
        if not self.pending:
            return
        base_terms = np.repeat(np.arange(len(self.starts) - 1), np.diff(self.starts))
        n = len(self.pending)
        tids = np.fromiter(self.pending.keys(), dtype=np.int64, count=n)
        sizes = np.fromiter((len(kept) // 3 for kept in self.pending.values()), dtype=np.int64,
                            count=n)
        extra = np.frombuffer(b"".join(self.pending.values()), dtype=np.int64).reshape(-1, 3)
        terms = np.concatenate([base_terms, np.repeat(tids, sizes)])
        order = np.argsort(terms, kind="stable")
        self.docs = np.concatenate([self.docs, extra[:, 0].astype(np.int32)])[order]
        self.cols = np.concatenate([self.cols, extra[:, 1].astype(np.int8)])[order]
        self.counts = np.concatenate([self.counts, extra[:, 2].astype(np.int32)])[order]
        per_term = np.bincount(terms, minlength=len(self.vocab))
        self.starts = np.concatenate([[0], np.cumsum(per_term)]).astype(np.int64)
        self.pending.clear()
        self.pending_size = 0

    def postings(self, tid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        docs, cols, counts = self.docs[:0], self.cols[:0], self.counts[:0]
        if tid < len(self.starts) - 1:
            lo, hi = self.starts[tid], self.starts[tid + 1]
            docs, cols, counts = self.docs[lo:hi], self.cols[lo:hi], self.counts[lo:hi]
        extra = self.pending.get(tid)
        if extra:
            more = np.array(extra, dtype=np.int64).reshape(-1, 3)
            docs = np.concatenate([docs, more[:, 0].astype(np.int32)])
            cols = np.concatenate([cols, more[:, 1].astype(np.int8)])
            counts = np.concatenate([counts, more[:, 2].astype(np.int32)])
        return docs, cols, counts

    def columns_of(self, docs: list[int], terms: list[str], size: int) -> np.ndarray:
        """Which columns of each of ``docs`` hold each of ``terms`` (``size``: the documents'
        count), as the tokens stored at its write: row per term, column per document, bit
        ``1 << column`` set where that column holds the term."""
        at = np.full(size + 1, -1, dtype=np.int64)
        at[docs] = np.arange(len(docs))
        out = np.zeros((len(terms), len(docs)), dtype=np.int64)
        for i, term in enumerate(terms):
            tid = self.vocab.get(term)
            if tid is None:
                continue
            found, cols, _ = self.postings(tid)
            where = at[found]
            keep = where >= 0
            np.add.at(out[i], where[keep], np.left_shift(1, cols[keep].astype(np.int64)))
        return out

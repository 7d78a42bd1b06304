"""BM25 for the PostgreSQL store from a per-scope inverted index held in this process.

``BM25_SQL`` (text.py) scores every row the GIN index admits, reading each one's tsvector:
a common word in a scope of 100,000 is thousands of rows and 150-500 ms. This index answers the
same question from postings in numpy arrays (as SQLite's store/textindex.py does): the same
formula, the scope's own statistics (document count, total length, each term's document
frequency, over every row with text, any layer), the same order (score, then id). The sums
may be added in another order than the server's, so scores agree to the last bits or so, not
bit for bit (the tests compare them at 1e-12).

It follows the table through the events log. Every write that changes a memory's text,
length or layer logs an event in the same transaction, after taking the scope's advisory lock
(store.py): so within one scope events commit in ``seq`` order, and a reader that has seen
every event up to ``seq`` of a scope has seen every change before it, from any process. Each
search reads the scope's events after the last one seen (one index range scan, usually
empty), re-reads the memories they name, and drops those that lost their text. An event about
the whole scope (it was dropped) or changes to more than a quarter of it rebuild it.

It answers None, and the caller runs the SQL query, where it cannot promise the SQL's answer:
- inside a caller's transaction (its uncommitted writes are visible to SQL only);
- a scope with fewer than ``min_docs`` documents (0 by default: even at 100 documents the
  index is faster, 8 against 14 ms a recall at 1M memories, and the first search builds it in
  about the time one SQL query takes);
- a query term of several tokens (a phrase: pg_text.bm25 handles those);
- a column weight that is not a multiple of 1/4 (the server adds a weight once per occurrence;
  such sums are exact in any order only for those);
- a scope holding a document whose stored tokens may not be the tsvector's: a different number
  of distinct tokens than the tsvector's lexemes, more than 16,383 tokens (positions are
  capped there) or a token repeated more than 255 times (positions kept per lexeme), until
  that document changes.

Memory: about 0.4 KB per document and 30 KB per scope (measured with tracemalloc: 38 MB for a
scope of 100,000, 69 KB for one of 100). Scopes are kept least recently used first, within
``max_docs`` documents in all, each scope counting 64 more for its fixed cost (a scope larger
than the whole budget is not held at all: the SQL ranks it)."""

from __future__ import annotations

import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bm25 import idf as bm25_idf
from ..postings import Postings
from ..protocol import SCOPE_EVENT
from .text import FIELDS

MAX_POSITION = 16383    # tsvector positions stop here
MAX_REPEAT = 255        # positions kept per lexeme (256; one spare)
_REBUILD_SHARE = 0.25
SCOPE_WEIGHT = 64   # a held scope's fixed cost, in documents (measured: 69 KB for 100, 38 MB
                    # for 100,000)
_ROW = ("SELECT id, layer, doc_len, body, anchors, context, length(tsv) FROM memories "
        "WHERE user_id = %s AND agent_id = %s AND doc_len IS NOT NULL")
# the scope's events after the last one seen, in order; ORDER BY + LIMIT make the planner walk
# the primary key (user_id, agent_id, seq) instead of scanning the scope's whole entry in
# events_memory (it cannot know that few events follow ``seq``: 0.05 against 3.5 ms at 100k)
EVENTS_READ = 10_000
EVENTS_SQL = ("SELECT seq, memory_id, op FROM events WHERE user_id = %s AND agent_id = %s "
              f"AND seq > %s ORDER BY seq LIMIT {EVENTS_READ + 1}")
Row = tuple[str, str, int, str | None, str | None, str | None, int]
Read = Callable[[Callable[[Any], Any]], Any]   # runs fn(connection) on a pooled connection


@dataclass
class _Scope(Postings):
    seen_seq: int = 0
    odd: set[str] = field(default_factory=set)   # live documents the tsvector may read apart
    ids: list[str] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)   # memory id -> live document
    length: np.ndarray = field(default_factory=lambda: np.zeros(0))
    alive: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    layer_code: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    codes: dict[str, int] = field(default_factory=dict)
    live: int = 0          # documents alive
    tokens: int = 0        # their total length
    dead: int = 0

    @property
    def size(self) -> int:
        return len(self.ids)

    def code(self, layer: str) -> int:
        return self.codes.setdefault(layer, len(self.codes))

    @property
    def valid(self) -> bool:
        return not self.odd

    def _check(self, memory_id: str, fields: list[list[str]], doc_len: int,
               lexemes: int) -> None:
        every = [t for f in fields for t in f]
        counts = Counter(every)
        if doc_len != 1 + len(every) or doc_len > MAX_POSITION or len(counts) != lexemes or (
                counts and max(counts.values()) > MAX_REPEAT):
            self.odd.add(memory_id)

    def load(self, rows: Iterable[Row]) -> None:
        """Index a fresh scope's documents in bulk, straight into the sorted arrays."""
        setdefault = self.vocab.setdefault
        vocab = self.vocab
        terms: list[int] = []
        cells: list[int] = []   # document * 3 + column, per token
        lengths: list[float] = []
        layers: list[int] = []
        for memory_id, layer, doc_len, body, anchors, context, lexemes in rows:
            doc = len(self.ids)
            self.ids.append(memory_id)
            self.position[memory_id] = doc
            lengths.append(float(doc_len))
            layers.append(self.code(layer))
            fields = [body.split() if body else [], anchors.split() if anchors else [],
                      context.split() if context else []]
            self._check(memory_id, fields, doc_len, lexemes)
            for col, tokens in enumerate(fields):
                terms.extend([setdefault(t, len(vocab)) for t in tokens])
                cells.extend([doc * 3 + col] * len(tokens))
        self.length = np.array(lengths, dtype=np.float64)
        self.alive = np.ones(len(lengths), dtype=bool)
        self.layer_code = np.array(layers, dtype=np.int16)
        self.live, self.tokens = len(lengths), int(sum(lengths))
        self.sort_in(terms, cells, self.size)

    def add(self, row: Row) -> None:
        """Index one document; a changed one replaces its earlier version."""
        memory_id, layer, doc_len, body, anchors, context, lexemes = row
        self.drop(memory_id)
        doc = len(self.ids)
        self.ids.append(memory_id)
        self.position[memory_id] = doc
        if doc >= len(self.length):
            grow = max(64, len(self.length))
            self.length = np.concatenate([self.length, np.zeros(grow)])
            self.alive = np.concatenate([self.alive, np.zeros(grow, dtype=bool)])
            self.layer_code = np.concatenate([self.layer_code, np.zeros(grow, dtype=np.int16)])
        self.length[doc] = float(doc_len)
        self.alive[doc] = True
        self.layer_code[doc] = self.code(layer)
        self.live += 1
        self.tokens += int(doc_len)
        fields = [body.split() if body else [], anchors.split() if anchors else [],
                  context.split() if context else []]
        self._check(memory_id, fields, doc_len, lexemes)
        for col, tokens in enumerate(fields):
            for term, count in Counter(tokens).items():
                tid = self.vocab.setdefault(term, len(self.vocab))
                self.pend(tid, doc, col, count)

    def drop(self, memory_id: str) -> None:
        doc = self.position.pop(memory_id, None)
        self.odd.discard(memory_id)
        if doc is not None:
            self.alive[doc] = False
            self.live -= 1
            self.tokens -= int(self.length[doc])
            self.dead += 1

    def ranked(self, terms: Sequence[str], weights: Mapping[str, float], layers: set[str],
               limit: int) -> list[tuple[str, float]]:
        if self.live <= 0:
            return []
        weight_of = np.array([float(weights.get(f) or 0.0) for f in FIELDS])
        in_set = weight_of != 0.0
        allowed = np.array([self.codes[lay] for lay in layers if lay in self.codes],
                           dtype=np.int16)
        n = float(self.live)
        avgdl = float(self.tokens) / n
        parts: list[tuple[float, np.ndarray, np.ndarray]] = []
        for term in terms:
            tid = self.vocab.get(term)
            if tid is None:
                continue
            docs, cols, counts = self.postings(tid)
            keep = in_set[cols] & self.alive[docs]
            docs, freq = docs[keep], counts[keep] * weight_of[cols[keep]]
            if not len(docs):
                continue
            docs, inverse = np.unique(docs, return_inverse=True)   # a doc once per term
            freq = np.bincount(inverse, weights=freq, minlength=len(docs))
            hits = float(len(docs))
            idf = bm25_idf(n, hits)
            shown = np.isin(self.layer_code[docs], allowed)
            if shown.any():
                parts.append((idf, docs[shown], freq[shown]))
        if not parts:
            return []
        matched, where = np.unique(np.concatenate([d for _, d, _ in parts]),
                                   return_inverse=True)
        norm = 1.2 * (0.25 + (0.75 * self.length[matched]) / avgdl)
        score = np.zeros(len(matched))
        start = 0
        for idf, docs, freq in parts:
            at = where[start : start + len(docs)]
            start += len(docs)
            score[at] += idf * ((freq * 2.2) / (freq + norm[at]))
        if len(matched) > limit:
            cut = np.partition(score, len(score) - limit)[len(score) - limit]
            chosen = np.flatnonzero(score >= cut)
        else:
            chosen = np.arange(len(matched))
        best = sorted(zip((-score[chosen]).tolist(), [self.ids[d] for d in matched[chosen]],
                          strict=True))[:limit]
        return [(memory_id, -neg) for neg, memory_id in best]


class PgTextIndex:
    """Per-scope postings for BM25 over a PostgreSQL store; thread-safe (one lock)."""

    def __init__(self, read: Read, *, max_docs: int = 1_000_000, min_docs: int = 0) -> None:
        self._read = read
        self.max_docs = max_docs
        self.min_docs = min_docs
        self._scopes: OrderedDict[tuple[str, str], _Scope] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._scopes.clear()

    def held(self) -> dict[tuple[str, str], int]:
        """Scopes held, with their documents (for tests and stats)."""
        with self._lock:
            return {key: s.live for key, s in self._scopes.items()}

    def ranked(self, user: str, agent: str, terms: Sequence[tuple[str, ...]],
               weights: Mapping[str, float], layers: set[str],
               limit: int) -> list[tuple[str, float]] | None:
        """The best ``limit`` memories of the scope in ``layers`` as (id, score), best first,
        ties by id, as ``BM25_SQL`` ranks them; None where this index cannot promise that."""
        if any(len(t) != 1 for t in terms) or not all(
                _quarter(w) for w in weights.values() if w):
            return None
        with self._lock:
            scope = self._current(user, agent)
            if scope is None:
                return None
            return scope.ranked([t[0] for t in terms], weights, layers, limit)

    # ------------------------------------------------------------ following the table

    def _current(self, user: str, agent: str) -> _Scope | None:
        key = (user, agent)
        scope = self._scopes.get(key)
        if scope is None:
            scope = self._build(user, agent)
        else:
            scope = self._follow(user, agent, scope)
        if scope is None:
            self._scopes.pop(key, None)
            return None
        self._scopes[key] = scope
        self._scopes.move_to_end(key)
        self._evict()
        if scope.pending_size > max(20000, int(scope.starts[-1]) // 8):
            scope.compact()
        return scope if scope.valid else None

    def _build(self, user: str, agent: str) -> _Scope | None:
        def read(conn: Any) -> _Scope | None:
            row = conn.execute(
                "SELECT (SELECT docs FROM scope_stats WHERE user_id = %s AND agent_id = %s), "
                "(SELECT max(seq) FROM events WHERE user_id = %s AND agent_id = %s)",
                (user, agent, user, agent)).fetchone()
            docs, seq = int(row[0] or 0), int(row[1] or 0)
            if docs < self.min_docs or docs > self.max_docs:
                return None
            scope = _Scope(seen_seq=seq)   # read first: a later change is read again later
            scope.load(conn.execute(_ROW, (user, agent)))
            return scope
        built: _Scope | None = self._read(read)
        return built

    def _follow(self, user: str, agent: str, scope: _Scope) -> _Scope | None:
        """The scope brought up to date with the events after the last one it saw."""
        def read(conn: Any) -> tuple[int, list[str], bool, list[Row]]:
            events = conn.execute(EVENTS_SQL, (user, agent, scope.seen_seq)).fetchall()
            if not events:
                return scope.seen_seq, [], False, []
            top = max(int(e[0]) for e in events)
            changed = list(dict.fromkeys(e[1] for e in events if e[2] != "use"))
            if SCOPE_EVENT in changed or len(events) > EVENTS_READ or (
                    len(changed) > _REBUILD_SHARE * max(scope.size, 4000)):
                return top, changed, True, []
            rows = conn.execute(_ROW + " AND id = ANY(%s)",
                                (user, agent, changed)).fetchall() if changed else []
            return top, changed, False, rows
        top, changed, rebuild, rows = self._read(read)
        if rebuild:
            return self._build(user, agent)
        for memory_id in changed:
            scope.drop(memory_id)
        for row in rows:
            scope.add(row)
        scope.seen_seq = top
        if scope.dead > _REBUILD_SHARE * scope.size:
            return self._build(user, agent)
        return scope

    def _evict(self) -> None:
        total = sum(s.size + SCOPE_WEIGHT for s in self._scopes.values())
        while total > self.max_docs and len(self._scopes) > 1:
            _, gone = self._scopes.popitem(last=False)
            total -= gone.size + SCOPE_WEIGHT


def _quarter(weight: object) -> bool:
    """A weight whose sums are exact in any order: a multiple of 1/4, not too large."""
    if not isinstance(weight, int | float):
        return False
    value = float(weight)
    return math.isfinite(value) and abs(value) <= 2**20 and (value * 4).is_integer()

"""FTS5's BM25 ranking, computed from a per-scope inverted index held in memory.

``search_text`` ranks with SQLite's ``bm25()``, which scores every matching row one by one and
reads each row's size from disk: with common words, thousands of rows per query at 100k
memories (15-40 ms), and the join to ``memories`` for the layer filter costs as much again.
This index computes the same numbers with numpy over the scope's postings: the same formula,
the same operations in the same order on IEEE doubles, and the same global statistics read
from FTS5 itself (row count and total size from its averages record, each term's document
count from a MATCH count), so scores and order are bit-identical to the SQL query (the tests
compare the two). It also keeps each row's id and layer (no leg looks rows up to filter them).
Where exactness cannot be guaranteed, it answers None and the caller runs the SQL query:

- the FTS table is not the one this mirrors (columns, tokenizer);
- a stored document does not split into the tokens FTS5 counted (checked against its
  ``docsize`` record for every document), or holds a token FTS5 would case-fold;
- a query term is not one token to FTS5, or a column weight is not a multiple of 1/4 (sums of
  such weights are exact in any order, as FTS5 adds them instance by instance);
- a transaction is open on the connection (FTS5 keeps its totals in memory until commit).

The index follows the table incrementally. New memories get new rowids, and every change to
an existing one (text, layer, erasure, a dropped scope) is logged as an event other than
"use"; so a reader notices any change, from this process or another, with a few primary-key
lookups (the last row, the last event; none while ``PRAGMA data_version`` and the
connection's own changes stay the same) and re-reads only the rows concerned. If the last row
it saw is gone, rowids may have been reused: it starts afresh. The store calls
``invalidate`` after a rollback and when it deletes rows itself. A ranking reads everything
it uses (the rows it follows, FTS5's totals, each term's document count) inside one read
transaction (one snapshot); cached document counts are kept while FTS5's totals stay the
same. Cost: 1.7 s and 60 MB to build for 100k memories (once), then 1-3 ms a query."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from .bm25 import K1, B
from .bm25 import idf as bm25_idf
from .changes import Changes
from .fts5records import varints
from .protocol import SCOPE_EVENT
from .textscope import COLUMNS, TextScope, plain_token

TOKENIZER = "tokenize = 'unicode61 remove_diacritics 0'"
_SELECT = (
    "SELECT m.rowid, m.id, f.scope, f.body, f.anchors, f.context, d.sz, m.layer FROM memories m "
    "JOIN memories_fts f ON f.rowid = m.rowid JOIN memories_fts_docsize d ON d.id = m.rowid"
)
_T = TypeVar("_T")
_REBUILD_SHARE = 0.25   # rebuild a scope when more of it than this changed since it was read


class TextIndex:
    """Per-scope postings for BM25; every method runs under the store's lock."""

    def __init__(self, db: sqlite3.Connection, changes: Changes | None = None) -> None:
        self._db = db
        self._changes = changes or Changes(db)
        self._scopes: dict[tuple[str, str], TextScope] = {}
        self._hits: dict[tuple[str, str], int] = {}   # (columns, term) -> rows holding it
        self._marker = (-1, -1)                         # (max rowid, max event seq) of _hits
        self._top: tuple[int, str] | None = None        # the table's last row when last seen
        self._atomic: dict[str, bool] = {}
        self._usable: bool | None = None
        self._reading = False                           # inside _snapshot
        self._hits_at = (-1, -1)                        # FTS5's (rows, tokens) when _hits read
        self._counts: dict[tuple[str, ...], Any] = {}   # counted(): kept like _hits
        self._seen: tuple[int, int] | None = None       # (data_version, total_changes)
        self._begun = False                             # the snapshot's BEGIN ran
        self._totals_kept: tuple[tuple[int, int] | None, tuple[int, int]] = (None, (0, 0))
        self._prior: tuple[Any, tuple[str, ...], np.ndarray, np.ndarray] | None = None

    def invalidate(self) -> None:
        self._scopes.clear()
        self._hits.clear()
        self._counts.clear()
        self._marker = (-1, -1)
        self._hits_at = (-1, -1)
        self._top = self._seen = None
        self._totals_kept = (None, (0, 0))
        self._prior = None

    # ------------------------------------------------------------ ranking

    def ranked(
        self, user: str, agent: str, token: str, terms: list[str], weights: dict[str, float],
        layers: set[str], want: int,
    ) -> list[tuple[str, float]] | None:
        """The best ``want`` memories of the scope in ``layers`` as (id, score), ordered by
        score then id, exactly as ``-bm25()`` over ``scope : token AND {columns} : (terms...)``
        joined to their layer would order them; None where this index cannot promise that."""
        columns = [c for c in COLUMNS[1:] if weights.get(c)]
        if not self.usable() or not columns or not _quarter(weights.get("scope", 0.0), zero=True):
            return None
        if not all(_quarter(weights[c]) for c in columns) or self._db.in_transaction:
            return None
        with self._snapshot():
            return self._ranked(user, agent, token, terms, weights, columns, layers, want)

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction around a ranking: its postings, row total and document counts
        from one snapshot (a row total older than a hit count made idf's log negative). It
        begins with the first statement that reads a table (``_read``): none where all it
        needs is kept and nothing changed (``PRAGMA data_version``), as between most recalls."""
        self._reading, self._begun = True, False
        try:
            yield
        except BaseException:
            if self._begun:
                self._db.execute("ROLLBACK")
            raise
        else:
            if self._begun:
                self._db.execute("COMMIT")   # read only: ends the snapshot
        finally:
            self._reading = self._begun = False

    def _read(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        """``execute``, the snapshot's read transaction begun first where one is open."""
        self._begin()
        return self._db.execute(sql, args)

    def _begin(self) -> None:
        if self._reading and not self._begun:
            self._db.execute("BEGIN")
            self._begun = True

    def _ranked(
        self, user: str, agent: str, token: str, terms: list[str], weights: dict[str, float],
        columns: list[str], layers: set[str], want: int,
    ) -> list[tuple[str, float]] | None:
        scope = self.scope(user, agent, token)
        if scope is None:
            return None
        allowed = scope.layer_mask(layers)
        colset = " ".join(columns)
        weight_of = np.zeros(len(COLUMNS) - 1)
        for c in columns:
            weight_of[COLUMNS.index(c) - 1] = float(weights[c])
        in_set = weight_of != 0.0
        # a ranking whose terms begin with the last one's (expansion: the question's words and
        # more) starts from its scores: each document's score is its terms' contributions
        # added in order, and a term a document lacks adds 0.0, so the sums are the same
        key = (id(scope), colset, tuple(weight_of.tolist()), frozenset(layers), self._seen)
        prior = self._prior
        if prior is None or self._seen is None or prior[0] != key \
                or tuple(terms[: len(prior[1])]) != prior[1]:
            prior = None
        parts: list[tuple[str, np.ndarray, np.ndarray]] = []
        for term in terms[len(prior[1]) if prior else 0 :]:
            tid = scope.vocab.get(term)
            if tid is None:
                if not self._is_atomic(term):
                    return None
                continue
            docs, cols, counts = scope.postings(tid)
            keep = in_set[cols] & scope.alive[docs] & allowed[scope.layer_code[docs]]
            if keep.any():
                parts.append((term, docs[keep], counts[keep] * weight_of[cols[keep]]))
        if not parts and prior is None:
            return []
        found = np.concatenate([d for _, d, _ in parts]) if parts else np.zeros(0, np.int32)
        if prior is None:
            matched, where = np.unique(found, return_inverse=True)
            score = np.zeros(len(matched))
        else:   # the same union and positions as np.unique's
            matched = np.union1d(prior[2], found)
            where = np.searchsorted(matched, found)
            score = np.zeros(len(matched))
            score[np.searchsorted(matched, prior[2])] = prior[3]
        rows, total = self._totals()
        if (rows, total) != self._hits_at:   # counts cached under other totals: read again
            self._hits.clear()
            self._hits_at = (rows, total)
        avgdl = float(total) / float(rows)
        norm = K1 * ((1 - B) + (B * scope.length[matched]) / avgdl)
        start = 0
        for term, docs, values in parts:
            freq = np.bincount(where[start : start + len(docs)], weights=values,
                               minlength=len(matched))
            start += len(docs)
            score += self._idf(colset, term, rows) * ((freq * (K1 + 1.0)) / (freq + norm))
        self._prior = (key, tuple(terms), matched, score)
        if len(matched) > want:
            cut = np.partition(score, len(score) - want)[len(score) - want]
            chosen = np.flatnonzero(score >= cut)
        else:
            chosen = np.arange(len(matched))
        docs_chosen = matched[chosen].tolist()
        best = sorted(zip((-score[chosen]).tolist(), [scope.ids[d] for d in docs_chosen],
                          strict=True))[:want]
        return [(memory_id, -neg) for neg, memory_id in best]

    def doc_counts(self, user: str, agent: str, token: str, terms: list[str],
                   layers: set[str], cap: int) -> dict[str, int] | None:
        """For each term, how many memories in ``layers`` hold it in any text column, up to
        ``cap`` (``search_text([term], every column, cap)``'s count), from the postings in one
        pass (kept as ``counted`` keeps); None where they cannot."""
        if not self.usable() or self._db.in_transaction:
            return None
        with self._snapshot():
            scope = self.scope(user, agent, token)
            if scope is None:
                return None
            mask, out, kept = scope.layer_mask(layers), {}, self._counts  # kept like counted()
            for term in terms:
                if (key := ("df", user, agent, *sorted(layers), term)) not in kept:
                    tid = scope.vocab.get(term)
                    if tid is None and not self._is_atomic(term):
                        return None
                    kept[key] = 0 if tid is None else scope.holding(tid, mask)
                out[term] = min(kept[key], cap)
            return out

    def rows(self, user: str, agent: str, token: str,
             rowids: list[int]) -> dict[int, tuple[str, str]] | None:
        """rowid -> (id, layer) for rows of the scope, as the table has them now; None where
        this index cannot answer for each (or is not built: a dense-only reader need not)."""
        scope = self.scope(user, agent, token) if self.built(user, agent) else None
        if scope is None:
            return None
        position, ids = scope.position, scope.ids
        docs = [position.get(rowid) for rowid in rowids]
        if None in docs:
            return None
        names, codes = scope.names, scope.layer_code[docs].tolist()
        return {rowid: (ids[doc], names[code])
                for rowid, doc, code in zip(rowids, docs, codes, strict=True)}

    def rowids_of(self, user: str, agent: str, token: str, ids: list[str]) -> list[int]:
        """The rowids of those of ``ids`` the scope's index holds (none where it is not built
        or cannot be trusted)."""
        scope = self.scope(user, agent, token) if self.built(user, agent) else None
        if scope is None:
            return []
        where, rowids = scope.where, scope.rowids
        return [rowids[where[i]] for i in ids if i in where]

    def built(self, user: str, agent: str) -> bool:
        return (user, agent) in self._scopes

    def scope(self, user: str, agent: str, token: str) -> TextScope | None:
        """The scope's index, brought up to date; None where it cannot be trusted."""
        if not self.usable() or (self._db.in_transaction and not self._reading):
            return None  # in a transaction: FTS5 keeps its totals in memory until commit
        return self._sync(user, agent, token, self._refresh_marker())

    def counted(self, key: tuple[str, ...], count: Callable[[], _T]) -> _T:
        """``count()``, a value only a row's change can change (a scope's size in layers, a
        concept's members: a tuple), kept until the table changes; afresh in a transaction."""
        if self._db.in_transaction:
            return count()
        with self._snapshot():
            self._refresh_marker()
            if key not in self._counts:
                self._begin()
                self._counts[key] = count()
            return self._counts[key]  # type: ignore[no-any-return]

    def _idf(self, colset: str, term: str, rows: int) -> float:
        hits = self._hits.get((colset, term))
        if hits is None:
            hits = self._read(
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?",
                (f'{{{colset}}} : "{term}"',),
            ).fetchone()[0]
            self._hits[(colset, term)] = hits
        return bm25_idf(rows, hits)

    def _totals(self) -> tuple[int, int]:
        """FTS5's row count and total token count (all columns), from its averages record;
        kept while nothing changed since it was read (``_refresh_marker``'s look)."""
        if self._seen is not None and self._totals_kept[0] == self._seen:
            return self._totals_kept[1]
        blob = self._read("SELECT block FROM memories_fts_data WHERE id = 1").fetchone()
        values = varints(blob[0]) if blob else [0]
        self._totals_kept = (self._seen, (values[0], sum(values[1 : 1 + len(COLUMNS)])))
        return self._totals_kept[1]

    # ------------------------------------------------------------ following the table

    def usable(self) -> bool:
        if self._usable is None:
            row = self._read(
                "SELECT sql FROM sqlite_master WHERE name = 'memories_fts'").fetchone()
            sql = " ".join((row[0] if row else "").split())
            self._usable = sql.endswith(f"USING fts5({', '.join(COLUMNS)}, {TOKENIZER})")
        return self._usable

    def _refresh_marker(self) -> tuple[int, int]:
        # nothing committed since by another connection or written by this one: it stands
        seen = self._changes.now()
        if seen == self._seen:
            return self._marker
        top = self._read(
            "SELECT rowid, id FROM memories ORDER BY rowid DESC LIMIT 1").fetchone()
        top_rowid, top_id = (top[0], top[1]) if top else (0, "")
        top_seq = self._read("SELECT max(seq) FROM events").fetchone()[0] or 0
        if self._top is not None and self._top != (top_rowid, top_id):
            # the row we last saw on top must still be there: if it went (a scope dropped,
            # elsewhere), rowids can be handed out again and nothing seen can be trusted
            old_rowid, old_id = self._top
            still = self._read(
                "SELECT id FROM memories WHERE rowid = ?", (old_rowid,)).fetchone()
            if top_rowid < old_rowid or still is None or still[0] != old_id:
                self.invalidate()
        self._top = (top_rowid, top_id)
        old_rowid, old_seq = self._marker
        if top_rowid != old_rowid or top_seq < old_seq or (top_seq > old_seq and (
            old_seq < 0 or self._read(
                "SELECT 1 FROM events WHERE seq > ? AND seq <= ? AND op != 'use' LIMIT 1",
                (old_seq, top_seq)).fetchone())):
            self._hits.clear()
            self._counts.clear()
        self._marker, self._seen = (top_rowid, top_seq), seen
        return self._marker

    def _sync(self, user: str, agent: str, token: str,
              marker: tuple[int, int]) -> TextScope | None:
        top_rowid, top_seq = marker
        scope = self._scopes.get((user, agent))
        if scope is not None and (top_rowid < scope.seen_rowid or top_seq < scope.seen_seq):
            scope = None
        if scope is None:
            scope = self._build(user, agent, token, marker)
        else:
            if top_rowid > scope.seen_rowid:
                if top_rowid - scope.seen_rowid > _REBUILD_SHARE * max(scope.size, 4000):
                    scope = self._build(user, agent, token, marker)
                else:
                    rows = self._read(
                        f"{_SELECT} WHERE m.rowid > ? AND m.rowid <= ?",
                        (scope.seen_rowid, top_rowid))
                    for row in rows:
                        if row[2] == token:
                            scope.add(row)
            if top_seq > scope.seen_seq and not self._apply_events(scope, user, agent, top_seq):
                scope = self._build(user, agent, token, marker)
            scope.seen_rowid, scope.seen_seq = top_rowid, top_seq
            if scope.dead > _REBUILD_SHARE * scope.size:
                scope = self._build(user, agent, token, marker)
        if scope.pending_size > max(20000, scope.starts[-1] // 8):
            scope.compact()
        return scope if scope.valid else None

    def _build(self, user: str, agent: str, token: str, marker: tuple[int, int]) -> TextScope:
        scope = self._scopes[(user, agent)] = TextScope(token=token)
        scope.load(self._read(
            f"{_SELECT} WHERE memories_fts MATCH ?", (f'scope : "{token}"',)))
        scope.seen_rowid, scope.seen_seq = marker
        return scope

    def _apply_events(self, scope: TextScope, user: str, agent: str, top_seq: int) -> bool:
        """Re-read the memories changed since the scope was read; False when an event about
        the whole scope (it was dropped) asks for a rebuild instead."""
        changed = [r[0] for r in self._read(
            "SELECT DISTINCT memory_id FROM events WHERE seq > ? AND seq <= ? AND op != 'use' "
            "AND user = ? AND agent = ?", (scope.seen_seq, top_seq, user, agent))]
        if SCOPE_EVENT in changed:
            return False
        for start in range(0, len(changed), 500):
            chunk = changed[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rowids = [r[0] for r in self._read(
                f"SELECT rowid FROM memories WHERE id IN ({marks})", chunk)]
            found = set()
            for row in self._read(f"{_SELECT} WHERE m.id IN ({marks})", chunk):
                if row[2] == scope.token:
                    found.add(row[0])
                    scope.add(row)
            for rowid in rowids:
                if rowid not in found:
                    scope.drop(rowid)
        return True

    def _is_atomic(self, term: str) -> bool:
        """Does FTS5 read ``term`` as exactly one token, itself? (Terms absent from a scope
        match nothing there only if so.)"""
        if plain_token(term):
            return True
        known = self._atomic.get(term)
        if known is None:
            db = self._db
            db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.engramdb_probe USING fts5(t, "
                       f"{TOKENIZER})")
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.engramdb_probe_terms USING "
                       "fts5vocab(temp, engramdb_probe, instance)")
            db.execute("INSERT INTO temp.engramdb_probe(rowid, t) VALUES (1, ?)", (term,))
            try:
                tokens = [r[0] for r in db.execute("SELECT term FROM temp.engramdb_probe_terms")]
            finally:
                db.execute("DELETE FROM temp.engramdb_probe")
            known = self._atomic[term] = tokens == [term]
        return known


def _quarter(weight: object, zero: bool = False) -> bool:
    """A weight whose sums are exact in any order (a multiple of 1/4, not too large); with
    ``zero``, only 0 itself."""
    if not isinstance(weight, int | float):
        return False
    value = float(weight)
    if zero:
        return value == 0.0
    return math.isfinite(value) and abs(value) <= 2**20 and (value * 4).is_integer()

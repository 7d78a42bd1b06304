"""The cold tier's searches, shared by both stores: what a search over ``Layer.COLD`` reads.

A memory archived for long (``Config.cold_after``, dynamics/cold.py) keeps its row, its
history and its links, but its searchable text and its vectors leave the hot structures
(SQLite's FTS5 table and vector matrix, PostgreSQL's GIN and vector columns) for the
``cold_index`` table. A recall searches them only when asked (``include_cold=True``): then the
scope's cold entries are read and ranked here, with the same formulas as the hot side (FTS5's
BM25 over the same tokens, with the cold entries' own statistics; cosine, a long memory by its
best passage), and merged with the hot results by score. Each store moves a memory's entry in
and out of the table whenever a save changes its layer to or from ``cold``, so every path (a
sleep, a wake, restore, forget, import) keeps the rule: a memory's index is cold exactly while
its layer is."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Layer
from .bm25 import K1, B
from .bm25 import idf as bm25_idf
from .postgres.text import FIELDS, fts_tokens

if TYPE_CHECKING:
    import numpy as np

IDF_FLOOR = 1e-6


@dataclass(frozen=True)
class ColdText:
    """One cold memory's searchable text, each field as stored (FTS5's token form)."""

    memory_id: str
    body: str
    anchors: str
    context: str


def hot_layers(layers: Sequence[Layer]) -> tuple[Layer, ...]:
    return tuple(lay for lay in layers if lay != Layer.COLD)


def with_cold(layers: Sequence[Layer], limit: int,
              hot: Callable[[tuple[Layer, ...]], list[tuple[str, float]]],
              cold: Callable[[], list[tuple[str, float]]]) -> list[tuple[str, float]]:
    """``hot`` over the hot layers asked for, and ``cold`` when ``Layer.COLD`` is among them:
    merged best first (ties by id), at most ``limit``."""
    warm = hot_layers(layers)
    found = hot(warm) if warm else []
    if Layer.COLD not in layers or limit <= 0:
        return found
    merged = dict(found)
    for mid, score in cold():
        merged[mid] = max(score, merged.get(mid, score))
    return sorted(merged.items(), key=lambda x: (-x[1], x[0]))[:limit]


def text_terms(tokens: Sequence[str]) -> list[str]:
    """The query's terms as FTS5 reads them (store/postgres/text.py's ``fts_tokens``)."""
    return [t for t in dict.fromkeys(tok for t in tokens for tok in fts_tokens(t)) if t]


def tokens_sql(column: str) -> str:
    """SQL (SQLite and PostgreSQL alike) for how many tokens a stored field holds: its tokens
    are joined by single spaces."""
    return (f"(CASE WHEN {column} = '' THEN 0 "
            f"ELSE length({column}) - length(replace({column}, ' ', '')) + 1 END)")


# the scope's cold entries with text, and their tokens in all (FTS5 counts one more per row)
STATS_SQL = (f"SELECT count(*), coalesce(sum(1 + {tokens_sql('body')} + {tokens_sql('anchors')}"
             f" + {tokens_sql('context')}), 0) FROM cold_index")


def holding_sql(terms: Sequence[str], fields: Mapping[str, float], mark: str) -> str:
    """The SQL condition that a cold entry holds one of ``terms`` in a searched field (a
    superset of the entries that score: a term may sit inside a longer token), with ``mark``
    as the parameter placeholder; its parameters are ``holding_args``."""
    searched = [f for f in FIELDS if fields.get(f)]
    return "(" + " OR ".join(f"{position(f, mark)} > 0" for _ in terms for f in searched) + ")"


def holding_args(terms: Sequence[str], fields: Mapping[str, float]) -> list[str]:
    return [t for t in terms for f in FIELDS if fields.get(f)]


def position(column: str, mark: str) -> str:
    return f"instr({column}, {mark})" if mark == "?" else f"strpos({column}, {mark})"


def rank_text(entries: Sequence[ColdText], terms: Sequence[str], fields: Mapping[str, float],
              limit: int, size: int, total: int) -> list[tuple[str, float]]:
    """(id, BM25) best first over the weighted fields, FTS5's formula (a term's frequency is
    the weighted sum of its counts per field; a document's length counts every field and
    FTS5's scope column), with the scope's cold entries as the collection: ``size`` of them,
    ``total`` tokens in all. ``entries``: those that may hold a term (``holding_sql``)."""
    weights = {f: float(fields.get(f, 0.0)) for f in FIELDS}
    searched = [f for f in FIELDS if weights[f]]
    if not entries or not terms or limit <= 0 or not searched or size <= 0:
        return []
    average = total / size
    docs = []
    for entry in entries:
        split = {f: fts_tokens(getattr(entry, f)) for f in FIELDS}
        length = 1 + sum(len(getattr(entry, f).split()) for f in FIELDS)
        docs.append((entry.memory_id, split, length))
    freq = {t: sum(1 for _, split, _ in docs if any(t in split[f] for f in searched))
            for t in terms}   # a term's documents: those holding it in a searched field
    idf = {t: max(bm25_idf(size, n), IDF_FLOOR) for t, n in freq.items()}
    out = []
    for mid, split, length in docs:
        score = 0.0
        for term in terms:
            tf = sum(weights[f] * split[f].count(term) for f in searched)
            if tf:
                score += idf[term] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
        if score > 0:
            out.append((mid, score))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out[:limit]


def rank_vectors(ids: Sequence[str], matrix: np.ndarray, query: np.ndarray, limit: int,
                 parts: Mapping[str, np.ndarray] | None = None) -> list[tuple[str, float]]:
    """(id, cosine) best first: each row of ``matrix`` (unit vectors, one per id) against the
    query, a long memory by the best of its vector and its passages (``parts``)."""
    import numpy as np

    if not len(ids) or limit <= 0:
        return []
    from .vectors import MARGIN, cosines

    q = np.asarray(query, dtype=np.float32)
    scores = matrix @ q
    rows = {mid: np.asarray(r, dtype=np.float32) for mid, r in (parts or {}).items() if len(r)}
    where = {mid: i for i, mid in enumerate(ids)}
    for mid, r in rows.items():
        if mid in where:
            scores[where[mid]] = max(scores[where[mid]], (r @ q).max())
    keep = np.arange(len(ids))
    if len(ids) > limit:   # the best ``limit``, and those the exact scores below may lift
        edge = np.partition(scores, len(ids) - limit)[len(ids) - limit]
        keep = np.flatnonzero(scores >= edge - MARGIN)

    def exact(i: int, best: float) -> float:   # a long memory's best passage where higher
        parts = rows.get(ids[i])
        return max(best, *cosines(parts, q).tolist()) if parts is not None else best

    # each pair on its own, as the hot search scores it
    found = sorted(((ids[i], exact(i, best)) for i, best
                    in zip(keep.tolist(), cosines(matrix[keep], q).tolist(), strict=True)),
                   key=lambda x: (-x[1], x[0]))
    return found[:limit]

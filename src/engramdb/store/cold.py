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

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Layer
from .postgres.text import FIELDS, fts_tokens

if TYPE_CHECKING:
    import numpy as np

K1 = 1.2   # FTS5's bm25() constants
B = 0.75
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


def rank_text(entries: Sequence[ColdText], tokens: Sequence[str],
              fields: Mapping[str, float], limit: int) -> list[tuple[str, float]]:
    """(id, BM25) best first over the weighted fields, FTS5's formula (a term's frequency is
    the weighted sum of its counts per field; a document's length counts every field and
    FTS5's scope column), with the cold entries as the collection."""
    terms = [t for t in dict.fromkeys(tok for t in tokens for tok in fts_tokens(t)) if t]
    weights = {f: float(fields.get(f, 0.0)) for f in FIELDS}
    if not entries or not terms or limit <= 0 or not any(weights.values()):
        return []
    searched = [f for f in FIELDS if weights[f]]
    total = 0
    holding: list[tuple[str, dict[str, list[str]], int]] = []
    for entry in entries:   # a stored field is its tokens joined by spaces: split() counts them
        texts = {f: getattr(entry, f) for f in FIELDS}
        length = 1 + sum(len(t.split()) for t in texts.values())
        total += length
        if any(term in texts[f].lower() for f in searched for term in terms):
            holding.append((entry.memory_id, {f: fts_tokens(texts[f]) for f in FIELDS}, length))
    average = total / len(entries)
    freq = {t: sum(1 for _, split, _ in holding if any(t in split[f] for f in searched))
            for t in terms}   # a term's documents: those holding it in a searched field
    idf = {t: max(math.log((len(entries) - n + 0.5) / (n + 0.5)), IDF_FLOOR)
           for t, n in freq.items()}
    out = []
    for mid, split, length in holding:
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
    q = np.asarray(query, dtype=np.float32)
    scores = {mid: float(s) for mid, s in zip(ids, (matrix @ q).tolist(), strict=True)}
    for mid, rows in (parts or {}).items():
        if mid in scores and len(rows):
            scores[mid] = max(scores[mid], float((np.asarray(rows, dtype=np.float32) @ q).max()))
    return sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:limit]

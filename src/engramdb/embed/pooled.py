"""A memory's vector at a cost that grows with its length, not faster.

A memory text within one passage (text/passages.py: nearly every memory) is embedded as it is,
in one call with the other short texts of the batch: exactly the vector the embedder gives it.
A longer text is cut into passages, embedded with the other passages of the batch (at most
``CALL`` passages a model call), and its vector is their mean weighted by each passage's length,
normalised. An embedder may pool its own way with an optional ``pool(vectors, weights)``
(embed/routed.py normalises each model's half on its own); the ``Embedder`` protocol itself is
unchanged, so any plugin gets passages. Queries are never cut: they are embedded as given."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..text.passages import LIMIT, passages, units
from .base import Embedder

if TYPE_CHECKING:
    from .workers import WorkerPool

CALL = 64   # passages per model call (a model pads or packs a call: memory grows with it)
CHUNK = 16  # texts per chunk of a bulk embed: a worker's share at a time (embed/workers.py);
# 8 to 64 cost the same per text on the default model (bench/results/ingest_workers.md)
PASSAGE_UNITS = LIMIT   # read at each call (bench/long_turns.py sets it huge for "whole text")


@dataclass
class Embedded:
    vectors: np.ndarray                 # (len(texts), dimensions): one vector per text
    parts: list[np.ndarray | None]      # per text: its passages' vectors, None for one passage
    pieces: list[list[str] | None]      # per text: its passages, None for one passage


class Memo(Protocol):
    def add(self, vector: np.ndarray, parts: np.ndarray) -> None: ...


def embed_texts(embedder: Embedder, texts: Sequence[str],
                memo: Memo | None = None) -> np.ndarray:
    """One vector per memory text (passages pooled for the long ones). ``memo``: where the
    long ones' passage vectors wait for the write that stores their vector (the store's
    ``passage_memo``, store/passages.py)."""
    got = embed_passages(embedder, texts)
    if memo is not None:
        for vector, parts in zip(got.vectors, got.parts, strict=True):
            if parts is not None:
                memo.add(vector, parts)
    return got.vectors


def embed_in_chunks(embedder: Embedder, texts: Sequence[str], size: int,
                    memo: Memo | None = None, progress: Callable[[int, int], None] | None = None,
                    pool: WorkerPool | None = None) -> np.ndarray:
    """``embed_texts`` in chunks of ``size`` texts (CHUNK at most), ``progress(done, total)``
    after each chunk. With ``pool`` (embed/workers.py) the chunks are embedded in its worker
    processes and here, and come back in order; the chunks are the same either way, so the
    vectors are too."""
    chunks = split(texts, size)
    def here(chunk: list[str]) -> tuple[np.ndarray, list[np.ndarray | None]]:
        got = embed_passages(embedder, chunk)
        return got.vectors, got.parts

    results: Iterator[tuple[np.ndarray, list[np.ndarray | None]]]
    results = map(here, chunks) if pool is None else pool.map(chunks, PASSAGE_UNITS, here)
    out, done = [], 0
    for vectors, parts in results:
        if memo is not None:
            for vector, mine in zip(vectors, parts, strict=True):
                if mine is not None:
                    memo.add(vector, mine)
        out.append(vectors)
        done += len(vectors)
        if progress:
            progress(done, len(texts))
    if not out:
        return np.zeros((0, embedder.dimensions), dtype=np.float32)
    return np.vstack(out)


def split(texts: Sequence[str], size: int) -> list[list[str]]:
    """The chunks ``embed_in_chunks`` embeds ``texts`` in."""
    size = max(1, min(size, CHUNK))
    return [list(texts[s : s + size]) for s in range(0, len(texts), size)]


def embed_passages(embedder: Embedder, texts: Sequence[str]) -> Embedded:
    """Each text's vector, with the passages' own vectors of the long ones."""
    texts = list(texts)
    cut = [passages(t, PASSAGE_UNITS) for t in texts]
    short = [i for i, ps in enumerate(cut) if len(ps) == 1]
    long = [i for i, ps in enumerate(cut) if len(ps) > 1]
    if not long:
        vectors = embedder.embed_batch(texts)
        return Embedded(vectors, [None] * len(texts), [None] * len(texts))
    out = np.zeros((len(texts), embedder.dimensions), dtype=np.float32)
    if short:
        out[short] = embedder.embed_batch([texts[i] for i in short])
    flat = [p for i in long for p in cut[i]]
    rows = _in_calls(embedder, flat)
    parts: list[np.ndarray | None] = [None] * len(texts)
    pieces: list[list[str] | None] = [None] * len(texts)
    start = 0
    for i in long:
        mine = rows[start : start + len(cut[i])]
        start += len(cut[i])
        weights = np.array([units(p) for p in cut[i]], dtype=np.float32)
        out[i] = pool(embedder, mine, weights)
        parts[i], pieces[i] = mine, cut[i]
    return Embedded(out, parts, pieces)


def _in_calls(embedder: Embedder, texts: list[str]) -> np.ndarray:
    chunks = [embedder.embed_batch(texts[s : s + CALL]) for s in range(0, len(texts), CALL)]
    return np.vstack(chunks).astype(np.float32, copy=False)


def pool(embedder: Embedder, vectors: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The passages' vectors as one unit vector: the embedder's own ``pool`` if it has one,
    else their weighted mean, normalised."""
    own = getattr(embedder, "pool", None)
    if callable(own):
        return np.asarray(own(vectors, weights), dtype=np.float32)
    return mean_unit(vectors, weights)


def mean_unit(vectors: np.ndarray, weights: np.ndarray) -> np.ndarray:
    mean = (weights[:, None] * vectors).sum(axis=0) / max(float(weights.sum()), 1e-9)
    norm = float(np.linalg.norm(mean))
    return (mean / norm if norm > 0 else mean).astype(np.float32)

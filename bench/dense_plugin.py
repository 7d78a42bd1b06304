"""Dense-only LoCoMo retriever over an engramdb embedder (for shared/bench/locomo_retrieval.py).

The method comes from ENGRAMDB_BENCH_EMBEDDER (or the ``embedder`` factory kwarg):
a registry name (``e5``, ``use``, ``hashing``, ...) ranks turns by cosine; ``rrf:A+B`` fuses
the rankings of several embedders by reciprocal rank (k=60); ``zavg:A+B`` averages their
per-query z-normalised cosines. Turn text matches the shipped baselines:
"<speaker>: <text>" plus " [shares an image: <caption>]". Nothing is cached on disk.

    ENGRAMDB_BENCH_EMBEDDER=use .venv/bin/python /work/shared/bench/locomo_retrieval.py \\
        --retriever bench/dense_plugin.py:make --split dev --markdown
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before any model engine loads

from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from engramdb.registry import make_embedder  # noqa: E402

RRF_K = 60


def turn_text(turn: Any) -> str:
    text = f"{turn.speaker}: {turn.text}"
    caption = getattr(turn, "image_caption", None)
    if caption:
        text += f" [shares an image: {caption}]"
    return text


def parse_method(spec: str) -> tuple[str, list[str]]:
    """'e5' -> ('single', ['e5']); 'rrf:e5+use' -> ('rrf', ['e5', 'use'])."""
    fusion, _, names = spec.partition(":") if ":" in spec else ("single", "", spec)
    models = [n.strip() for n in names.split("+") if n.strip()]
    if fusion not in ("single", "rrf", "zavg") or not models:
        raise SystemExit(f"ENGRAMDB_BENCH_EMBEDDER={spec!r}: expected NAME, rrf:A+B or zavg:A+B")
    if fusion == "single" and len(models) != 1:
        raise SystemExit(f"ENGRAMDB_BENCH_EMBEDDER={spec!r}: several models need rrf: or zavg:")
    return fusion, models


def fuse(fusion: str, score_sets: Sequence[np.ndarray]) -> np.ndarray:
    if fusion == "single":
        return score_sets[0]
    total = np.zeros_like(score_sets[0], dtype=np.float64)
    for scores in score_sets:
        if fusion == "rrf":
            ranks = np.empty(len(scores), dtype=np.int64)
            ranks[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
            total += 1.0 / (RRF_K + 1 + ranks)
        else:
            std = float(scores.std()) or 1.0
            total += (scores - scores.mean()) / std
    return total


class DenseRetriever:
    def __init__(self, embedder: str | None = None, threads: int = 1) -> None:
        spec = embedder or os.environ.get("ENGRAMDB_BENCH_EMBEDDER", "e5")
        self.fusion, names = parse_method(spec)
        threadpool_limits(limits=threads)
        self.models = [make_embedder(name, threads=threads) for name in names]
        self.ids: dict[str, list[str]] = {}
        self.vectors: dict[str, list[np.ndarray]] = {}

    def index(self, conversation_id: str, turns: Sequence[Any]) -> None:
        texts = [turn_text(t) for t in turns]
        self.ids[conversation_id] = [t.dia_id for t in turns]
        self.vectors[conversation_id] = [m.embed_batch(texts, query=False) for m in self.models]

    def search(self, conversation_id: str, query: str, k: int) -> list[str]:
        score_sets = [
            matrix @ model.embed_batch([query], query=True)[0]
            for model, matrix in zip(self.models, self.vectors[conversation_id], strict=True)
        ]
        scores = fuse(self.fusion, score_sets)
        top = np.argsort(-scores, kind="stable")[:k]
        ids = self.ids[conversation_id]
        return [ids[i] for i in top]


def make(**kwargs: Any) -> DenseRetriever:
    return DenseRetriever(**kwargs)

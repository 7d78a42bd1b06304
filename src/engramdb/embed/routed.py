"""Two models in one vector, and the query's language picks which one searches.

Each memory is embedded by both models; its vector is the two unit vectors side by side, each
scaled by 1/sqrt(2), so it is a unit vector too. A query fills only its own model's half:
the cosine is then that model's cosine (over sqrt(2)), and one matrix product searches with
the right model. The default pairs multilingual-e5 (best on English conversation) with
multilingual USE (best when a Chinese question meets an English memory): see
bench/results/crosslingual.md and bench/results/locomo.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .base import Embedder

if TYPE_CHECKING:
    import numpy as np

_HALF = 1 / math.sqrt(2)   # a float, not numpy: numpy loads with the first vector


class RoutedEmbedder:
    def __init__(self, main: Embedder, cjk: Embedder) -> None:
        self.main = main
        self.cjk = cjk
        self.dimensions = main.dimensions + cjk.dimensions
        self.model_id = f"routed({main.model_id}|cjk:{cjk.model_id})"
        self.worker_bytes = sum(getattr(m, "worker_bytes", 0) or 0 for m in (main, cjk)) or None
        self._last_cjk: tuple[str, np.ndarray] | None = None  # reused by embed_aligned

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        import numpy as np

        from ..text import is_cjk

        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        split = self.main.dimensions
        if not query:
            out[:, :split] = self.main.embed_batch(texts) * _HALF
            out[:, split:] = self.cjk.embed_batch(texts) * _HALF
            return out
        cjk = [i for i, t in enumerate(texts) if is_cjk(t)]
        rest = [i for i in range(len(texts)) if i not in set(cjk)]
        if rest:
            out[rest, :split] = self.main.embed_batch([texts[i] for i in rest], query=True)
        if cjk:
            out[cjk, split:] = self.cjk.embed_batch([texts[i] for i in cjk], query=True)
            self._last_cjk = (texts[cjk[-1]], out[cjk[-1], split:].copy())
        return out

    def pool(self, vectors: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """A long memory's passages as one vector (embed/pooled.py): each model's half
        pooled and normalised on its own, so either half's cosine stays that model's."""
        import numpy as np

        from .pooled import mean_unit

        split = self.main.dimensions
        return np.concatenate([mean_unit(vectors[:, :split], weights) * _HALF,
                               mean_unit(vectors[:, split:], weights) * _HALF])

    def embed_aligned(self, text: str) -> np.ndarray:
        """The query in the cross-lingual model's half alone (recall/crosslingual.py); the
        vector ``embed_batch`` just gave a question in Chinese is reused."""
        import numpy as np

        last = self._last_cjk
        out = np.zeros(self.dimensions, dtype=np.float32)
        if last is not None and last[0] == text:
            out[self.main.dimensions :] = last[1]
        else:
            out[self.main.dimensions :] = self.cjk.embed_batch([text], query=True)[0]
        return out

    def embed_main(self, text: str) -> np.ndarray:
        """The query in the main model's half alone, whatever its script (a question in
        Chinese is otherwise searched by the cross-lingual half): recall/crosslingual.py
        sums both models' standings in a scope that holds both languages."""
        return self.embed_main_batch([text])[0]

    def embed_main_batch(self, texts: Sequence[str]) -> np.ndarray:
        """``embed_main`` of each text, one batch through the main model (the question bank's
        questions, recall/questionbank.py ``main_bank_for``)."""
        import numpy as np

        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        out[:, : self.main.dimensions] = self.main.embed_batch(list(texts), query=True)
        return out

"""A deterministic embedder with no model: hashed word and character n-gram features.

It is for tests and minimal installs: fast, stable across runs and machines, and it gives
lexical similarity (not meaning)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..text import normalize, tokenize
from .base import normalize_rows

if TYPE_CHECKING:
    import numpy as np

_CACHE_SIZE = 1 << 18  # distinct features remembered (about 40 MB at most)


class HashingEmbedder:
    # its similarity is shared words and letters, which recall's lexical share counts already:
    # it is no evidence of meaning for relevance (recall/relevance.py)
    lexical_only = True

    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self.model_id = f"hashing-v1-{dimensions}"
        self._codes: dict[str, int] = {}  # feature -> code: blake2b once per distinct feature

    def _features(self, text: str) -> list[str]:
        words = tokenize(text)
        grams = []
        flat = normalize(text).replace(" ", "_")
        grams = [flat[i : i + 3] for i in range(max(0, len(flat) - 2))]
        return [f"w:{w}" for w in words] * 2 + [f"g:{g}" for g in grams]

    def _code(self, feature: str) -> int:
        """A feature's bucket and sign as one int: bucket * 2 + (1 if the sign is + else 0)."""
        code = self._codes.get(feature)
        if code is None:
            if len(self._codes) >= _CACHE_SIZE:
                self._codes.clear()
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            code = self._codes[feature] = ((value >> 1) % self.dimensions) * 2 + (value & 1)
        return code

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        import numpy as np

        rows: list[int] = []
        codes: list[int] = []
        for row, text in enumerate(texts):
            features = self._features(text)
            found = list(map(self._codes.get, features))  # the cached fast path
            if None in found:
                found = [self._code(feature) for feature in features]
            codes.extend(found)
            rows.extend([row] * len(found))
        code = np.asarray(codes, dtype=np.int64)
        cells = np.asarray(rows, dtype=np.int64) * self.dimensions + (code >> 1)
        # the counts are small integers, so summing them in float64 and casting is exact
        sums = np.bincount(cells, weights=(code & 1) * 2.0 - 1.0,
                           minlength=len(texts) * self.dimensions)
        out = sums.astype(np.float32).reshape(len(texts), self.dimensions)
        return normalize_rows(out)

"""A deterministic embedder with no model: hashed word and character n-gram features.

It is for tests and minimal installs: fast, stable across runs and machines, and it gives
lexical similarity (not meaning)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from ..text import normalize, tokenize
from .base import normalize_rows


class HashingEmbedder:
    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self.model_id = f"hashing-v1-{dimensions}"

    def _features(self, text: str) -> list[str]:
        words = tokenize(text)
        grams = []
        flat = normalize(text).replace(" ", "_")
        grams = [flat[i : i + 3] for i in range(max(0, len(flat) - 2))]
        return [f"w:{w}" for w in words] * 2 + [f"g:{g}" for g in grams]

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                sign = 1.0 if value & 1 else -1.0
                out[row, (value >> 1) % self.dimensions] += sign
        return normalize_rows(out)

"""The Embedder protocol: a model id, a dimension, and a batch call returning unit vectors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np



@runtime_checkable
class Embedder(Protocol):
    model_id: str
    dimensions: int

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """float32 array of shape (len(texts), dimensions), each row L2-normalised.
        ``query=True`` marks search queries (asymmetric models prefix them differently)."""
        ...


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms

"""Any OpenAI-compatible ``/v1/embeddings`` endpoint, configured by environment:

ENGRAMDB_OPENAI_BASE_URL (default https://api.openai.com/v1), ENGRAMDB_OPENAI_API_KEY,
ENGRAMDB_OPENAI_EMBED_MODEL (default text-embedding-3-small), ENGRAMDB_OPENAI_EMBED_DIM.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import httpx

from ..errors import ConfigError, EngramError
from .base import normalize_rows

if TYPE_CHECKING:
    import numpy as np

_BATCH = 128


class OpenAIEmbedder:
    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        model: str | None = None,
        dimensions: int | None = None,
        timeout: float = 30.0,
    ) -> None:
        env = os.environ.get
        self.base_url = (base_url or env("ENGRAMDB_OPENAI_BASE_URL") or "https://api.openai.com/v1")
        self.base_url = self.base_url.rstrip("/")
        self.api_key = api_key or env("ENGRAMDB_OPENAI_API_KEY") or env("OPENAI_API_KEY") or ""
        self.model = model or env("ENGRAMDB_OPENAI_EMBED_MODEL") or "text-embedding-3-small"
        dim = dimensions or env("ENGRAMDB_OPENAI_EMBED_DIM")
        if not dim:
            raise ConfigError(
                "the openai embedder needs ENGRAMDB_OPENAI_EMBED_DIM (the vector size)"
            )
        self.dimensions = int(dim)
        self.model_id = f"openai:{self.model}"
        self._client = httpx.Client(timeout=timeout)

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        import numpy as np

        rows: list[list[float]] = []
        for start in range(0, len(texts), _BATCH):
            rows.extend(self._call(list(texts[start : start + _BATCH])))
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)
        if matrix.shape[1] != self.dimensions:
            raise EngramError(
                f"the endpoint returned {matrix.shape[1]}-d vectors, configured {self.dimensions}"
            )
        return normalize_rows(matrix)

    def _call(self, batch: list[str]) -> list[list[float]]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            resp = self._client.post(
                f"{self.base_url}/embeddings",
                json={"model": self.model, "input": batch},
                headers=headers,
            )
            resp.raise_for_status()
            data = sorted(resp.json()["data"], key=lambda d: d["index"])
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            raise EngramError(f"embedding request to {self.base_url} failed: {exc}") from exc
        return [d["embedding"] for d in data]

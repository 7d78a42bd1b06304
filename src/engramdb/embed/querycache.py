"""Query vectors remembered by their text: an agent asks the same question more than once
(a ``context`` and a ``recall`` in one turn, a loop that re-plans, a door retried), and a
query's vector is most of a recall's cost on a real model (bench/model_cost.py). The
embedder is deterministic, so a remembered vector is the vector; the last ``size`` texts
are kept (least recently used goes first). Vectors are returned read-only, so no caller can
change what another one gets."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

QUERY_CACHE = 512


class QueryCache:
    def __init__(self, embed: Callable[[str], np.ndarray], size: int = QUERY_CACHE) -> None:
        self._embed = embed
        self._size = max(0, int(size))
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __call__(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._kept.get(text)
            if vec is not None:
                self._kept.move_to_end(text)
                self.hits += 1
                return vec
        vec = np.array(self._embed(text), dtype=np.float32)  # a copy the cache owns
        vec.flags.writeable = False
        with self._lock:
            self.misses += 1
            if self._size:
                self._kept[text] = vec
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return vec

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

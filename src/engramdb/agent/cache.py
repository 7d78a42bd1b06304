"""A semantic cache in front of the LLM, per scope, in the process (nothing is stored).

A question whose embedding (the Memory's embedder, as a query) has cosine similarity of at least
``THRESHOLD`` (0.92: with the multilingual e5 model, paraphrases of one question; with the
hashing embedder, the same words in another order or case) with a question already answered
in the same scope is answered from the cache, if every memory that supported that answer is
still there, current (not superseded, not forgotten) and at the version it had then. A
supporting memory that changed, was superseded or was forgotten drops every answer that used
it (counted as ``invalidated``); ``invalidate`` does it at once. Only answers of turns that
ran read-only tools (``pure``) are put in the cache. ``hits`` and ``misses`` are counted."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..model import Scope
from ..store.base import Store

THRESHOLD = 0.92
CAPACITY = 256  # answers kept per scope; the oldest goes first


@dataclass(eq=False)
class Entry:
    question: str
    vector: np.ndarray
    answer: str
    supports: dict[str, int]   # memory id -> version it had when the answer was given
    at: datetime


@dataclass(frozen=True)
class CacheHit:
    question: str             # the earlier question
    answer: str
    similarity: float
    supports: list[str] = field(default_factory=list)


class SemanticCache:
    def __init__(self, embed: Callable[[str], np.ndarray], *, threshold: float = THRESHOLD,
                 capacity: int = CAPACITY) -> None:
        self.embed, self.threshold, self.capacity = embed, threshold, capacity
        self._entries: dict[Scope, list[Entry]] = {}
        self.hits = self.misses = self.invalidated = 0

    def lookup(self, store: Store, scope: Scope, question: str) -> CacheHit | None:
        """The cached answer for ``question``, or None (a miss)."""
        entries = self._entries.get(scope, [])
        if entries:
            vec = _unit(self.embed(question))
            ranked = sorted(((float(vec @ e.vector), e) for e in entries),
                            key=lambda x: -x[0])
            for sim, entry in ranked:
                if sim < self.threshold:
                    break
                if self._still_true(store, scope, entry):
                    self.hits += 1
                    return CacheHit(entry.question, entry.answer, sim, list(entry.supports))
                self._drop(scope, entry)
        self.misses += 1
        return None

    def put(self, scope: Scope, question: str, answer: str, supports: Mapping[str, int],
            at: datetime) -> None:
        entries = self._entries.setdefault(scope, [])
        entries.append(Entry(question, _unit(self.embed(question)), answer, dict(supports), at))
        del entries[:-self.capacity]

    def invalidate(self, scope: Scope, memory_id: str) -> int:
        """Drop every answer of the scope that used ``memory_id``; how many were dropped."""
        gone = [e for e in self._entries.get(scope, []) if memory_id in e.supports]
        for entry in gone:
            self._drop(scope, entry)
        return len(gone)

    def size(self, scope: Scope | None = None) -> int:
        if scope is not None:
            return len(self._entries.get(scope, []))
        return sum(len(v) for v in self._entries.values())

    def stats(self) -> dict[str, Any]:
        return {"hits": self.hits, "misses": self.misses, "invalidated": self.invalidated,
                "size": self.size(), "threshold": self.threshold}

    def _still_true(self, store: Store, scope: Scope, entry: Entry) -> bool:
        found = store.get_many(scope, list(entry.supports))
        return all((rec := found.get(mid)) is not None and rec.current
                   and rec.version == version for mid, version in entry.supports.items())

    def _drop(self, scope: Scope, entry: Entry) -> None:
        entries = self._entries.get(scope, [])
        if entry in entries:
            entries.remove(entry)
            self.invalidated += 1


def _unit(vec: np.ndarray) -> np.ndarray:
    v = np.asarray(vec, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v

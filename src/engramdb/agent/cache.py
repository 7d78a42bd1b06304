"""A semantic cache in front of the LLM, per scope, in the process (nothing is stored).

A question is answered from the cache when an earlier question of the same scope (1) has an
embedding (the Memory's embedder, as a query) with cosine similarity of at least
``THRESHOLD`` (0.8, a first gate; embedder-dependent, ``SemanticCache(threshold=)``) and (2)
asks with the same words: the words (the tokenizer's, stopwords kept) and CJK characters of
the two questions may differ only by politeness fillers (``FILLERS``: please, tell me, again,
请, 告诉, 一下...). Case, punctuation and word order do not matter. The
second test is there because similarity alone cannot tell questions apart that need other
answers. Measured with the ``default`` embedder (bench/agent_cache.py): "What is
my dog called?" vs "What was my dog called?" 0.987, vs "What is your dog called?" 0.982, vs
"What is my cat called?" 0.941, "Where do I live?" vs "Where did I live in 2019?" 0.940, while
the true paraphrase "what's my dog's name?" scores 0.958: no threshold separates them. So
the words decide, and paraphrases with other words miss (a miss costs one LLM call; a wrong
hit gives a wrong answer). "请告诉我我住在哪里" vs "我住在哪里？" scores 0.848 and hits.

A hit also needs every memory that supported the earlier answer to be there, current (not
superseded, not forgotten) and at the version it had then. A supporting memory that changed,
was superseded or was forgotten drops every answer that used it (counted as ``invalidated``);
``invalidate`` does it at once. Only answers of turns that ran read-only tools (``pure``) are
put in the cache. An answer older than ``max_age`` (default one day, by the Memory's clock)
is dropped too. ``hits`` and ``misses`` are counted."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ..model import Scope
from ..store.protocol import Store
from ..text.tokenize import is_cjk, tokenize

THRESHOLD = 0.8
FILLERS = frozenset({
    "please", "pleas", "tell", "me", "again", "can", "could", "would", "you", "know", "do",
    "请", "告", "诉", "告诉", "一", "下", "一下", "吗", "呢", "吧", "能", "可", "以", "可以", "再",
    "你"})
CAPACITY = 256  # answers kept per scope; the oldest goes first
MAX_AGE = timedelta(days=1)


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
                 capacity: int = CAPACITY, max_age: timedelta = MAX_AGE) -> None:
        self.embed, self.threshold, self.capacity = embed, threshold, capacity
        self.max_age = max_age
        self._entries: dict[Scope, list[Entry]] = {}
        self.hits = self.misses = self.invalidated = 0

    def lookup(self, store: Store, scope: Scope, question: str,
               now: datetime | None = None) -> CacheHit | None:
        """The cached answer for ``question``, or None (a miss)."""
        if now is not None:
            for old in [e for e in self._entries.get(scope, []) if now - e.at > self.max_age]:
                self._drop(scope, old)
        entries = self._entries.get(scope, [])
        if entries:
            vec = _unit(self.embed(question))
            ranked = sorted(((float(vec @ e.vector), e) for e in entries),
                            key=lambda x: -x[0])
            for sim, entry in ranked:
                if sim < self.threshold:
                    break
                if not same_ask(question, entry.question):
                    continue
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


def words(text: str) -> set[str]:
    return set(tokenize(text, keep_stopwords=True)) | {ch for ch in text if is_cjk(ch)}


def same_ask(a: str, b: str) -> bool:
    """The two questions use the same words, politeness fillers aside."""
    return (words(a) ^ words(b)) <= FILLERS


def _unit(vec: np.ndarray) -> np.ndarray:
    v = np.asarray(vec, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v

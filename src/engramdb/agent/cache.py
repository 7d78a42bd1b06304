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
``invalidate`` does it at once.

Each answer is also linked to the pending items and lessons it relied on (``links``: the
agent passes those its prompt showed, in the memory context or the cognitive state's open
questions and reflections, whether or not the focus picked them). When one of them closes (it
is done or dropped: forgotten, superseded, retired to the archive by sleep, or changed), every
answer linked to it is dropped at the next ``lookup`` of the scope (``sweep``), before any
question is compared: an answer about what is still to do never outlives the item.

Only answers of turns that ran read-only tools (``pure``) are put in the cache. An answer
older than ``max_age`` (default one day, by the Memory's clock) is dropped too. ``hits`` and
``misses`` are counted."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ..model import Kind, Layer, Record, Scope
from ..store.protocol import Store
from ..text.tokenize import is_cjk, tokenize

THRESHOLD = 0.8
FILLERS = frozenset({
    "please", "pleas", "tell", "me", "again", "can", "could", "would", "you", "know", "do",
    "请", "告", "诉", "告诉", "一", "下", "一下", "吗", "呢", "吧", "能", "可", "以", "可以", "再",
    "你"})
CAPACITY = 256  # answers kept per scope; the oldest goes first
MAX_AGE = timedelta(days=1)
LINKED = frozenset({Kind.PENDING, Kind.LESSON})   # what an answer is linked to (``links``)


@dataclass(eq=False)
class Entry:
    question: str
    vector: np.ndarray
    answer: str
    supports: dict[str, int]   # memory id -> version it had when the answer was given
    at: datetime
    links: dict[str, int] = field(default_factory=dict)  # pending items and lessons relied on


@dataclass(frozen=True)
class CacheHit:
    question: str             # the earlier question
    answer: str
    similarity: float
    supports: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)   # the pending items and lessons


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
        self.sweep(store, scope)
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
                    return CacheHit(entry.question, entry.answer, sim, list(entry.supports),
                                    list(entry.links))
                self._drop(scope, entry)
        self.misses += 1
        return None

    def put(self, scope: Scope, question: str, answer: str, supports: Mapping[str, int],
            at: datetime, links: Mapping[str, int] | None = None) -> None:
        """Keep ``answer``; ``supports`` and ``links``: memory id -> its version then."""
        entries = self._entries.setdefault(scope, [])
        entries.append(Entry(question, _unit(self.embed(question)), answer, dict(supports), at,
                             dict(links or {})))
        del entries[:-self.capacity]

    def sweep(self, store: Store, scope: Scope) -> int:
        """Drop every answer of the scope linked to a pending item or lesson that has closed
        since; how many were dropped."""
        entries = self._entries.get(scope, [])
        linked = list({mid for e in entries for mid in e.links})
        if not linked:
            return 0
        found = store.get_many(scope, linked)
        gone = [e for e in entries if any(not _open(found.get(mid), version)
                                          for mid, version in e.links.items())]
        for entry in gone:
            self._drop(scope, entry)
        return len(gone)

    def links(self, scope: Scope, memory_id: str) -> list[str]:
        """The cached questions of the scope whose answers are linked to ``memory_id``."""
        return [e.question for e in self._entries.get(scope, []) if memory_id in e.links]

    def invalidate(self, scope: Scope, memory_id: str) -> int:
        """Drop every answer of the scope that used or was linked to ``memory_id``; how many
        were dropped."""
        gone = [e for e in self._entries.get(scope, [])
                if memory_id in e.supports or memory_id in e.links]
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


def _open(rec: Record | None, version: int) -> bool:
    """A linked memory still as it was: there, current, in core, at the same version."""
    return (rec is not None and rec.current and rec.layer == Layer.CORE
            and rec.version == version)


def linkable(rec: Record) -> bool:
    """A memory an answer is linked to: a current pending item or lesson in core."""
    return rec.kind in LINKED and rec.current and rec.layer == Layer.CORE


def words(text: str) -> set[str]:
    return set(tokenize(text, keep_stopwords=True)) | {ch for ch in text if is_cjk(ch)}


def same_ask(a: str, b: str) -> bool:
    """The two questions use the same words, politeness fillers aside."""
    return (words(a) ^ words(b)) <= FILLERS


def _unit(vec: np.ndarray) -> np.ndarray:
    v = np.asarray(vec, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v

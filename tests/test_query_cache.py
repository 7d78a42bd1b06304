"""Query vectors are remembered by their text (embed/querycache.py): a repeated question
costs no model call, the answer is the same, and a cached vector cannot be changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb.embed.hashing import HashingEmbedder
from engramdb.embed.querycache import QueryCache
from engramdb.errors import ConfigError


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_batch(self, texts: Any, *, query: bool = False) -> np.ndarray:
        if query:
            self.queries.extend(texts)
        return super().embed_batch(texts, query=query)


def test_a_repeated_question_is_embedded_once(tmp_path: Path) -> None:
    model = CountingEmbedder()
    with engramdb.open(tmp_path / "m.db", embedder=model) as mem:
        mem.remember("Li moved to Oslo in 2021", kind="fact")
        mem.remember("李雷喜欢喝乌龙茶", kind="preference")
        first = [h.memory.id for h in mem.recall("where does Li live?", track=False)]
        again = [h.memory.id for h in mem.recall("where does Li live?", track=False)]
        zh = [h.memory.id for h in mem.recall("李雷喜欢什么茶？", track=False)]
        zh_again = [h.memory.id for h in mem.recall("李雷喜欢什么茶？", track=False)]
    assert first == again and zh == zh_again
    assert model.queries.count("where does Li live?") == 1
    assert model.queries.count("李雷喜欢什么茶？") == 1


def test_cache_off_embeds_every_time(tmp_path: Path) -> None:
    model = CountingEmbedder()
    with engramdb.open(tmp_path / "m.db", embedder=model, query_cache=0) as mem:
        mem.remember("Standup is at 9:30", kind="fact")
        for _ in range(3):
            mem.recall("when is standup?", track=False)
    assert model.queries.count("when is standup?") == 3


def test_least_recently_used_goes_first_and_vectors_are_read_only() -> None:
    calls: list[str] = []

    def embed(text: str) -> np.ndarray:
        calls.append(text)
        return np.full(4, float(len(calls)), dtype=np.float32)

    cache = QueryCache(embed, size=2)
    a = cache("a")
    cache("b")
    cache("a")          # a is now the most recent
    cache("c")          # b goes
    cache("a")
    cache("b")          # b again: a model call
    assert calls == ["a", "b", "c", "b"]
    assert (cache.hits, cache.misses) == (2, 4)
    with pytest.raises(ValueError):
        a[0] = 9.0


@pytest.mark.parametrize("bad", [-1, True, 1.5, "512", 2_000_000])
def test_bad_query_cache_setting(bad: Any) -> None:
    with pytest.raises(ConfigError, match="query_cache"):
        engramdb.Config(query_cache=bad)


def test_bad_query_cache_from_the_environment(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAMDB_QUERY_CACHE", "many")
    with pytest.raises(ConfigError, match="bad setting"):
        engramdb.open(tmp_path / "m.db", embedder="hashing")
    assert not (tmp_path / "m.db").exists()

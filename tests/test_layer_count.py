"""The scope's size that recall's relevance reads (SQLiteStore.layer_count), and whether it
holds any memory in some layers (``layer_held``, what waking asks), kept between recalls: they
must be what ``count`` and ``list`` with a layer filter find after every kind of change, from
this connection or another one, and inside a transaction."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Layer, Scope
from engramdb.store.protocol import ListFilter
from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import FrozenClock
from test_store_fast_paths import sentence

LAYER_SETS = [[Layer.CORE], [Layer.ARCHIVED], [Layer.CORE, Layer.ARCHIVED], [Layer.DELETED],
              [Layer.DELETED, Layer.CORE, Layer.ARCHIVED]]


def assert_counts(store: SQLiteStore, *scopes: Scope) -> None:
    for scope in scopes:
        for layers in LAYER_SETS:
            for _ in range(2):   # counted, then kept: both the same as count
                assert store.layer_count(scope, layers) == store.count(
                    scope, ListFilter(layers=tuple(layers))), (scope, layers)
                assert store.layer_held(scope, layers) == (next(store.list(
                    scope, ListFilter(layers=tuple(layers), limit=1)), None) is not None)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def test_layer_count_follows_every_change(tmp_path, clock):  # type: ignore[no-untyped-def]
    rng = random.Random(3)
    path = tmp_path / "m.db"
    ann, ben, nobody = Scope("ann", "default"), Scope("ben", "default"), Scope("x", "y")
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        store = mem.store
        assert isinstance(store, SQLiteStore)
        assert_counts(store, ann, ben, nobody)   # empty: all zero
        for user in ("ann", "ben"):
            mem.remember_many([sentence(rng) for _ in range(60)], user=user)
        assert_counts(store, ann, ben, nobody)
        ids = [r.id for r in mem.list(user="ann")]
        mem.remember("王伟下周去北京开预算会议", user="ann")   # one write, one new row
        assert_counts(store, ann, ben)
        for memory_id in ids[:6]:
            mem.forget(memory_id, user="ann")                # soft: core -> deleted
        assert_counts(store, ann, ben)
        mem.forget(ids[6], hard=True, user="ann")            # erased: its text index goes
        assert_counts(store, ann, ben)
        mem.recall("Berlin budget", user="ann")              # a tracked recall: uses only
        assert_counts(store, ann, ben)
        clock.advance(days=3000)
        mem.sleep(user="ann")                                # decay archives weak memories
        assert store.count(ann, ListFilter(layers=(Layer.ARCHIVED,))) > 0
        assert_counts(store, ann, ben)
        with engramdb.open(path, embedder="hashing", clock=clock) as other:  # another writer
            other.remember_many([sentence(rng) for _ in range(7)], user="ann")
            for memory_id in ids[:3]:
                other.restore(memory_id, user="ann")
        assert_counts(store, ann, ben)
        mem.forget_scope(user="ben")
        assert_counts(store, ann, ben)
        with store.transaction():   # inside a transaction: counted, as the table is now
            mem.remember("one more inside a transaction", user="ann")
            assert_counts(store, ann)
        assert_counts(store, ann)


class Plain:
    """The store without its kept counts: one text search per term, a count per recall."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name in ("term_counts", "layer_count"):
            raise AttributeError(name)
        return getattr(self._store, name)


def test_recall_the_same_without_the_kept_counts(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Expansion's words and relevance's IDF, hence whole recalls, are the same from the
    postings' counts and the kept scope size as from a search per word and a count."""
    from engramdb.recall.expand import feedback_terms
    from engramdb.recall.plan import plan_query
    from engramdb.recall.relevance import query_terms

    rng = random.Random(9)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        mem.remember_many([sentence(rng) for _ in range(300)], user="ann")
        for text in ["王伟和李娜在北京讨论预算", "李娜的预算会议改到上海",
                     "王伟 prefers the Berlin office for the 预算 review"]:
            mem.remember(text, user="ann")
        store, ann = mem.store, Scope("ann", "default")
        assert isinstance(store, SQLiteStore)
        plain = Plain(store)
        expanded = 0
        for query in ["Berlin budget meeting", "where does Alice live", "王伟 预算", "北京 会议",
                      "review in Paris", "birthday sushi", "nothing matches zzzz"]:
            plan = plan_query(query, (), clock.now())
            found = store.search_text(ann, plan.tokens, {"body": 1.0}, 50, [Layer.CORE])
            fused = {mid: 1.0 / (60 + rank) for rank, (mid, _) in enumerate(found, start=1)}
            if fused:
                words = feedback_terms(store, ann, plan, fused)
                assert words == feedback_terms(plain, ann, plan, fused)  # type: ignore[arg-type]
                expanded += bool(words)
            fast = query_terms(store, ann, plan.tokens, plan.layers)
            slow = query_terms(plain, ann, plan.tokens, plan.layers)  # type: ignore[arg-type]
            assert fast.idf == slow.idf
        assert expanded > 0   # some query did expand

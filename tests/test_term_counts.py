"""Document frequencies for recall's relevance in one pass (SQLiteStore.term_counts): each
term's count must be what one text search per term counts, through every kind of change, in
both languages, for terms FTS5 reads as one token and for those it splits."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Layer, Scope
from engramdb.recall.relevance import DF_CAP, query_terms
from engramdb.store.sqlite.store import SQLiteStore
from engramdb.testing import FrozenClock
from engramdb.text import tokenize
from test_store_fast_paths import LAYERS, QUERIES, sentence

EVERY = {"body": 1.0, "anchors": 1.0, "context": 1.0}
EXTRA = ["e-mail", "don't", "O'Brien", "東京タワー", "会议室", "zzzz", "Berlin", "x", ""]


def per_term(store: SQLiteStore, scope: Scope, terms: list[str], cap: int,
             layers: list[Layer]) -> dict[str, int]:
    return {t: len(store.search_text(scope, [t], EVERY, cap, layers)) for t in terms}


def assert_counts(store: SQLiteStore, scope: Scope) -> int:
    """Compare for every query's terms; returns how many the postings answered at once."""
    answered = 0
    for query in [*QUERIES, *EXTRA]:
        terms = list(dict.fromkeys([*tokenize(query), query.lower()]))
        for layers in LAYERS:
            for cap in (1, 3, DF_CAP):
                got = store.term_counts(scope, terms, cap, layers)
                assert list(got) == terms
                assert got == per_term(store, scope, terms, cap, layers), (query, layers, cap)
                answered += store._text.doc_counts(
                    scope.user, scope.agent, store_token(scope), terms,
                    {lay.value for lay in layers}, cap) is not None
    return answered


def store_token(scope: Scope) -> str:
    from engramdb.store.sqlite.search import scope_token

    return scope_token(scope)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def test_term_counts_match_one_search_per_term(tmp_path, clock):  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        for user in ("ann", "ben"):
            mem.remember_many([sentence(rng) for _ in range(120)], user=user)
        store, ann = mem.store, Scope("ann", "default")
        assert isinstance(store, SQLiteStore)
        assert assert_counts(store, ann) > 0   # the postings answered
        ids = [r.id for r in mem.list(user="ann")]
        for memory_id in ids[:15]:
            mem.forget(memory_id, user="ann")
        for memory_id in ids[15:30]:
            mem.update(memory_id, content="Berlin 预算 review " + sentence(rng).content,
                       user="ann")
        assert_counts(store, ann)
        with engramdb.open(path, embedder="hashing", clock=clock) as other:  # another writer
            other.remember_many([sentence(rng) for _ in range(25)], user="ann")
            for memory_id in ids[:5]:
                other.restore(memory_id, user="ann")
        assert_counts(store, ann)
        assert_counts(store, Scope("nobody", "default"))   # an empty scope: all zero
        with store.transaction():   # in a transaction the postings step aside
            assert store.term_counts(ann, ["berlin"], 5, [Layer.CORE]) == per_term(
                store, ann, ["berlin"], 5, [Layer.CORE])


def test_query_terms_idf_unchanged_without_the_fast_path(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Relevance's IDF is the same from term_counts as from a store without it."""
    rng = random.Random(5)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        mem.remember_many([sentence(rng) for _ in range(200)], user="ann")
        store, ann = mem.store, Scope("ann", "default")

        class Plain:   # the store without term_counts: one search per term
            def __getattr__(self, name: str) -> object:
                if name == "term_counts":
                    raise AttributeError(name)
                return getattr(store, name)

        layers = (Layer.CORE,)
        for query in QUERIES:
            tokens = tokenize(query)
            fast = query_terms(store, ann, tokens, layers)
            plain = query_terms(Plain(), ann, tokens, layers)  # type: ignore[arg-type]
            assert fast.idf == plain.idf and fast.total == plain.total

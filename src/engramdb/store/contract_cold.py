"""The store contract's cold tier (store/cold.py): a save to layer ``cold`` takes the memory out
of every hot search and keeps it whole (record, log, vector, passages) in the cold tier, where
a search that names ``Layer.COLD`` finds it; a save to another layer brings it back."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from ..model import Layer
from .contract_kit import ALICE, ANCHORS, BOB, BODY, T0, make_record, unit
from .protocol import IndexText, ListFilter

EVERY_HOT = [Layer.CORE, Layer.ARCHIVED, Layer.DELETED]


def _ids(found: list[tuple[str, float]]) -> list[str]:
    return [i for i, _ in found]


class ColdContract:
    def test_cold_leaves_hot_search_and_comes_back(self, store):  # type: ignore[no-untyped-def]
        for n in (1, 2, 3):
            store.insert(make_record(n), IndexText(f"berlin trip {n}", "wang"), unit(n))
        rec = make_record(2)
        store.save(rec.replace(layer=Layer.ARCHIVED, version=2), "archive")
        store.save(rec.replace(layer=Layer.COLD, version=3), "freeze")
        assert store.get(ALICE, rec.id).layer == Layer.COLD          # the record stays
        assert [e.op for e in store.events(ALICE, rec.id)] == ["create", "archive", "freeze"]
        assert rec.id not in _ids(store.search_text(ALICE, ["berlin"], BODY, 10, EVERY_HOT))
        assert rec.id not in _ids(store.search_vector(ALICE, unit(2), 10, EVERY_HOT))
        assert _ids(store.search_text(ALICE, ["wang"], ANCHORS, 5, [Layer.COLD])) == [rec.id]
        assert _ids(store.search_vector(ALICE, unit(2), 1, [Layer.COLD])) == [rec.id]
        both = store.search_vector(ALICE, unit(2), 3, [Layer.CORE, Layer.COLD])
        assert _ids(both)[0] == rec.id and len(both) == 3
        assert np.allclose(store.vectors(ALICE, [rec.id])[rec.id], unit(2))
        assert store.search_vector(BOB, unit(2), 5, [Layer.COLD]) == []   # scoped
        assert store.count(ALICE, ListFilter(layers=(Layer.COLD,))) == 1
        store.save(rec.replace(layer=Layer.CORE, version=4), "wake")
        assert store.search_text(ALICE, ["wang"], ANCHORS, 5, [Layer.COLD]) == []
        assert rec.id in _ids(store.search_text(ALICE, ["berlin"], BODY, 10, [Layer.CORE]))
        assert _ids(store.search_vector(ALICE, unit(2), 1, [Layer.CORE])) == [rec.id]

    def test_cold_keeps_passages_and_new_text(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(4)
        store.insert(rec, IndexText("long text", ""), unit(4))
        assert store.put_passages(ALICE, rec.id, np.stack([unit(40), unit(41)]))
        store.save(rec.replace(layer=Layer.COLD, version=2), "freeze")
        assert store.passages(ALICE, [rec.id])[rec.id].shape == (2, 8)
        assert _ids(store.search_vector(ALICE, unit(41), 1, [Layer.COLD])) == [rec.id]
        # an edit while cold stays cold, with its new words
        store.save(rec.replace(layer=Layer.COLD, version=3, content="新的内容"), "update",
                   IndexText("北京 旅行", ""), unit(5))
        assert _ids(store.search_text(ALICE, ["北京"], BODY, 5, [Layer.COLD])) == [rec.id]
        assert store.search_text(ALICE, ["long"], BODY, 5, [Layer.COLD]) == []
        assert store.search_text(ALICE, ["北京"], BODY, 5, EVERY_HOT) == []
        store.save(rec.replace(layer=Layer.CORE, version=4), "restore")
        assert _ids(store.search_text(ALICE, ["北京"], BODY, 5, [Layer.CORE])) == [rec.id]
        assert np.allclose(store.vectors(ALICE, [rec.id])[rec.id], unit(5))

    def test_archived_before_reads_the_last_change(self, store):  # type: ignore[no-untyped-def]
        old = make_record(1, layer=Layer.ARCHIVED)
        new = make_record(2, layer=Layer.ARCHIVED, updated_at=T0 + timedelta(days=30))
        store.insert(old, IndexText("a", ""), unit(1))
        store.insert(new, IndexText("b", ""), unit(2))
        store.insert(make_record(3), IndexText("c", ""), unit(3))   # core: never
        assert store.archived_before(ALICE, T0 + timedelta(days=1), 10) == [old.id]
        assert store.archived_before(ALICE, T0 + timedelta(days=31), 10) == [old.id, new.id]
        assert store.archived_before(ALICE, T0 + timedelta(days=31), 1) == [old.id]
        assert store.archived_before(BOB, T0 + timedelta(days=31), 10) == []

    def test_dropping_a_scope_drops_its_cold_tier(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1, layer=Layer.COLD)
        store.insert(rec, IndexText("berlin", ""), unit(1))   # imported cold: cold at once
        assert _ids(store.search_text(ALICE, ["berlin"], BODY, 5, [Layer.COLD])) == [rec.id]
        assert store.search_text(ALICE, ["berlin"], BODY, 5, EVERY_HOT) == []
        store.drop_scope(ALICE, T0)
        assert store.search_vector(ALICE, unit(1), 5, [Layer.COLD]) == []

    def test_the_cold_tier_ranks_as_the_hot_index(self, store):  # type: ignore[no-untyped-def]
        words = ["berlin trip", "office move", "berlin berlin team", "harbin ice trip",
                 "北京 旅行", "tea", "garden", "river walk", "berlin wall history", "cake",
                 "北京 烤鸭", "piano"]
        for n, text in enumerate(words, start=1):
            store.insert(make_record(n), IndexText(text, "wang" if n % 3 else "anna"), unit(n))
        weights = {"body": 1.0, "anchors": 0.5}
        asks = (["berlin", "anna"], ["北京", "trip"], ["wang"])
        hot = [store.search_text(ALICE, q, weights, 5, [Layer.CORE]) for q in asks]
        near = [store.search_vector(ALICE, unit(n), 4, [Layer.CORE]) for n in (1, 5, 9)]
        for n in range(1, len(words) + 1):
            store.save(make_record(n, layer=Layer.COLD, version=2), "freeze")
        for q, before in zip(asks, hot, strict=True):
            cold = store.search_text(ALICE, q, weights, 5, [Layer.COLD])
            assert _ids(cold) == _ids(before)
            assert np.allclose([s for _, s in cold], [s for _, s in before])
        for n, before in zip((1, 5, 9), near, strict=True):
            cold = store.search_vector(ALICE, unit(n), 4, [Layer.COLD])
            assert _ids(cold) == _ids(before)
            assert np.allclose([s for _, s in cold], [s for _, s in before], atol=1e-6)

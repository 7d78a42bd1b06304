"""The store contract for a long memory's passage vectors (store/passages.py,
postgres/passages.py): part of StoreContract."""

from __future__ import annotations

import numpy as np

from ..model import Layer
from .contract_kit import ALICE, BOB, T0, make_record, unit
from .protocol import IndexText

CORE = (Layer.CORE,)


def _ids(hits: list[tuple[str, float]]) -> list[str]:
    return [mid for mid, _ in hits]


class PassageContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    def _two(self, store):  # type: ignore[no-untyped-def]
        store.bind_embedder("test", 8)
        long, short = make_record(1), make_record(2)
        store.insert(long, IndexText("memori 1", ""), unit(1))
        store.insert(short, IndexText("memori 2", ""), unit(2))
        assert store.put_passages(ALICE, long.id, np.vstack([unit(3), unit(4)]))
        return long, short

    def test_scored_by_the_best_passage(self, store):  # type: ignore[no-untyped-def]
        long, short = self._two(store)
        got = store.passages(ALICE, [long.id, short.id])
        assert list(got) == [long.id] and np.allclose(got[long.id], [unit(3), unit(4)])
        for query in (unit(3), unit(4)):
            hits = store.search_vector(ALICE, query, 2, CORE)
            assert hits[0][0] == long.id
            assert abs(hits[0][1] - float(np.dot(query, query))) < 1e-5
        many = store.search_vector_many(ALICE, np.vstack([unit(4), unit(2)]), 2, CORE)
        assert many == [store.search_vector(ALICE, unit(4), 2, CORE),
                        store.search_vector(ALICE, unit(2), 2, CORE)]
        assert _ids(many[1])[0] == short.id
        assert store.search_vector(BOB, unit(3), 2, CORE) == []
        assert store.passages(BOB, [long.id]) == {}

    def test_a_new_vector_drops_them_the_same_keeps_them(self, store):  # type: ignore[no-untyped-def]
        long, _ = self._two(store)
        store.save(long.replace(importance=0.9), "update", None, unit(1))   # the same vector
        assert long.id in store.passages(ALICE, [long.id])
        store.save(long.replace(content="memory one", version=2), "update",
                   IndexText("memori one", ""), unit(5))
        assert store.passages(ALICE, [long.id]) == {}
        scores = dict(store.search_vector(ALICE, unit(3), 2, CORE))
        assert abs(scores[long.id] - float(np.dot(unit(3), unit(5)))) < 1e-5   # its own alone

    def test_pending_erase_and_dropped_scope_remove_them(self, store):  # type: ignore[no-untyped-def]
        long, short = self._two(store)
        store.add_pending(ALICE, {long.id: False})
        assert store.passages(ALICE, [long.id]) == {}
        assert not store.put_passages(ALICE, long.id, np.vstack([unit(3)]))   # no vector
        assert store.finish_pending(ALICE, {long.id: unit(1)}) == [long.id]
        assert store.put_passages(ALICE, long.id, np.vstack([unit(3)]))
        store.erase(long.scrubbed().replace(layer=Layer.DELETED, version=2), actor="user")
        assert store.passages(ALICE, [long.id]) == {}
        assert _ids(store.search_vector(ALICE, unit(3), 5, list(Layer))) == [short.id]
        assert store.put_passages(ALICE, short.id, np.vstack([unit(6), unit(7)]))
        store.put_passages(ALICE, short.id, np.vstack([unit(7)]))           # replaced
        assert np.allclose(store.passages(ALICE, [short.id])[short.id], [unit(7)])
        store.drop_scope(ALICE, T0)
        assert store.passages(ALICE, [long.id, short.id]) == {}
        assert store.search_vector(ALICE, unit(7), 5, CORE) == []

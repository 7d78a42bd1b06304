"""The store contract for pending vectors (``Config.embed = "deferred"``): part of
StoreContract."""

from __future__ import annotations

import numpy as np

from ..model import Layer
from .contract_kit import ALICE, BOB, T0, make_record, unit
from .protocol import IndexText, Pending


class PendingContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    def test_pending_until_finished(self, store):  # type: ignore[no-untyped-def]
        store.bind_embedder("test", 8)
        with store.transaction():
            for n in (1, 2):
                store.insert(make_record(n), IndexText(f"memori {n}", ""), None)
            store.add_pending(ALICE, {make_record(1).id: True, make_record(2).id: False})
        store.insert(make_record(3, BOB), IndexText("memori 3", ""), None)
        store.add_pending(BOB, {make_record(3, BOB).id: False})
        assert store.pending(10) == [Pending(ALICE, make_record(1).id, True),
                                     Pending(ALICE, make_record(2).id, False),
                                     Pending(BOB, make_record(3, BOB).id, False)]
        assert store.pending(1) == store.pending(10)[:1]
        assert (store.pending_count(), store.pending_count(ALICE)) == (3, 2)
        done = store.finish_pending(ALICE, {make_record(1).id: unit(1)}, [make_record(2).id])
        assert done == [make_record(1).id]
        assert store.pending(10) == [Pending(BOB, make_record(3, BOB).id, False)]
        found = store.vectors(ALICE, [make_record(1).id, make_record(2).id])
        assert list(found) == [make_record(1).id]
        assert np.allclose(found[make_record(1).id], unit(1))
        hits = store.search_vector(ALICE, unit(1), 5, (Layer.CORE,))
        assert [mid for mid, _ in hits] == [make_record(1).id]

    def test_a_pending_memory_loses_its_old_vector(self, store):  # type: ignore[no-untyped-def]
        store.bind_embedder("test", 8)
        rec = make_record(1)
        store.insert(rec, IndexText("memori 1", ""), unit(1))
        store.add_pending(ALICE, {rec.id: False})
        assert store.vectors(ALICE, [rec.id]) == {}
        assert store.search_vector(ALICE, unit(1), 5, (Layer.CORE,)) == []

    def test_finishing_twice_stores_once(self, store):  # type: ignore[no-untyped-def]
        store.bind_embedder("test", 8)
        rec = make_record(1, updated_at=T0)
        store.insert(rec, IndexText("memori 1", ""), None)
        store.add_pending(ALICE, {rec.id: True})
        assert store.finish_pending(ALICE, {rec.id: unit(1)}) == [rec.id]
        assert store.finish_pending(ALICE, {rec.id: unit(2)}) == []   # no longer pending
        assert np.allclose(store.vectors(ALICE, [rec.id])[rec.id], unit(1))
        assert store.finish_pending(BOB, {rec.id: unit(2)}) == []     # another scope's id
        assert store.pending_count() == 0

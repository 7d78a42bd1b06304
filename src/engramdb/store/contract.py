"""The store contract: behaviour every Store backend must show, as pytest tests.

Subclass ``StoreContract`` in a test module and give it a ``store`` fixture yielding a fresh,
empty store (SQLite today, PostgreSQL later)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from ..model import Kind, Layer, Lifecycle, Priority, Record, Scope
from .base import IndexText, ListFilter

T0 = datetime(2026, 1, 1, tzinfo=UTC)
ALICE = Scope("alice", "noah")
BOB = Scope("bob", "noah")


def make_record(n: int, scope: Scope = ALICE, **changes: object) -> Record:
    rec = Record(
        id=f"01TEST{n:020d}", user=scope.user, agent=scope.agent, content=f"memory {n}",
        kind=Kind.FACT, uri=None, priority=Priority.P2, lifecycle=Lifecycle.CONTEXTUAL,
        importance=0.5, at=T0 + timedelta(days=n), recorded_at=T0, updated_at=T0,
        content_hash=f"h{n}",
    )
    return rec.replace(**changes)


def unit(seed: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


class StoreContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    def test_insert_get_roundtrip(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1, metadata={"dia_id": "D1:3", "nested": {"a": [1, 2]}},
                          people=["Li"], uri="core://user/name")
        store.insert(rec, IndexText("memori 1", "li"), unit(1))
        got = store.get(ALICE, rec.id)
        assert got == rec
        assert store.get_by_uri(ALICE, "core://user/name") == rec

    def test_scope_isolation(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("berlin", ""), unit(1))
        store.insert(make_record(2, BOB), IndexText("berlin", ""), unit(2))
        assert store.get(BOB, make_record(1).id) is None
        assert [i for i, _ in store.search_text(BOB, ["berlin"], "body", 10, [Layer.CORE])] == [
            make_record(2, BOB).id]
        assert [i for i, _ in store.search_vector(BOB, unit(1), 10, [Layer.CORE])] == [
            make_record(2, BOB).id]
        assert [r.id for r in store.list(BOB, ListFilter())] == [make_record(2, BOB).id]

    def test_text_and_vector_search_rank(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("berlin berlin live", ""), unit(1))
        store.insert(make_record(2), IndexText("oslo live", ""), unit(2))
        text = store.search_text(ALICE, ["berlin", "live"], "body", 10, [Layer.CORE])
        assert [i for i, _ in text] == [make_record(1).id, make_record(2).id]
        vec = store.search_vector(ALICE, unit(2), 10, [Layer.CORE])
        assert vec[0][0] == make_record(2).id and abs(vec[0][1] - 1.0) < 1e-5

    def test_save_logs_versions_and_reindexes(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        new = rec.replace(content="oslo", version=2)
        store.save(new, "update", IndexText("oslo", ""), unit(2))
        assert store.search_text(ALICE, ["berlin"], "body", 10, [Layer.CORE]) == []
        assert store.search_vector(ALICE, unit(2), 1, [Layer.CORE])[0][0] == rec.id
        assert [e.op for e in store.events(ALICE, rec.id)] == ["create", "update"]
        assert store.events(ALICE, rec.id)[0].snapshot.content == "memory 1"

    def test_layers_filter_search(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        store.save(rec.replace(layer=Layer.DELETED, version=2), "forget")
        assert store.search_text(ALICE, ["berlin"], "body", 10, [Layer.CORE]) == []
        assert store.search_vector(ALICE, unit(1), 10, [Layer.CORE]) == []
        assert store.count(ALICE, ListFilter(layers=(Layer.DELETED,))) == 1

    def test_uses_are_debounced(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("x", ""), unit(1))
        assert store.record_uses(ALICE, [rec.id], T0, 60) == 1
        assert store.record_uses(ALICE, [rec.id], T0 + timedelta(seconds=30), 60) == 0
        assert store.record_uses(ALICE, [rec.id], T0 + timedelta(seconds=90), 60) == 1
        assert store.get(ALICE, rec.id).use_count == 2

    def test_transaction_rolls_back(self, store):  # type: ignore[no-untyped-def]
        try:
            with store.transaction():
                store.insert(make_record(1), IndexText("x", ""), unit(1))
                raise RuntimeError("boom")
        except RuntimeError:
            pass
        assert store.get(ALICE, make_record(1).id) is None
        assert store.search_vector(ALICE, unit(1), 5, [Layer.CORE]) == []

    def test_uri_prefix_and_time_filters(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1, uri="core://user/name"), IndexText("a", ""), unit(1))
        store.insert(make_record(2, uri="core://user/city"), IndexText("b", ""), unit(2))
        store.insert(make_record(3, uri="knowledge://stack"), IndexText("c", ""), unit(3))
        got = [r.uri for r in store.list(ALICE, ListFilter(uri_prefix="core://user/"))]
        assert got == ["core://user/name", "core://user/city"]
        since = T0 + timedelta(days=2)
        assert [r.uri for r in store.list(ALICE, ListFilter(since=since))] == [
            "core://user/city", "knowledge://stack"]

"""The store contract for the event log, uses, erasing, dropping a scope and the embedder
binding (part of StoreContract)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ..errors import EngramError, StoreError
from ..model import (
    Layer,
    Priority,
    Scope,
)
from .contract_kit import (
    ALICE,
    BOB,
    BODY,
    T0,
    make_record,
    unit,
)
from .protocol import Event, IndexText, ListFilter


class LogContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    # ---------------------------------------------------------------- the log and uses

    def test_every_write_is_logged_in_order(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("x", ""), unit(1))
        store.record_uses(ALICE, [rec.id], T0 + timedelta(hours=1), 60)
        v2 = rec.replace(content="changed", version=2, updated_at=T0 + timedelta(hours=2))
        store.save(v2, "update", IndexText("changed", ""), unit(2))
        events = store.events(ALICE, rec.id)
        assert [(e.op, e.version) for e in events] == [("create", 1), ("use", 1), ("update", 2)]
        assert [e.snapshot is None for e in events] == [False, True, False]
        assert events[2].snapshot.content == "changed"
        assert events[2].at == T0 + timedelta(hours=2)
        assert [e.seq for e in events] == sorted(e.seq for e in events)
        assert store.event_count(ALICE) == 3

    def test_uses_keep_the_last_eight_times(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("x", ""), unit(1))
        times = [T0 + timedelta(minutes=2 * i) for i in range(10)]
        for when in times:
            assert store.record_uses(ALICE, [rec.id, rec.id], when, 60) == 1
        got = store.get(ALICE, rec.id)
        assert got.use_count == 10
        assert got.last_uses == times[-8:]
        assert got.version == rec.version  # a use is not a new version

    def test_import_keeps_the_given_log(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1, version=2, content="v2")
        events = [
            Event(0, rec.id, "create", 1, T0, rec.replace(version=1, content="v1")),
            Event(0, rec.id, "use", 1, T0 + timedelta(hours=1), None),
            Event(0, rec.id, "update", 2, T0 + timedelta(hours=2), rec),
        ]
        store.import_record(rec, IndexText("v2", ""), unit(1), events)
        got = store.events(ALICE, rec.id)
        assert [(e.op, e.version, e.at) for e in got] == [(e.op, e.version, e.at) for e in events]
        assert [e.snapshot for e in got] == [e.snapshot for e in events]
        assert store.get(ALICE, rec.id) == rec
        assert [i for i, _ in store.search_text(ALICE, ["v2"], BODY, 5, [Layer.CORE])] == [
            rec.id]

    def test_events_carry_actor_and_reason(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("x", ""), unit(1), actor="user", reason="new_memory")
        store.save(rec.replace(layer=Layer.ARCHIVED, version=2), "archive", actor="sleep",
                   reason="weight 0.1 < 0.15")
        store.save(rec.replace(version=3), "update")
        got = [(e.op, e.actor, e.reason) for e in store.events(ALICE, rec.id)]
        assert got == [("create", "user", "new_memory"), ("archive", "sleep", "weight 0.1 < 0.15"),
                       ("update", None, None)]

    def test_import_keeps_actor_and_reason_and_may_skip_text(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        events = [Event(0, rec.id, "create", 1, T0, rec, actor="import", reason="from a file")]
        store.import_record(rec, None, None, events)
        assert [(e.actor, e.reason) for e in store.events(ALICE, rec.id)] == [
            ("import", "from a file")]
        assert store.get(ALICE, rec.id) == rec
        assert store.search_text(ALICE, ["memori"], BODY, 5, [Layer.CORE]) == []
        assert store.vectors(ALICE, [rec.id]) == {}

    def test_list_filters_by_priority(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1, priority=Priority.P0), IndexText("x", ""), unit(1))
        store.insert(make_record(2), IndexText("x", ""), unit(2))
        store.insert(make_record(3, priority=Priority.P3), IndexText("x", ""), unit(3))
        assert [r.id for r in store.list(ALICE, ListFilter(priorities=("P0", "P3")))] == [
            make_record(1).id, make_record(3).id]
        assert store.count(ALICE, ListFilter(priorities=("P1",))) == 0

    # ---------------------------------------------------------------- erasing

    def test_erase_leaves_a_tombstone_and_scrubs_the_log(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1, content="secret words", metadata={"k": "secret"}, people=["Li"])
        store.insert(rec, IndexText("secret word", "li"), unit(1))
        store.save(rec.replace(content="more secret words", version=2), "update",
                   IndexText("more secret word", "li"), unit(2))
        other = make_record(2, content="secret too")
        store.insert(other, IndexText("secret too", ""), unit(3))
        tomb = rec.replace(layer=Layer.DELETED, version=3).scrubbed()
        store.erase(tomb, actor="user", reason="asked")
        assert store.get(ALICE, rec.id) == tomb
        events = store.events(ALICE, rec.id)
        assert [(e.op, e.version) for e in events] == [("create", 1), ("update", 2), ("erase", 3)]
        assert [e.snapshot.content for e in events] == ["", "", ""]
        assert all(e.snapshot.metadata == {} and e.snapshot.people == [] for e in events)
        assert events[-1].snapshot == tomb and events[-1].reason == "asked"
        found = store.search_text(ALICE, ["secret", "li"], {"body": 1.0, "anchors": 1.0}, 10,
                                  list(Layer))
        assert [i for i, _ in found] == [other.id]
        assert [i for i, _ in store.search_vector(ALICE, unit(1), 10, list(Layer))] == [other.id]
        assert store.vectors(ALICE, [rec.id]) == {}
        assert store.get(ALICE, other.id) == other

    def test_erase_needs_a_tombstone_of_the_same_scope(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        with pytest.raises(EngramError):
            store.erase(rec.replace(version=2))  # still has content, not deleted
        with pytest.raises(EngramError):
            store.erase(rec.replace(user=BOB.user, layer=Layer.DELETED, version=2).scrubbed())
        assert store.get(ALICE, rec.id) == rec
        assert [e.op for e in store.events(ALICE, rec.id)] == ["create"]

    # ---------------------------------------------------------------- dropping a scope

    def test_drop_scope_removes_exactly_that_scope(self, store):  # type: ignore[no-untyped-def]
        mine = [make_record(1), make_record(2, layer=Layer.ARCHIVED),
                make_record(3, layer=Layer.DELETED)]
        for n, rec in enumerate(mine):
            store.insert(rec, IndexText("berlin", ""), unit(n))
        store.record_uses(ALICE, [mine[0].id], T0, 60)
        bobs = make_record(4, BOB)
        store.insert(bobs, IndexText("berlin", ""), unit(4))
        carol = Scope("alice", "other")
        store.insert(make_record(5, carol), IndexText("berlin", ""), unit(5))
        assert store.drop_scope(ALICE, T0, actor="user", reason="closed") == 3
        assert store.count(ALICE, ListFilter(layers=())) == 0
        assert store.search_text(ALICE, ["berlin"], BODY, 10, list(Layer)) == []
        assert store.search_vector(ALICE, unit(1), 10, list(Layer)) == []
        (audit,) = store.events(ALICE, "*")
        assert (audit.op, audit.snapshot, audit.actor, audit.reason, audit.at) == (
            "drop_scope", None, "user", "closed", T0)
        assert store.event_count(ALICE) == 1
        assert ALICE not in store.scopes()
        for scope, rec in ((BOB, bobs), (carol, make_record(5, carol))):
            assert store.get(scope, rec.id) == rec
            assert [i for i, _ in store.search_text(scope, ["berlin"], BODY, 5,
                                                    [Layer.CORE])] == [rec.id]
            assert len(store.search_vector(scope, unit(1), 5, [Layer.CORE])) == 1
            assert store.event_count(scope) == 1
        store.insert(make_record(6), IndexText("oslo", ""), unit(6))  # the scope starts afresh
        assert [i for i, _ in store.search_vector(ALICE, unit(6), 5, [Layer.CORE])] == [
            make_record(6).id]

    def test_drop_scope_rolls_back_with_its_transaction(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.drop_scope(ALICE, T0)
                raise RuntimeError("boom")
        assert store.get(ALICE, rec.id) == rec
        assert store.events(ALICE, "*") == []
        assert [i for i, _ in store.search_text(ALICE, ["berlin"], BODY, 5, [Layer.CORE])] == [
            rec.id]
        assert [i for i, _ in store.search_vector(ALICE, unit(1), 5, [Layer.CORE])] == [rec.id]

    # ---------------------------------------------------------------- the embedder binding

    def test_embedder_is_bound_once(self, store):  # type: ignore[no-untyped-def]
        assert store.embedder_info() is None
        store.bind_embedder("model-a", 8)
        store.bind_embedder("model-a", 8)
        assert store.embedder_info() == ("model-a", 8)
        with pytest.raises(StoreError, match="model-a") as err:
            store.bind_embedder("model-b", 8)
        assert "model-b" in str(err.value)
        with pytest.raises(StoreError):
            store.bind_embedder("model-a", 16)
        assert store.embedder_info() == ("model-a", 8)

"""The store contract for goals, API keys, links and sleep state (part of StoreContract)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ..errors import Conflict
from ..model import (
    ApiKey,
    GoalStatus,
    Layer,
    Role,
    Scope,
)
from .contract_kit import (
    ALICE,
    BOB,
    T0,
    make_goal,
    make_link,
    make_record,
    unit,
)
from .protocol import IndexText, SleepState


class TableContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    # ---------------------------------------------------------------- goals

    def test_goal_roundtrip_and_replace(self, store):  # type: ignore[no-untyped-def]
        goal = make_goal(1, constraints=["never touch prod", "不要推送到 main"],
                         evidence=["log line 3"], open_loops=["why flaky?"], parent="01P",
                         closed_at=T0 + timedelta(days=1), status=GoalStatus.DONE)
        store.put_goal(goal)
        assert store.get_goal(ALICE, goal.id) == goal
        store.put_goal(goal.replace(title="renamed", evidence=[]))
        assert store.get_goal(ALICE, goal.id) == goal.replace(title="renamed", evidence=[])
        assert store.get_goal(BOB, goal.id) is None
        assert store.get_goal(ALICE, "nope") is None

    def test_goals_list_by_status_oldest_first(self, store):  # type: ignore[no-untyped-def]
        store.put_goal(make_goal(2))
        store.put_goal(make_goal(1, status=GoalStatus.ACTIVE))
        store.put_goal(make_goal(3, status=GoalStatus.DONE))
        store.put_goal(make_goal(4, BOB, status=GoalStatus.ACTIVE))
        assert [g.id for g in store.list_goals(ALICE)] == [make_goal(n).id for n in (1, 2, 3)]
        assert [g.id for g in store.list_goals(ALICE, [GoalStatus.ACTIVE])] == [make_goal(1).id]
        assert len(store.list_goals(ALICE, [GoalStatus.PAUSED, GoalStatus.DONE])) == 2

    def test_one_active_goal_per_scope(self, store):  # type: ignore[no-untyped-def]
        store.put_goal(make_goal(1, status=GoalStatus.ACTIVE))
        store.put_goal(make_goal(3, BOB, status=GoalStatus.ACTIVE))  # another scope: fine
        with pytest.raises(Conflict):
            store.put_goal(make_goal(2, status=GoalStatus.ACTIVE))
        assert store.get_goal(ALICE, make_goal(2).id) is None
        store.put_goal(make_goal(1, status=GoalStatus.ACTIVE, title="same goal again"))

    def test_drop_goals_removes_exactly_that_scope(self, store):  # type: ignore[no-untyped-def]
        store.put_goal(make_goal(1))
        store.put_goal(make_goal(2))
        store.put_goal(make_goal(3, BOB))
        assert store.drop_goals(ALICE) == 2
        assert store.list_goals(ALICE) == []
        assert len(store.list_goals(BOB)) == 1
    # ---------------------------------------------------------------- API keys

    def test_keys_are_found_by_hash_and_listed_by_scope(self, store):  # type: ignore[no-untyped-def]
        a = ApiKey("k1", "alice", "noah", Role.WRITE, "laptop", T0)
        b = ApiKey("k2", "bob", "noah", Role.ADMIN, "ops 运维", T0 + timedelta(seconds=1))
        store.insert_key(a, "hash-a")
        store.insert_key(b, "hash-b")
        assert store.key_by_hash("hash-a") == a
        assert store.key_by_hash("hash-b") == b
        assert store.key_by_hash("hash-c") is None
        assert store.list_keys() == [a, b]
        assert store.list_keys(ALICE) == [a]
        assert store.list_keys(Scope("carol", "noah")) == []

    def test_a_key_id_or_hash_is_stored_once(self, store):  # type: ignore[no-untyped-def]
        store.insert_key(ApiKey("k1", "alice", "noah", Role.READ, "", T0), "hash-a")
        with pytest.raises(Conflict):
            store.insert_key(ApiKey("k1", "bob", "noah", Role.READ, "", T0), "hash-b")
        with pytest.raises(Conflict):
            store.insert_key(ApiKey("k2", "bob", "noah", Role.READ, "", T0), "hash-a")
        assert [k.id for k in store.list_keys()] == ["k1"]

    def test_revoking_a_key_keeps_its_first_time(self, store):  # type: ignore[no-untyped-def]
        store.insert_key(ApiKey("k1", "alice", "noah", Role.READ, "", T0), "hash-a")
        later = T0 + timedelta(days=1)
        revoked = store.revoke_key("k1", later)
        assert revoked is not None and revoked.revoked_at == later and not revoked.active
        again = store.revoke_key("k1", later + timedelta(days=1))
        assert again is not None and again.revoked_at == later
        assert store.key_by_hash("hash-a") == revoked
        assert store.revoke_key("nope", later) is None
    # ---------------------------------------------------------------- links

    def test_links_round_trip_and_upsert_keeps_creation(self, store):  # type: ignore[no-untyped-def]
        first = make_link(1, 2, "caused", 0.4, T0)
        store.put_link(first)
        assert store.get_link(ALICE, first.source, first.target, "caused") == first
        later = T0 + timedelta(days=1)
        store.put_link(make_link(1, 2, "caused", 0.7, later))
        got = store.get_link(ALICE, first.source, first.target, "caused")
        assert (got.weight, got.created_at, got.updated_at) == (0.7, T0, later)
        assert store.get_link(ALICE, first.target, first.source, "caused") is None
        assert store.link_count(ALICE) == 1

    def test_links_are_found_from_either_end_and_by_relation(self, store):  # type: ignore[no-untyped-def]
        store.put_link(make_link(1, 2, "caused", 0.9))
        store.put_link(make_link(3, 1, "related", 0.2))
        store.put_link(make_link(4, 5, "related", 0.5))
        ids = [(x.source, x.target) for x in store.links(ALICE, [make_record(1).id])]
        assert ids == [(make_record(1).id, make_record(2).id), (make_record(3).id,
                                                                make_record(1).id)]
        only = store.links(ALICE, [make_record(1).id], ["related"])
        assert [x.relation for x in only] == ["related"]
        assert store.links(ALICE, []) == []

    def test_links_are_scoped(self, store):  # type: ignore[no-untyped-def]
        store.put_link(make_link(1, 2, "caused", 0.9))
        store.put_link(make_link(1, 2, "caused", 0.3, scope=BOB))
        assert [x.weight for x in store.links(BOB, [make_record(1).id])] == [0.3]
        assert store.remove_links(BOB, make_record(1).id, make_record(2).id) == 1
        assert [x.weight for x in store.links(ALICE, [make_record(1).id])] == [0.9]
        assert store.link_count(BOB) == 0

    def test_remove_links_of_one_relation_or_all(self, store):  # type: ignore[no-untyped-def]
        a, b = make_record(1).id, make_record(2).id
        for rel in ("caused", "related", "reminds"):
            store.put_link(make_link(1, 2, rel, 0.5))
        assert store.remove_links(ALICE, a, b, "related") == 1
        assert store.remove_links(ALICE, b, a) == 0
        assert store.remove_links(ALICE, a, b) == 2
        assert store.link_count(ALICE) == 0

    def test_strengthen_links_steps_caps_and_debounces(self, store):  # type: ignore[no-untyped-def]
        a, b = make_record(1).id, make_record(2).id
        pairs = [(a, b), (b, a)]
        assert store.strengthen_links(ALICE, pairs, "associated", 0.3, 0.5, T0, 60) == 2
        assert store.strengthen_links(ALICE, pairs, "associated", 0.3, 0.5,
                                      T0 + timedelta(seconds=30), 60) == 0
        later = T0 + timedelta(seconds=61)
        assert store.strengthen_links(ALICE, pairs, "associated", 0.3, 0.5, later, 60) == 2
        link = store.get_link(ALICE, a, b, "associated")
        assert (link.weight, link.created_at, link.updated_at) == (0.5, T0, later)

    def test_weakest_links_first_and_exact_deletion(self, store):  # type: ignore[no-untyped-def]
        store.put_link(make_link(1, 2, "associated", 0.05))
        store.put_link(make_link(2, 3, "associated", 0.5))
        store.put_link(make_link(3, 4, "caused", 0.01))
        weak = store.list_links(ALICE, relation="associated", below=0.1)
        assert [(x.weight, x.relation) for x in weak] == [(0.05, "associated")]
        every = store.list_links(ALICE)
        assert [x.weight for x in every] == [0.01, 0.05, 0.5]
        assert [x.weight for x in store.list_links(ALICE, limit=2)] == [0.01, 0.05]
        store.put_link(make_link(1, 2, "associated", 0.2, T0 + timedelta(hours=1)))
        assert [(x.weight, x.relation) for x in store.list_links(
            ALICE, since=T0 + timedelta(minutes=59))] == [(0.2, "associated")]
        assert len(store.list_links(ALICE, since=T0)) == 3
        store.put_link(make_link(1, 2, "associated", 0.05))
        assert store.delete_links(BOB, weak) == 0
        assert store.delete_links(ALICE, weak) == 1
        assert [x.weight for x in store.list_links(ALICE)] == [0.01, 0.5]

    def test_erase_and_drop_scope_remove_links(self, store):  # type: ignore[no-untyped-def]
        for n in (1, 2, 3):
            store.insert(make_record(n), IndexText(f"memori {n}", ""), unit(n))
        store.insert(make_record(9, BOB), IndexText("memori", ""), unit(9))
        store.put_link(make_link(1, 2, "caused", 0.9))
        store.put_link(make_link(2, 3, "caused", 0.9))
        store.put_link(make_link(9, 8, "caused", 0.9, scope=BOB))
        rec = make_record(1)
        store.erase(rec.scrubbed().replace(layer=Layer.DELETED, version=2), actor="user")
        assert [(x.source, x.target) for x in store.list_links(ALICE)] == [
            (make_record(2).id, make_record(3).id)]
        store.drop_scope(ALICE, T0)
        assert store.link_count(ALICE) == 0 and store.link_count(BOB) == 1

    def test_links_roll_back_with_their_transaction(self, store):  # type: ignore[no-untyped-def]
        with pytest.raises(RuntimeError), store.transaction():
            store.put_link(make_link(1, 2, "caused", 0.9))
            raise RuntimeError("boom")
        assert store.link_count(ALICE) == 0

    # ---------------------------------------------------------------- sleep state

    def test_sleep_state_round_trips_per_scope(self, store):  # type: ignore[no-untyped-def]
        assert store.sleep_state(ALICE) == SleepState()
        assert store.add_written_importance(ALICE, 0.5) == 0.5
        assert store.add_written_importance(ALICE, 1.25) == 1.75
        assert store.sleep_state(BOB) == SleepState()
        state = SleepState(T0, 42, '{"v": 1}', 0.0)
        store.save_sleep_state(ALICE, state)
        assert store.sleep_state(ALICE) == state
        assert store.add_written_importance(ALICE, 2.0) == 2.0
        assert store.sleep_state(ALICE).event_seq == 42

    def test_changed_since_names_each_memory_once(self, store):  # type: ignore[no-untyped-def]
        a, b = make_record(1), make_record(2)
        store.insert(a, IndexText("a", ""), unit(1))
        seq, ids = store.changed_since(ALICE, 0)
        assert ids == [a.id] and seq > 0
        store.insert(b, IndexText("b", ""), unit(2))
        store.record_uses(ALICE, [a.id], T0, 60)
        store.save(b.replace(version=2), "update")
        newest, ids = store.changed_since(ALICE, seq)
        assert ids == [b.id, a.id] and newest > seq
        assert store.changed_since(ALICE, newest) == (newest, [])
        assert store.changed_since(BOB, 0) == (0, [])

    def test_due_times_are_kept_and_cleared(self, store):  # type: ignore[no-untyped-def]
        store.set_due(ALICE, {"m1": T0 + timedelta(days=2), "m2": T0, "m3": None})
        store.set_due(BOB, {"m9": T0})
        assert store.due(ALICE, T0) == ["m2"]
        assert store.due(ALICE, T0 + timedelta(days=2)) == ["m2", "m1"]
        store.set_due(ALICE, {"m2": None, "m1": T0 - timedelta(days=1)})
        assert store.due(ALICE, T0 + timedelta(days=9)) == ["m1"]
        store.drop_scope(ALICE, T0)
        assert store.due(ALICE, T0 + timedelta(days=9)) == []
        assert store.sleep_state(ALICE) == SleepState()
        assert store.due(BOB, T0) == ["m9"]

"""The store contract: behaviour every Store backend must show, as pytest tests.

Subclass ``StoreContract`` in a test module and give it a ``store`` fixture yielding a fresh,
empty store (SQLite today, PostgreSQL later)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from ..errors import Conflict, EngramError, StoreError
from ..model import (
    ApiKey,
    Goal,
    GoalStatus,
    Kind,
    Layer,
    Lifecycle,
    Link,
    Priority,
    Record,
    Role,
    Scope,
)
from .base import Event, IndexText, ListFilter, SleepState
from .contract_sessions import SessionContract

T0 = datetime(2026, 1, 1, tzinfo=UTC)
BODY = {"body": 1.0}      # search_text field weights
ANCHORS = {"anchors": 1.0}
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


# fields the test of every field keeps as make_record sets them
IDENTITY_FIELDS = ("id", "user", "agent", "content", "kind", "priority", "lifecycle",
                   "importance", "at", "recorded_at", "updated_at", "content_hash")


def make_goal(n: int, scope: Scope = ALICE, **changes: object) -> Goal:
    goal = Goal(id=f"01GOAL{n:020d}", user=scope.user, agent=scope.agent, title=f"goal {n} 目标",
                status=GoalStatus.PAUSED, created_at=T0 + timedelta(minutes=n), updated_at=T0)
    return goal.replace(**changes)


def unit(seed: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


class StoreContract(SessionContract):
    """Mix-in of tests; needs a ``store`` fixture."""

    def test_insert_get_roundtrip(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1, metadata={"dia_id": "D1:3", "nested": {"a": [1, 2]}},
                          people=["Li"], uri="core://user/name")
        store.insert(rec, IndexText("memori 1", "li"), unit(1))
        got = store.get(ALICE, rec.id)
        assert got == rec
        assert store.get_by_uri(ALICE, "core://user/name") == rec

    def test_every_record_field_round_trips(self, store):  # type: ignore[no-untyped-def]
        later = T0 + timedelta(days=3, microseconds=7)
        rec = make_record(
            1, metadata={"k": "值"}, people=["Li"], places=["北京"], topics=["t"],
            keywords=["kw"], context="上一句", valence=-0.5, intensity=0.25,
            source_session="s1", source_turn="t2", derived_from=["01X"], invalid_at=later,
            superseded_by="01Y", expires_at=later, due_at=later, layer=Layer.ARCHIVED,
            use_count=2, last_uses=[T0, later], version=3, overdue_since=later,
            at_precision="month", uri="core://x")
        defaults = make_record(1)
        left = [f.name for f in dataclasses.fields(rec)
                if getattr(rec, f.name) == getattr(defaults, f.name)
                and f.name not in IDENTITY_FIELDS]
        assert left == []  # a new Record field: give it a value here, so it is checked too
        store.insert(rec, IndexText("memori 1", ""), unit(1))
        assert store.get(ALICE, rec.id) == rec
        assert store.events(ALICE, rec.id)[0].snapshot == rec

    def test_scope_isolation(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("berlin", ""), unit(1))
        store.insert(make_record(2, BOB), IndexText("berlin", ""), unit(2))
        assert store.get(BOB, make_record(1).id) is None
        assert [i for i, _ in store.search_text(BOB, ["berlin"], BODY, 10, [Layer.CORE])] == [
            make_record(2, BOB).id]
        assert [i for i, _ in store.search_vector(BOB, unit(1), 10, [Layer.CORE])] == [
            make_record(2, BOB).id]
        assert [r.id for r in store.list(BOB, ListFilter())] == [make_record(2, BOB).id]

    def test_text_and_vector_search_rank(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("berlin berlin live", ""), unit(1))
        store.insert(make_record(2), IndexText("oslo live", ""), unit(2))
        text = store.search_text(ALICE, ["berlin", "live"], BODY, 10, [Layer.CORE])
        assert [i for i, _ in text] == [make_record(1).id, make_record(2).id]
        vec = store.search_vector(ALICE, unit(2), 10, [Layer.CORE])
        assert vec[0][0] == make_record(2).id and abs(vec[0][1] - 1.0) < 1e-5

    def test_save_logs_versions_and_reindexes(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        new = rec.replace(content="oslo", version=2)
        store.save(new, "update", IndexText("oslo", ""), unit(2))
        assert store.search_text(ALICE, ["berlin"], BODY, 10, [Layer.CORE]) == []
        assert store.search_vector(ALICE, unit(2), 1, [Layer.CORE])[0][0] == rec.id
        assert [e.op for e in store.events(ALICE, rec.id)] == ["create", "update"]
        assert store.events(ALICE, rec.id)[0].snapshot.content == "memory 1"

    def test_layers_filter_search(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        store.save(rec.replace(layer=Layer.DELETED, version=2), "forget")
        assert store.search_text(ALICE, ["berlin"], BODY, 10, [Layer.CORE]) == []
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

    # ---------------------------------------------------------------- records

    def test_every_field_round_trips(self, store):  # type: ignore[no-untyped-def]
        when = datetime(2025, 6, 1, 9, 30, 15, 123456, tzinfo=UTC)
        rec = make_record(
            1, content="明天和Anna一起去Berlin开会 🙂", kind=Kind.EVENT, uri="event://2025-06-01/x",
            priority=Priority.P3, lifecycle=Lifecycle.TEMP, importance=0.75, at=when,
            metadata={"a": {"b": [1, 2.5, None, True]}, "名字": "小明"}, people=["Anna"],
            places=["Berlin"], topics=["work"], keywords=["meeting"], valence=-0.5,
            intensity=0.25, source_session="s1", source_turn="t3", derived_from=["01A", "01B"],
            invalid_at=when + timedelta(days=1), superseded_by="01NEXT",
            expires_at=when + timedelta(days=2), due_at=when + timedelta(days=3),
            layer=Layer.ARCHIVED, use_count=3, last_uses=[when, when + timedelta(hours=1)],
            version=4, overdue_since=when + timedelta(days=4),
        )
        store.insert(rec, IndexText("x", ""), unit(1))
        assert store.get(ALICE, rec.id) == rec
        assert store.get_many(ALICE, [rec.id]) == {rec.id: rec}
        assert store.get(ALICE, rec.id).at.tzinfo is not None

    def test_missing_records_are_none_or_absent(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("x", ""), unit(1))
        assert store.get(ALICE, "01NOSUCHID") is None
        assert store.get_by_uri(ALICE, "core://user/name") is None
        assert store.get_many(ALICE, ["01NOSUCHID", make_record(1).id]) == {
            make_record(1).id: make_record(1)}
        assert store.get_many(ALICE, []) == {}

    def test_a_concept_lists_its_core_members(self, store):  # type: ignore[no-untyped-def]
        wang = [make_record(n, people=["Wang Lei"], places=["北京"]) for n in (3, 1, 2)]
        other = make_record(4, people=["Wang"], topics=["wang lei"])   # a topic, not a person
        for n, r in enumerate([*wang, other], start=1):
            store.insert(r, IndexText("x", "wang lei 北京"), unit(n))
        ids = sorted(r.id for r in wang)
        assert store.concept_members(ALICE, "person:wang lei", 10) == ids
        assert store.concept_members(ALICE, "place:北京", 10) == ids
        assert store.concept_members(ALICE, "topic:wang lei", 10) == [other.id]
        assert len(store.concept_members(ALICE, "person:wang lei", 2)) == 2
        assert store.concept_members(BOB, "person:wang lei", 10) == []
        store.save(wang[0].replace(layer=Layer.ARCHIVED, version=2), "archive")
        store.save(wang[1].replace(people=["Li Na"], version=2), "update", IndexText("x", "li na"))
        assert store.concept_members(ALICE, "person:wang lei", 10) == [wang[2].id]
        assert store.concept_members(ALICE, "person:li na", 10) == [wang[1].id]
        store.save(wang[0].replace(version=3), "restore")   # back in core: a member again
        assert store.concept_members(ALICE, "person:wang lei", 10) == sorted(
            [wang[0].id, wang[2].id])
        store.drop_scope(ALICE, T0)
        assert store.concept_members(ALICE, "place:北京", 10) == []

    def test_no_read_crosses_scopes(self, store):  # type: ignore[no-untyped-def]
        mine = make_record(1, uri="core://user/name", content_hash="same")
        store.insert(mine, IndexText("berlin", "anna"), unit(1))
        assert store.get(BOB, mine.id) is None
        assert store.get_by_uri(BOB, "core://user/name") is None
        assert store.get_many(BOB, [mine.id]) == {}
        assert store.find_by_hash(BOB, "fact", "same") == []
        assert store.search_text(BOB, ["anna"], ANCHORS, 10, [Layer.CORE]) == []
        assert store.search_vector(BOB, unit(1), 10, [Layer.CORE]) == []
        assert store.vectors(BOB, [mine.id]) == {}
        assert store.events(BOB, mine.id) == []
        assert store.event_count(BOB) == 0
        assert store.count(BOB, ListFilter(layers=())) == 0
        assert store.record_uses(BOB, [mine.id], T0, 60) == 0
        assert store.get(ALICE, mine.id).use_count == 0

    def test_no_write_crosses_scopes(self, store):  # type: ignore[no-untyped-def]
        mine = make_record(1)
        store.insert(mine, IndexText("berlin", ""), unit(1))
        forged = mine.replace(user=BOB.user, content="hacked", version=2)
        with pytest.raises(EngramError):
            store.save(forged, "update", IndexText("hacked", ""), unit(2))
        assert store.get(ALICE, mine.id) == mine
        assert store.search_text(ALICE, ["hacked"], BODY, 10, [Layer.CORE]) == []
        assert [e.op for e in store.events(ALICE, mine.id)] == ["create"]

    def test_same_id_twice_conflicts(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("x", ""), unit(1))
        with pytest.raises(Conflict):
            store.insert(make_record(1, content="again"), IndexText("y", ""), unit(2))
        assert store.get(ALICE, make_record(1).id).content == "memory 1"

    def test_uri_is_unique_among_live_memories_of_a_scope(self, store):  # type: ignore[no-untyped-def]
        first = make_record(1, uri="core://user/name")
        store.insert(first, IndexText("li", ""), unit(1))
        with pytest.raises(Conflict):
            store.insert(make_record(2, uri="core://user/name"), IndexText("wang", ""), unit(2))
        store.insert(make_record(3, BOB, uri="core://user/name"), IndexText("bob", ""), unit(3))
        store.save(first.replace(layer=Layer.DELETED, version=2), "forget")
        second = make_record(4, uri="core://user/name")
        store.insert(second, IndexText("wang", ""), unit(4))
        assert store.get_by_uri(ALICE, "core://user/name") == second
        assert store.get_by_uri(BOB, "core://user/name").id == make_record(3, BOB).id

    def test_find_by_hash_skips_forgotten_and_other_kinds(self, store):  # type: ignore[no-untyped-def]
        a = make_record(1, content_hash="h")
        b = make_record(2, content_hash="h", kind=Kind.EVENT)
        c = make_record(3, content_hash="h")
        for i, rec in enumerate((a, b, c)):
            store.insert(rec, IndexText("x", ""), unit(i))
        store.save(c.replace(layer=Layer.DELETED, version=2), "forget")
        assert [r.id for r in store.find_by_hash(ALICE, "fact", "h")] == [a.id]
        assert [r.id for r in store.find_by_hash(ALICE, "event", "h")] == [b.id]

    # ---------------------------------------------------------------- transactions

    def test_nested_transaction_joins_the_outer_one(self, store):  # type: ignore[no-untyped-def]
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.insert(make_record(1), IndexText("berlin", ""), unit(1))
                with store.transaction():
                    store.insert(make_record(2), IndexText("oslo", ""), unit(2))
                raise RuntimeError("boom")
        assert store.count(ALICE, ListFilter(layers=())) == 0
        assert store.event_count(ALICE) == 0
        assert store.search_text(ALICE, ["berlin", "oslo"], BODY, 10, [Layer.CORE]) == []
        store.insert(make_record(3), IndexText("rome", ""), unit(3))
        assert [i for i, _ in store.search_vector(ALICE, unit(3), 5, [Layer.CORE])] == [
            make_record(3).id]

    def test_rolled_back_save_restores_text_and_vector(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("berlin", ""), unit(1))
        assert store.search_vector(ALICE, unit(1), 1, [Layer.CORE])[0][0] == rec.id
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.save(rec.replace(content="oslo", version=2), "update",
                           IndexText("oslo", ""), unit(2))
                raise RuntimeError("boom")
        assert store.get(ALICE, rec.id) == rec
        assert [i for i, _ in store.search_text(ALICE, ["berlin"], BODY, 5, [Layer.CORE])] == [
            rec.id]
        assert store.search_text(ALICE, ["oslo"], BODY, 5, [Layer.CORE]) == []
        top = store.search_vector(ALICE, unit(1), 1, [Layer.CORE])
        assert top[0][0] == rec.id and abs(top[0][1] - 1.0) < 1e-5

    # ---------------------------------------------------------------- search

    def test_search_words_are_literal(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("and or not near berlin", ""), unit(1))
        for word in ["and", "or", "not", "near", "AND", "NEAR", "berlin"]:
            assert [i for i, _ in store.search_text(ALICE, [word], BODY, 5, [Layer.CORE])] == [
                make_record(1).id], word
        for odd in ['"', "*", "(", ")", ":", "^", "-", 'a"b', "body:x", "{x}", ""]:
            assert store.search_text(ALICE, [odd], BODY, 5, [Layer.CORE]) == [], odd
        assert store.search_text(ALICE, [], BODY, 5, [Layer.CORE]) == []

    def test_search_fields_are_separate(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("berlin", "anna"), unit(1))
        assert store.search_text(ALICE, ["anna"], BODY, 5, [Layer.CORE]) == []
        assert store.search_text(ALICE, ["berlin"], ANCHORS, 5, [Layer.CORE]) == []
        assert [i for i, _ in store.search_text(ALICE, ["anna"], ANCHORS, 5, [Layer.CORE])] == [
            make_record(1).id]

    def test_search_respects_limit_and_layers(self, store):  # type: ignore[no-untyped-def]
        for n in range(1, 8):
            store.insert(make_record(n), IndexText("berlin " * n, ""), unit(n))
        store.save(make_record(7, layer=Layer.ARCHIVED, version=2), "archive")
        text = store.search_text(ALICE, ["berlin"], BODY, 3, [Layer.CORE])
        assert len(text) == 3 and make_record(7).id not in [i for i, _ in text]
        assert [s for _, s in text] == sorted((s for _, s in text), reverse=True)
        vec = store.search_vector(ALICE, unit(7), 3, [Layer.CORE])
        assert len(vec) == 3 and make_record(7).id not in [i for i, _ in vec]
        assert store.search_vector(ALICE, unit(7), 1, [Layer.ARCHIVED])[0][0] == make_record(7).id
        both = store.search_vector(ALICE, unit(7), 10, [Layer.CORE, Layer.ARCHIVED])
        assert len(both) == 7

    def test_a_batch_of_vector_searches_answers_as_one_search_each(self, store):  # type: ignore[no-untyped-def]
        for n in range(1, 9):
            store.insert(make_record(n), IndexText("x", ""), unit(n))
        store.save(make_record(8, layer=Layer.ARCHIVED, version=2), "archive")
        queries = np.stack([unit(2), unit(8), unit(5)])
        for layers in ([Layer.CORE], [Layer.CORE, Layer.ARCHIVED]):
            many = store.search_vector_many(ALICE, queries, 3, layers)
            one = [store.search_vector(ALICE, q, 3, layers) for q in queries]
            assert many == one  # the same ids and the same scores, to the last bit
        assert store.search_vector_many(BOB, queries, 3, [Layer.CORE]) == [[], [], []]

    def test_vector_ties_are_broken_by_id(self, store):  # type: ignore[no-untyped-def]
        same = unit(5)
        for n in (4, 2, 3, 1):
            store.insert(make_record(n), IndexText("x", ""), same)
        for limit in (1, 2, 4):
            got = [i for i, _ in store.search_vector(ALICE, same, limit, [Layer.CORE])]
            assert got == [make_record(n).id for n in (1, 2, 3, 4)][:limit]

    def test_new_vector_replaces_the_old_one(self, store):  # type: ignore[no-untyped-def]
        rec = make_record(1)
        store.insert(rec, IndexText("x", ""), unit(1))
        store.save(rec.replace(version=2), "update", None, unit(2))
        found = store.search_vector(ALICE, unit(2), 10, [Layer.CORE])
        assert len(found) == 1 and abs(found[0][1] - 1.0) < 1e-5
        assert np.allclose(store.vectors(ALICE, [rec.id])[rec.id], unit(2))

    def test_empty_scope_searches_find_nothing(self, store):  # type: ignore[no-untyped-def]
        assert store.search_text(ALICE, ["berlin"], BODY, 5, [Layer.CORE]) == []
        assert store.search_vector(ALICE, unit(1), 5, [Layer.CORE]) == []
        assert list(store.list(ALICE, ListFilter())) == []

    # ---------------------------------------------------------------- listing

    def test_list_order_limit_offset(self, store):  # type: ignore[no-untyped-def]
        for n in (3, 1, 5, 2, 4):
            store.insert(make_record(n), IndexText("x", ""), unit(n))
        ids = [make_record(n).id for n in range(1, 6)]
        assert [r.id for r in store.list(ALICE, ListFilter())] == ids
        assert [r.id for r in store.list(ALICE, ListFilter(newest_first=True))] == ids[::-1]
        assert [r.id for r in store.list(ALICE, ListFilter(limit=2, offset=1))] == ids[1:3]
        assert [r.id for r in store.list(ALICE, ListFilter(offset=3))] == ids[3:]
        assert list(store.list(ALICE, ListFilter(limit=0))) == []

    def test_since_is_inclusive_and_until_exclusive(self, store):  # type: ignore[no-untyped-def]
        for n in range(1, 5):
            store.insert(make_record(n), IndexText("x", ""), unit(n))
        flt = ListFilter(since=T0 + timedelta(days=2), until=T0 + timedelta(days=4))
        assert [r.id for r in store.list(ALICE, flt)] == [make_record(2).id, make_record(3).id]
        assert store.count(ALICE, flt) == 2

    def test_filters_by_kind_layer_and_currency(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1), IndexText("x", ""), unit(1))
        store.insert(make_record(2, kind=Kind.EVENT), IndexText("x", ""), unit(2))
        store.insert(make_record(3, invalid_at=T0, superseded_by=make_record(1).id),
                     IndexText("x", ""), unit(3))
        store.insert(make_record(4, layer=Layer.DELETED), IndexText("x", ""), unit(4))
        assert store.count(ALICE, ListFilter()) == 3
        assert store.count(ALICE, ListFilter(layers=())) == 4
        assert store.count(ALICE, ListFilter(kinds=("event",))) == 1
        assert [r.id for r in store.list(ALICE, ListFilter(current_only=True))] == [
            make_record(1).id, make_record(2).id]
        assert [r.id for r in store.list(ALICE, ListFilter(layers=(Layer.DELETED,)))] == [
            make_record(4).id]

    def test_uri_prefix_is_a_plain_prefix(self, store):  # type: ignore[no-untyped-def]
        store.insert(make_record(1, uri="core://user/a_b"), IndexText("x", ""), unit(1))
        store.insert(make_record(2, uri="core://user/a%b"), IndexText("x", ""), unit(2))
        store.insert(make_record(3, uri="core://userx/ab"), IndexText("x", ""), unit(3))
        assert [r.uri for r in store.list(ALICE, ListFilter(uri_prefix="core://user/a_"))] == [
            "core://user/a_b"]
        assert store.count(ALICE, ListFilter(uri_prefix="core://user/")) == 2

    def test_scopes_lists_who_has_memories(self, store):  # type: ignore[no-untyped-def]
        assert store.scopes() == []
        store.insert(make_record(2, BOB), IndexText("x", ""), unit(2))
        store.insert(make_record(1), IndexText("x", ""), unit(1))
        assert store.scopes() == [ALICE, BOB]

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


def make_link(a: int, b: int, relation: str, weight: float, at: datetime = T0,
              scope: Scope = ALICE) -> Link:
    return Link(make_record(a, scope).id, make_record(b, scope).id, relation, weight, at, at,
                scope.user, scope.agent)


"""The store contract for records: round trips, scopes, transactions, search and listing
(part of StoreContract)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from ..errors import Conflict, EngramError
from ..model import (
    Kind,
    Layer,
    Lifecycle,
    Priority,
)
from .contract_kit import (
    ALICE,
    ANCHORS,
    BOB,
    BODY,
    IDENTITY_FIELDS,
    T0,
    make_record,
    unit,
)
from .protocol import IndexText, ListFilter


class RecordContract:
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

    def test_concepts_are_counted_by_kind(self, store):  # type: ignore[no-untyped-def]
        recs = [make_record(1, people=["Wang Lei"], places=["北京"]),
                make_record(2, people=["Wang Lei", "Anna"]),
                make_record(3, people=["Anna"], topics=["chess"]),
                make_record(4, people=["Wang Lei"], layer=Layer.ARCHIVED)]   # not core
        for n, r in enumerate(recs, start=1):
            store.insert(r, IndexText("x", ""), unit(n))
        assert store.concept_counts(ALICE, ["person"], 10) == [   # a tie: by name
            ("person:anna", 2, recs[1].id), ("person:wang lei", 2, recs[0].id)]
        got = store.concept_counts(ALICE, ["person", "place", "topic"], 10)
        assert {c: n for c, n, _ in got} == {"person:wang lei": 2, "person:anna": 2,
                                             "place:北京": 1, "topic:chess": 1}
        assert [n for _, n, _ in got] == [2, 2, 1, 1]   # most held first
        assert len(store.concept_counts(ALICE, ["person", "place"], 1)) == 1
        assert store.concept_counts(BOB, ["person"], 10) == []
        assert store.concept_counts(ALICE, [], 10) == []

    def test_list_and_count_by_text_held(self, store):  # type: ignore[no-untyped-def]
        texts = ["I moved to Berlin", "berlin is cold", "我住在北京", "Lisbon"]
        for n, text in enumerate(texts, start=1):
            store.insert(make_record(n, content=text), IndexText(text, ""), unit(n))
        assert [r.content for r in store.list(ALICE, ListFilter(contains="BERLIN"))] == \
            texts[:2]
        assert [r.content for r in store.list(ALICE, ListFilter(contains="北京"))] == [texts[2]]
        assert store.count(ALICE, ListFilter(contains="berlin")) == 2
        assert store.count(ALICE, ListFilter(contains="oslo")) == 0
        assert store.count(BOB, ListFilter(contains="berlin")) == 0

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

    def test_locate_finds_an_id_in_any_scope(self, store):  # type: ignore[no-untyped-def]
        assert store.locate(make_record(1).id) is None
        bobs = make_record(2, BOB)
        store.insert(bobs, IndexText("x", ""), unit(2))
        store.insert(make_record(1), IndexText("x", ""), unit(1))
        assert store.locate(bobs.id) == bobs
        assert store.locate(make_record(1).id) == make_record(1)
        gone = make_record(1).replace(layer=Layer.DELETED, version=2)
        store.save(gone, "forget")
        assert store.locate(gone.id) == gone  # every layer: the caller decides what is live

    def test_ids_with_prefix_reads_the_scopes_ids_in_order(self, store):  # type: ignore[no-untyped-def]
        for n in (12, 13, 20, 1):
            store.insert(make_record(n), IndexText("x", ""), unit(n))
        store.insert(make_record(14, BOB), IndexText("x", ""), unit(14))
        store.save(make_record(13).replace(layer=Layer.DELETED, version=2), "forget")
        ids = [make_record(n).id for n in (12, 13)]
        assert store.ids_with_prefix(ALICE, "01TEST0000000000000000001", 10) == ids
        assert store.ids_with_prefix(ALICE, "01TEST", 2) == [make_record(1).id, ids[0]]
        assert store.ids_with_prefix(ALICE, make_record(20).id, 5) == [make_record(20).id]
        assert store.ids_with_prefix(ALICE, "01TEST00000000000000000014", 5) == []  # Bob's
        assert store.ids_with_prefix(ALICE, "01TESU", 5) == []

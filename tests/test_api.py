"""The library API as a user sees it: remember, recall, get, update, forget, history, list."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

import engramdb
from engramdb import Action, Conflict, Draft, Invalid, Kind, NotFound
from helpers import dump, lexical_ids, not_rejected

WHEN = datetime(2025, 6, 1, 9, 30, tzinfo=UTC)
BEIJING = timezone(timedelta(hours=8))




# ---------------------------------------------------------------- remember


def test_remember_returns_action_rule_and_memory(me, clock):  # type: ignore[no-untyped-def]
    r = me.remember("I moved to Berlin", kind="fact", metadata={"source": "chat"})
    assert r.action == Action.ADD
    assert r.rule == "new_memory"
    assert r.memory.content == "I moved to Berlin"
    assert r.memory.kind == Kind.FACT
    assert (r.memory.user, r.memory.agent) == ("alice", "noah")
    assert r.memory.version == 1
    assert me.get(r.memory.id) == r.memory


def test_metadata_round_trips_unchanged(mem, me, tmp_path):  # type: ignore[no-untyped-def]
    metadata = {
        "source": "chat",
        "dia_id": "D1:3",
        "nested": {"a": [1, 2, {"b": None}], "ok": True, "pi": 3.25, "deep": {"x": {"y": []}}},
        "名字": "小明 🙂",
        "list": ["x", 1, 2.5, False, None],
        "empty": {},
    }
    original = json.loads(json.dumps(metadata))
    r = me.remember("Li likes tea", metadata=metadata)
    assert metadata == original  # the caller's dict is not changed either
    assert r.memory.metadata == original
    assert me.get(r.memory.id).metadata == original
    assert next(iter(me.list())).metadata == original
    assert me.recall("tea", k=1, track=False)[0].memory.metadata == original
    mem.close()
    with engramdb.open(tmp_path / "memory.db", embedder="hashing") as again:
        assert again.get(r.memory.id, user="alice", agent="noah").metadata == original


def test_at_is_kept_apart_from_recorded_at(me, clock):  # type: ignore[no-untyped-def]
    when = datetime(2024, 12, 24, 20, 15, 30, 123456, tzinfo=BEIJING)
    r = me.remember("We had dinner at Haidilao", kind="event", at=when)
    for rec in (r.memory, me.get(r.memory.id)):
        assert rec.at == when
        assert rec.recorded_at == clock.now()
        assert rec.at != rec.recorded_at
        assert rec.at.tzinfo is not None and rec.recorded_at.tzinfo is not None
        assert rec.at.utcoffset() is not None and rec.recorded_at.utcoffset() is not None


def test_at_defaults_to_now(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I like green tea").memory
    assert rec.at == clock.now() == rec.recorded_at


NAIVE = datetime(2026, 3, 2, 9)               # no time zone: read as UTC
SAME_IN_UTC = datetime(2026, 3, 2, 9, tzinfo=UTC)
SAME_IN_BEIJING = datetime(2026, 3, 2, 17, tzinfo=BEIJING)   # the same instant, aware


@pytest.mark.parametrize("field", ["at", "expires_at", "due_at"])
@pytest.mark.parametrize("value", [NAIVE, "2026-03-02T09:00:00", SAME_IN_BEIJING,
                                   "2026-03-02T17:00:00+08:00"])
def test_a_time_without_a_zone_is_utc_on_remember(me, field, value):  # type: ignore[no-untyped-def]
    rec = me.remember("Dentist appointment", kind="pending", **{field: value}).memory
    assert getattr(rec, field) == SAME_IN_UTC and getattr(rec, field).tzinfo is not None
    assert getattr(me.get(rec.id), field) == SAME_IN_UTC


@pytest.mark.parametrize("field", ["since", "until"])
def test_a_time_without_a_zone_is_utc_on_list_and_count(me, field):  # type: ignore[no-untyped-def]
    me.remember("Trip to Oslo", kind="event", at=SAME_IN_UTC - timedelta(hours=1))
    me.remember("Trip to Rome", kind="event", at=SAME_IN_UTC + timedelta(hours=1))
    for value in (NAIVE, "2026-03-02T09:00:00", SAME_IN_BEIJING):
        found = [r.content for r in me.list(**{field: value})]
        assert found == (["Trip to Rome"] if field == "since" else ["Trip to Oslo"])
        assert me.count(**{field: value}) == 1


def test_a_time_without_a_zone_is_utc_on_update(me):  # type: ignore[no-untyped-def]
    rec = me.remember("Trip to Oslo", kind="event", at=WHEN).memory
    assert me.update(rec.id, at=datetime(2025, 7, 1)).at == datetime(2025, 7, 1, tzinfo=UTC)
    assert me.update(rec.id, at="2025-07-02T08:00:00+08:00").at == datetime(2025, 7, 2,
                                                                             tzinfo=UTC)


def test_a_time_without_a_zone_is_utc_in_a_draft(me):  # type: ignore[no-untyped-def]
    done = me.remember_many([Draft("Trip to Oslo", at=datetime(2025, 7, 1)),
                             Draft("去了奥斯陆", at=datetime(2025, 7, 1, 8, tzinfo=BEIJING))])
    assert [r.memory.at for r in done] == [datetime(2025, 7, 1, tzinfo=UTC),
                                           datetime(2025, 7, 1, tzinfo=UTC)]


@pytest.mark.parametrize(("field", "value", "match"), [
    ("at", "next tuesday", "at: 'next tuesday' is not an ISO 8601 time"),
    ("at", "下周二", "at: '下周二' is not an ISO 8601 time"),
    ("expires_at", "2026-13-01", "expires_at: '2026-13-01' is not an ISO 8601 time"),
    ("due_at", 5, "due_at must be a time"),
])
def test_a_time_that_is_not_one_is_refused_in_words(me, field, value, match):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=match) as caught:
        me.remember("Dentist appointment", kind="pending", **{field: value})
    assert "2026-01-01T10:00:00Z" in str(caught.value)   # what to give instead
    assert me.count() == 0


# ---------------------------------------------------------------- duplicates


def test_exact_duplicate_is_a_noop_that_counts_a_use(me):  # type: ignore[no-untyped-def]
    first = me.remember("I moved to Berlin").memory
    assert first.use_count == 0
    again = me.remember("I moved to Berlin")
    assert again.action == Action.NOOP
    assert again.rule == "exact_duplicate"
    assert again.memory.id == first.id
    assert again.memory.use_count == 1
    assert me.get(first.id).use_count == 1
    assert me.count() == 1


def test_same_event_text_at_other_time_is_a_new_memory(me):  # type: ignore[no-untyped-def]
    a = me.remember("Went swimming", kind="event", at=WHEN)
    b = me.remember("Went swimming", kind="event", at=WHEN + timedelta(days=7))
    assert a.action == b.action == Action.ADD
    assert a.memory.id != b.memory.id
    c = me.remember("Went swimming", kind="event", at=WHEN)
    assert c.action == Action.NOOP and c.memory.id == a.memory.id
    assert me.count() == 2


# ---------------------------------------------------------------- URIs


@pytest.mark.parametrize(
    "uri", ["core://user/name", "knowledge://user/preferences", "event://2026-02-20/trip"]
)
def test_uri_is_accepted_and_gettable(me, uri):  # type: ignore[no-untyped-def]
    rec = me.remember("Some content about the user", uri=uri).memory
    assert rec.uri == uri
    assert me.get(uri).id == rec.id


def test_same_uri_updates_in_place(me, clock):  # type: ignore[no-untyped-def]
    first = me.remember("My name is Li", uri="core://user/name").memory
    clock.advance(minutes=5)
    second = me.remember("My name is Wang", uri="core://user/name")
    assert second.action == Action.UPDATE
    assert second.rule == "same_uri"
    assert second.memory.id == first.id
    assert second.memory.version == 2
    current = me.get("core://user/name")
    assert current.content == "My name is Wang" and current.version == 2
    history = me.history("core://user/name")
    assert [v.memory.content for v in history] == ["My name is Li", "My name is Wang"]
    assert [(v.version, v.op) for v in history] == [(1, "create"), (2, "update")]
    assert me.count() == 1
    assert lexical_ids(me, "Li") == []
    assert lexical_ids(me, "Wang") == [first.id]


def test_same_uri_same_content_is_a_noop(me):  # type: ignore[no-untyped-def]
    first = me.remember("My name is Li", uri="core://user/name").memory
    again = me.remember("My name is Li", uri="core://user/name")
    assert again.action == Action.NOOP
    assert again.memory.id == first.id and again.memory.version == 1


def test_list_by_uri_prefix(me):  # type: ignore[no-untyped-def]
    me.remember("Name is Li", uri="core://user/name")
    me.remember("Lives in Berlin", uri="core://user/city")
    me.remember("Project Apollo", uri="core://project/apollo")
    me.remember("Likes tea", uri="knowledge://user/preferences")
    got = [r.uri for r in me.list(uri_prefix="core://user/")]
    assert got == ["core://user/name", "core://user/city"]
    assert me.count(uri_prefix="core://user/") == 2
    assert me.count(uri_prefix="knowledge://") == 1


def test_invalid_uri_is_rejected(me):  # type: ignore[no-untyped-def]
    bad = ["core://", "core:/user/name", "user/name", "bogus://user/name", "http://example.com/x",
           "core://user name", "core://user//name", "core://user/na?me", " ", ""]
    assert not_rejected(lambda uri: me.remember("Some content", uri=uri), bad, "uri") == []
    assert me.count() == 0


def test_invalid_uri_prefix_is_rejected(me):  # type: ignore[no-untyped-def]
    bad = ["bogus://", "user/", "core://a b"]
    assert not_rejected(lambda prefix: me.list(uri_prefix=prefix), bad, "prefix") == []


def test_get_with_unknown_uri_domain_is_invalid(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="unknown domain"):
        me.get("bogus://user/name")


# ---------------------------------------------------------------- remember_many


def test_remember_many_writes_200_in_one_call(me):  # type: ignore[no-untyped-def]
    drafts = [Draft(content=f"Note number {i} about topic{i}", kind="fact",
                    at=WHEN + timedelta(minutes=i), metadata={"n": i}) for i in range(200)]
    seen: list[tuple[int, int]] = []
    results = me.remember_many(drafts, progress=lambda done, total: seen.append((done, total)))
    assert len(results) == 200
    assert all(r.action == Action.ADD for r in results)
    assert len({r.memory.id for r in results}) == 200
    assert me.count() == 200
    assert seen[-1] == (200, 200)
    assert [r.metadata["n"] for r in me.list()] == list(range(200))
    hit = me.recall("topic137", k=1, track=False)[0]
    assert hit.memory.metadata == {"n": 137}


@pytest.mark.parametrize(
    "bad",
    [Draft("   "), Draft("x", kind="gossip"), Draft("x", at="soon"),
     Draft("x", uri="bogus://a"), Draft("x", importance=2.0), Draft("x", metadata={"a": {1, 2}})],
)
def test_one_bad_draft_writes_nothing(me, bad):  # type: ignore[no-untyped-def]
    drafts = [Draft(f"Good note {i}") for i in range(10)]
    drafts[7] = bad
    with pytest.raises(Invalid, match="item 7"):
        me.remember_many(drafts)
    assert me.count() == 0
    assert me.stats().events == 0


def test_remember_many_rejects_what_is_not_a_draft(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="item 1"):
        me.remember_many([Draft("fine"), "not a draft"])
    assert me.count() == 0


# ---------------------------------------------------------------- recall


def test_recall_finds_english_memory_by_query_words(me):  # type: ignore[no-untyped-def]
    berlin = me.remember("I moved to Berlin in March").memory
    me.remember("My sister plays the violin")
    me.remember("I like hiking in the Alps")
    hits = me.recall("when was I moving to Berlin?", k=3)
    assert hits[0].memory.id == berlin.id
    assert "bm25" in hits[0].explanation.legs


def test_recall_finds_chinese_memory_by_a_two_character_word(me):  # type: ignore[no-untyped-def]
    hotpot = me.remember("我周末喜欢去吃火锅").memory
    work = me.remember("我在北京工作了三年").memory
    me.remember("I like hiking in the Alps")
    assert me.recall("火锅", k=3)[0].memory.id == hotpot.id
    assert lexical_ids(me, "火锅") == [hotpot.id]
    assert lexical_ids(me, "北京") == [work.id]


def test_recall_mixed_language_memory(me):  # type: ignore[no-untyped-def]
    rec = me.remember("明天和Anna一起去Berlin开会").memory
    assert lexical_ids(me, "Anna") == [rec.id]
    assert lexical_ids(me, "开会") == [rec.id]


SEARCH_SYNTAX = [
    "AND", "NEAR(", "*", ":", "(", '"', ")", "berlin AND", 'berlin"', '"unbalanced', "OR OR",
    "body: berlin", "scope : x", "NOT berlin", "a*b", "-berlin", "^berlin", "{body}", "'",
    "NEAR(berlin violin, 2)", "火锅 AND (", "\\", "%", "_", "\x00", "🙂",
]


def test_search_syntax_in_query_is_plain_text(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin")
    me.remember("My sister plays the violin")
    for query in SEARCH_SYNTAX:
        hits = me.recall(query, k=5, track=False)
        assert isinstance(hits, engramdb.Hits), query
        if "berlin" in query.lower():
            assert hits[0].memory.content == "I moved to Berlin", query


def test_k_out_of_range_is_invalid(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin")
    bad = [0, -1, 1001, 10**9, 2.5, "5", True, None]
    assert not_rejected(lambda k: me.recall("Berlin", k=k), bad, "k must be") == []


def test_k_bounds_are_accepted(me):  # type: ignore[no-untyped-def]
    for i in range(5):
        me.remember(f"Note {i} about Berlin")
    assert len(me.recall("Berlin", k=1)) == 1
    assert len(me.recall("Berlin", k=3)) == 3
    assert len(me.recall("Berlin", k=1000)) == 5


def test_empty_query_is_invalid(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin")
    bad = ["", "   ", "\n\t", None, 42]
    assert not_rejected(lambda query: me.recall(query), bad, "query") == []


def test_recall_on_empty_store_abstains(me):  # type: ignore[no-untyped-def]
    hits = me.recall("where do I live?")
    assert list(hits) == []
    assert hits.abstained is True
    assert hits.note


def test_hits_carry_every_legs_rank_and_score(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin", people=["Anna"])
    me.remember("Anna moved to Oslo")
    me.remember("Tea with milk")
    hits = me.recall("Anna moved to Berlin", k=3, track=False)
    assert len(hits) == 3
    top = hits[0].explanation
    assert {"bm25", "dense"} <= set(top.legs)
    for hit in hits:
        legs = hit.explanation.legs
        assert legs
        for leg in legs.values():
            assert isinstance(leg.rank, int) and leg.rank >= 1
            assert isinstance(leg.score, float)
        assert abs(hit.score - hit.explanation.terms["relevance"]) < 1e-4  # relevance.py
        assert 0.0 <= hit.score <= 1.0
        assert json.loads(json.dumps(hit.to_dict()))["explanation"]["legs"]
    finals = [h.explanation.final for h in hits]  # the rank is the blend's
    assert finals == sorted(finals, reverse=True)


def test_recall_is_deterministic(me):  # type: ignore[no-untyped-def]
    for text in ["I moved to Berlin", "Berlin is cold in winter", "My sister lives in Oslo",
                 "我周末喜欢去吃火锅", "Anna visited Berlin and Oslo"]:
        me.remember(text)

    def run() -> list[tuple[str, float, dict[str, Any]]]:
        hits = me.recall("Berlin Oslo winter", k=5, track=False)
        return [(h.memory.id, h.score, h.explanation.to_dict()) for h in hits]

    assert run() == run()


def test_recall_with_track_false_changes_nothing(mem, me, clock):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin")
    me.remember("我周末喜欢去吃火锅")
    me.remember("Went swimming", kind="event", at=WHEN)
    me.recall("Berlin", k=5)  # some uses already recorded before the snapshot
    clock.advance(hours=2)
    before = dump(mem.store.location)
    assert before["events"] and before["memories"]
    for query in ["Berlin", "火锅", "swimming", "nothing matches this", "AND (", "Berlin"]:
        me.recall(query, k=5, track=False)
        clock.advance(minutes=5)
    me.recall("Berlin", k=1000, track=False, preset="lexical")
    assert dump(mem.store.location) == before


def test_recall_with_track_counts_a_use_once_a_minute(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I moved to Berlin").memory
    other = me.remember("Tea with milk").memory
    hits = me.recall("Berlin", k=1)
    assert [h.memory.id for h in hits] == [rec.id]
    assert me.get(rec.id).use_count == 1
    assert me.get(other.id).use_count == 0  # not delivered, not used
    clock.advance(seconds=30)
    me.recall("Berlin", k=1)
    assert me.get(rec.id).use_count == 1
    clock.advance(seconds=61)
    me.recall("Berlin", k=1)
    used = me.get(rec.id)
    assert used.use_count == 2
    assert used.last_uses[-1] == clock.now()


def test_recall_filters_by_kind(me):  # type: ignore[no-untyped-def]
    me.remember("Berlin trip", kind="event", at=WHEN)
    fact = me.remember("I live in Berlin", kind="fact").memory
    hits = me.recall("Berlin", k=5, kinds=["fact"], track=False)
    assert [h.memory.id for h in hits] == [fact.id]
    with pytest.raises(Invalid, match="unknown kind"):
        me.recall("Berlin", kinds=["gossip"])


# ---------------------------------------------------------------- get / update / forget / history


def test_update_changes_content_and_reindexes(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin", metadata={"source": "chat"}).memory
    assert lexical_ids(me, "Berlin") == [rec.id]
    clock.advance(hours=1)
    new = me.update(rec.id, content="I live in Oslo")
    assert new.id == rec.id
    assert new.content == "I live in Oslo"
    assert new.version == 2
    assert new.updated_at == clock.now()
    assert new.recorded_at == rec.recorded_at
    assert new.metadata == {"source": "chat"}
    assert me.get(rec.id) == new
    assert lexical_ids(me, "Berlin") == []
    assert lexical_ids(me, "Oslo") == [rec.id]
    assert me.recall("Oslo", k=1, track=False)[0].memory.id == rec.id


def test_update_other_fields(me):  # type: ignore[no-untyped-def]
    rec = me.remember("Dinner with Anna").memory
    new = me.update(rec.id, kind="event", importance=0.9, metadata={"k": [1]}, people=["Anna"],
                    at=WHEN, uri="event://2025-06-01/dinner")
    assert (new.kind, new.importance, new.metadata, new.people, new.at, new.uri) == (
        Kind.EVENT, 0.9, {"k": [1]}, ["Anna"], WHEN, "event://2025-06-01/dinner")
    assert me.get("event://2025-06-01/dinner").id == rec.id


def test_update_with_nothing_is_invalid(me):  # type: ignore[no-untyped-def]
    rec = me.remember("Dinner with Anna").memory
    with pytest.raises(Invalid, match="nothing to update"):
        me.update(rec.id)


def test_update_to_a_taken_uri_conflicts(me):  # type: ignore[no-untyped-def]
    me.remember("My name is Li", uri="core://user/name")
    rec = me.remember("I live in Berlin").memory
    with pytest.raises(Conflict):
        me.update(rec.id, uri="core://user/name")
    assert me.get(rec.id) == rec


def test_history_lists_versions_oldest_first(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    clock.advance(hours=1)
    me.update(rec.id, content="I live in Oslo")
    me.recall("Oslo")  # a use is not a version
    clock.advance(hours=1)
    me.forget(rec.id)
    clock.advance(hours=1)
    me.restore(rec.id)
    history = me.history(rec.id)
    assert [(v.version, v.op) for v in history] == [
        (1, "create"), (2, "update"), (3, "forget"), (4, "restore")]
    assert [v.memory.content for v in history] == [
        "I live in Berlin", "I live in Oslo", "I live in Oslo", "I live in Oslo"]
    assert [v.at for v in history] == sorted(v.at for v in history)
    assert history[0].memory == rec
    assert history[-1].memory.version == me.get(rec.id).version == 4


def test_forget_hides_and_restore_brings_back(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    kept = me.remember("Tea with milk").memory
    gone = me.forget(rec.id)
    assert gone.layer == engramdb.Layer.DELETED
    assert rec.id not in [h.memory.id for h in me.recall("Berlin", k=10, track=False)]
    assert [r.id for r in me.list()] == [kept.id]
    assert [r.id for r in me.list(layer="deleted")] == [rec.id]
    assert me.count() == 1 and me.count(layer="deleted") == 1
    assert me.get(rec.id).layer == engramdb.Layer.DELETED  # still readable by id
    with pytest.raises(Conflict):
        me.update(rec.id, content="I live in Rome")
    back = me.restore(rec.id)
    assert back.layer == engramdb.Layer.CORE
    assert lexical_ids(me, "Berlin") == [rec.id]
    assert [r.id for r in me.list()] == [rec.id, kept.id]


def test_forget_twice_is_harmless(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    first = me.forget(rec.id)
    assert me.forget(rec.id).version == first.version


def test_forgotten_uri_can_be_taken_again(me):  # type: ignore[no-untyped-def]
    old = me.remember("My name is Li", uri="core://user/name").memory
    me.forget(old.id)
    with pytest.raises(NotFound):
        me.get("core://user/name")
    new = me.remember("My name is Wang", uri="core://user/name")
    assert new.action == Action.ADD and new.memory.id != old.id
    assert me.get("core://user/name").id == new.memory.id


UNKNOWN = "01JZZZZZZZZZZZZZZZZZZZZZZZ"


@pytest.mark.parametrize(
    "call",
    [
        lambda me: me.get(UNKNOWN),
        lambda me: me.get("core://user/nobody"),
        lambda me: me.update(UNKNOWN, content="x"),
        lambda me: me.forget(UNKNOWN),
        lambda me: me.restore(UNKNOWN),
        lambda me: me.history(UNKNOWN),
    ],
    ids=["get", "get-uri", "update", "forget", "restore", "history"],
)
def test_unknown_id_is_not_found(me, call):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin")
    with pytest.raises(NotFound):
        call(me)


# ---------------------------------------------------------------- list / count / stats


def test_list_filters_by_kind(me):  # type: ignore[no-untyped-def]
    me.remember("Went swimming", kind="event", at=WHEN)
    me.remember("Likes tea", kind="preference")
    me.remember("Lives in Berlin", kind="fact")
    assert [r.content for r in me.list(kind="preference")] == ["Likes tea"]
    assert {r.content for r in me.list(kind=["fact", "event"])} == {
        "Went swimming", "Lives in Berlin"}
    assert me.count(kind="event") == 1
    with pytest.raises(Invalid, match="unknown kind"):
        me.list(kind="gossip")


def test_list_since_until_on_at(me):  # type: ignore[no-untyped-def]
    for day in range(5):
        me.remember(f"Diary day {day}", kind="event", at=WHEN + timedelta(days=day))
    since, until = WHEN + timedelta(days=1), WHEN + timedelta(days=3)
    got = [r.content for r in me.list(since=since, until=until)]
    assert got == ["Diary day 1", "Diary day 2"]  # since inclusive, until exclusive
    assert me.count(since=since) == 4
    assert me.count(until=until) == 3
    other_tz = (WHEN + timedelta(days=4)).astimezone(BEIJING)
    assert [r.content for r in me.list(since=other_tz)] == ["Diary day 4"]


def test_list_limit_offset_and_order(me):  # type: ignore[no-untyped-def]
    for day in range(6):
        me.remember(f"Diary day {day}", kind="event", at=WHEN + timedelta(days=day))
    assert [r.content for r in me.list(limit=2, offset=1)] == ["Diary day 1", "Diary day 2"]
    assert [r.content for r in me.list(offset=4)] == ["Diary day 4", "Diary day 5"]
    assert [r.content for r in me.list(limit=2, newest_first=True)] == [
        "Diary day 5", "Diary day 4"]
    assert list(me.list(limit=0)) == []
    assert [r.id for r in me] == [r.id for r in me.list()]


@pytest.mark.parametrize(
    "kwargs", [{"layer": "trash"}, {"limit": -1}, {"offset": -1}, {"limit": "5"}]
)
def test_list_rejects_bad_filters(me, kwargs):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        me.list(**kwargs)


def test_count_and_stats(mem, me):  # type: ignore[no-untyped-def]
    me.remember("Went swimming", kind="event", at=WHEN)
    me.remember("Likes tea", kind="preference")
    gone = me.remember("Lives in Berlin", kind="fact").memory
    me.forget(gone.id)
    assert me.count() == 2
    assert me.count(layer=["core", "deleted"]) == 3
    stats = me.stats()
    assert (stats.user, stats.agent) == ("alice", "noah")
    assert stats.total == 3
    assert stats.by_layer == {"core": 2, "archived": 0, "deleted": 1, "cold": 0}
    assert stats.by_kind == {"event": 1, "preference": 1, "fact": 1}
    assert stats.events == 4  # three creates and one forget
    assert stats.embedder == mem.embedder.model_id
    assert stats.dimensions == mem.embedder.dimensions
    assert stats.path == str(mem.store.location)
    assert json.loads(json.dumps(stats.to_dict()))["total"] == 3


def test_memories_survive_reopening(mem, me, tmp_path):  # type: ignore[no-untyped-def]
    rec = me.remember("I moved to Berlin", uri="core://user/city").memory
    mem.close()
    with engramdb.open(tmp_path / "memory.db", embedder="hashing") as again:
        view = again.scope(user="alice", agent="noah")
        assert view.get(rec.id) == rec
        assert view.recall("Berlin", k=1, track=False)[0].memory.id == rec.id


def test_unscoped_verbs_use_the_default_scope(mem):  # type: ignore[no-untyped-def]
    rec = mem.remember("I moved to Berlin").memory
    assert (rec.user, rec.agent) == ("default", "default")
    assert mem.scope().get(rec.id) == rec
    assert [r.id for r in mem] == [rec.id]
    assert mem.get(rec.id, user="default", agent="default") == rec


def test_scoped_view_delegates_every_verb(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice")
    rec = me.remember("I moved to Berlin").memory
    assert (rec.user, rec.agent) == ("alice", "default")
    assert mem.get(rec.id, user="alice") == rec
    assert "alice" in repr(me)
    with pytest.raises(AttributeError):
        me.no_such_verb  # noqa: B018



def test_uri_write_is_not_swallowed_by_a_duplicate(me):  # type: ignore[no-untyped-def]
    plain = me.remember("I live in Berlin").memory
    r = me.remember("I live in Berlin", uri="core://user/city")
    assert r.action == Action.ADD
    assert me.get("core://user/city").id == r.memory.id != plain.id


def test_restore_when_the_uri_was_taken_again_conflicts(me):  # type: ignore[no-untyped-def]
    old = me.remember("My name is Li", uri="core://user/name").memory
    me.forget(old.id)
    new = me.remember("My name is Wang", uri="core://user/name").memory
    with pytest.raises(Conflict):
        me.restore(old.id)
    assert me.get(old.id).layer == engramdb.Layer.DELETED
    assert me.get("core://user/name").id == new.id


def test_recall_kinds_may_be_one_string(me):  # type: ignore[no-untyped-def]
    me.remember("Berlin trip", kind="event", at=WHEN)
    fact = me.remember("I live in Berlin", kind="fact").memory
    assert [h.memory.id for h in me.recall("Berlin", kinds="fact", track=False)] == [fact.id]


@pytest.mark.parametrize(
    "when",
    [datetime(1, 1, 1, tzinfo=UTC), datetime(999, 12, 31, 23, 59, tzinfo=UTC),
     datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)],
)
def test_dates_far_away_round_trip_and_sort(me, when):  # type: ignore[no-untyped-def]
    me.remember("Something in 2025", kind="event", at=WHEN)
    rec = me.remember("Something far away", kind="event", at=when).memory
    assert me.get(rec.id).at == when
    ordered = [r.at for r in me.list()]
    assert ordered == sorted(ordered)
    assert me.recall("far away", k=1, track=False)[0].memory.id == rec.id

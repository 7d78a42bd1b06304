"""Slot-aware supersession, near-duplicates, surprise and history chains (issue 4, write path),
in English and Chinese, with a frozen clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb import Action, Draft
from engramdb.testing import FrozenClock
from engramdb.write.supersede import SURPRISE_BASE, SURPRISE_GAIN

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores


def current_contents(me) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(r.content for r in me.list(include_superseded=False))


@pytest.mark.parametrize(("old_text", "new_text", "slot"), [
    ("My stack is Java 8", "We use Java 21", "user/tech stack"),
    ("我的技术栈是Java 8", "我们用Java 21", "user/tech stack"),
])
def test_new_stack_supersedes_the_old(me, clock, old_text, new_text, slot):  # type: ignore[no-untyped-def]
    old = me.remember(old_text).memory
    clock.advance(days=30)
    r = me.remember(new_text)
    assert r.action == Action.SUPERSEDE and r.rule == "slot_number_changed"
    assert r.evidence["old_id"] == old.id and r.evidence["slot"] == slot
    assert r.evidence["old_value"] == "java 8" and r.evidence["new_value"] == "java 21"
    gone = me.get(old.id)
    assert gone.invalid_at == r.memory.at == clock.now()
    assert gone.superseded_by == r.memory.id and not gone.current
    assert me.history(old.id)[1].op == "supersede"
    assert current_contents(me) == [new_text]
    assert sorted(x.content for x in me.list()) == sorted([old_text, new_text])  # history kept


def test_lisbon_berlin_oslo_chain_with_history(me, clock):  # type: ignore[no-untyped-def]
    ids = []
    for text in ["Li lives in Lisbon", "Li moved to Berlin", "Li now lives in Oslo"]:
        ids.append(me.remember(text).memory.id)
        clock.advance(days=100)
    assert current_contents(me) == ["Li now lives in Oslo"]
    for link in ids:  # from any link, the whole chain, oldest first
        versions = me.history(link)
        assert [v.memory.id for v in versions] == [ids[0], ids[0], ids[1], ids[1], ids[2]]
        assert [v.op for v in versions] == ["create", "supersede"] * 2 + ["create"]
        assert [v.current for v in versions] == [False] * 4 + [True]
        assert versions[-1].to_dict()["current"] is True
    lisbon, berlin = me.get(ids[0]), me.get(ids[1])
    assert lisbon.superseded_by == ids[1] and berlin.superseded_by == ids[2]
    assert lisbon.invalid_at == berlin.at and berlin.invalid_at == me.get(ids[2]).at


def test_moving_back_makes_the_old_value_current_again(me, clock):  # type: ignore[no-untyped-def]
    first = me.remember("Li lives in Berlin").memory
    clock.advance(days=1)
    me.remember("Li lives in Oslo")
    clock.advance(days=1)
    back = me.remember("Li lives in Berlin")
    assert (back.action, back.rule) == (Action.SUPERSEDE, "slot_new_value")
    assert back.memory.id != first.id and current_contents(me) == ["Li lives in Berlin"]
    assert len(me.history(first.id)) == 5  # create+supersede, create+supersede, create


def test_an_archived_value_is_superseded_too(mem, me, clock):  # type: ignore[no-untyped-def]
    old = me.remember("Li lives in Lisbon").memory
    mem.store.save(old.replace(layer=engramdb.Layer.ARCHIVED, version=old.version + 1),
                   "archive")
    r = me.remember("Li lives in Oslo")
    assert r.action == Action.SUPERSEDE and r.evidence["old_id"] == old.id


def test_chinese_move_supersedes(me, clock):  # type: ignore[no-untyped-def]
    old = me.remember("李住在北京").memory
    clock.advance(days=10)
    r = me.remember("李搬到了上海")
    assert (r.action, r.rule) == (Action.SUPERSEDE, "slot_new_value")
    assert r.evidence["slot"] == "李/residence"
    assert (r.evidence["old_value"], r.evidence["new_value"]) == ("北京", "上海")
    assert me.get(old.id).superseded_by == r.memory.id
    r2 = me.remember("李现在住在柏林")
    assert r2.action == Action.SUPERSEDE and r2.evidence["old_id"] == r.memory.id
    assert current_contents(me) == ["李现在住在柏林"]
    assert [v.memory.content for v in me.history(old.id) if v.op == "create"] == [
        "李住在北京", "李搬到了上海", "李现在住在柏林"]


@pytest.mark.parametrize(("old_text", "new_text"), [
    ("The service runs on port 8420", "The service runs on port 9000"),
    ("release 0.1.0", "release 0.2.0"),
    ("The latest release is 0.1.0", "The latest release is 0.2.0"),
    ("服务的端口是8420", "服务的端口是9000"),
    ("engramdb的版本是0.1.0", "engramdb的版本是0.2.0"),
])
def test_a_changed_number_always_supersedes(me, old_text, new_text):  # type: ignore[no-untyped-def]
    old = me.remember(old_text).memory
    r = me.remember(new_text)
    assert (r.action, r.rule) == (Action.SUPERSEDE, "slot_number_changed")
    assert me.get(old.id).superseded_by == r.memory.id
    assert current_contents(me) == [new_text]


@pytest.mark.parametrize(("old_text", "new_text"), [
    ("The service runs on port 9000", "The service now runs on port 9000"),
    ("release 0.2.0", "The latest release is 0.2.0"),
    ("Li lives in Berlin", "Li moved to Berlin"),
    ("我住在北京", "我现在住在北京"),
])
def test_the_same_value_is_a_noop(me, old_text, new_text):  # type: ignore[no-untyped-def]
    old = me.remember(old_text).memory
    r = me.remember(new_text)
    assert (r.action, r.rule) == (Action.NOOP, "slot_same_value")
    assert r.memory.id == old.id and r.memory.use_count == 1
    assert me.count() == 1


def test_old_text_contained_in_the_new_is_an_update(me):  # type: ignore[no-untyped-def]
    old = me.remember("Li lives in Berlin").memory
    r = me.remember("Li lives in Berlin with his wife Anna")
    assert (r.action, r.rule) == (Action.UPDATE, "slot_refined")
    assert r.memory.id == old.id and r.memory.version == 2
    assert me.get(old.id).content == "Li lives in Berlin with his wife Anna"
    assert me.count() == 1


@pytest.mark.parametrize("texts", [
    ["Li lives in Berlin", "Li works in Berlin"],
    ["李住在北京", "李在北京工作"],
    ["Li lives in Berlin", "Anna lives in Oslo"],
])
def test_different_attributes_or_subjects_never_supersede(me, texts):  # type: ignore[no-untyped-def]
    results = [me.remember(t) for t in texts]
    assert [r.action for r in results] == [Action.ADD, Action.ADD]
    assert current_contents(me) == sorted(texts)


def test_events_never_supersede(me, clock):  # type: ignore[no-untyped-def]
    a = me.remember("Li lives in Berlin", kind="event", at=clock.now())
    b = me.remember("Li lives in Oslo", kind="event", at=clock.now() + timedelta(days=1))
    c = me.remember("李搬到了上海", kind="event", at=clock.now() + timedelta(days=2))
    d = me.remember("李搬到了北京", kind="event", at=clock.now() + timedelta(days=3))
    assert {r.action for r in (a, b, c, d)} == {Action.ADD}
    assert len(current_contents(me)) == 4


def test_events_at_other_times_are_not_near_duplicates(me, clock):  # type: ignore[no-untyped-def]
    me.remember("Went swimming in the lake today", kind="event", at=clock.now())
    r = me.remember("Went swimming in the lake today!", kind="event",
                    at=clock.now() + timedelta(days=7))
    assert r.action == Action.ADD


def test_uri_memories_are_left_to_their_uri(me):  # type: ignore[no-untyped-def]
    me.remember("Li lives in Berlin", uri="core://user/li")
    r = me.remember("Li lives in Oslo")
    assert r.action == Action.ADD and len(current_contents(me)) == 2


def test_an_older_value_written_late_becomes_history(me, clock):  # type: ignore[no-untyped-def]
    now = me.remember("Li lives in Oslo").memory
    r = me.remember("Li lives in Lisbon", at=clock.now() - timedelta(days=400))
    assert (r.action, r.rule) == (Action.SUPERSEDE, "slot_older_value")
    assert r.memory.superseded_by == now.id and me.get(now.id).current
    assert [v.memory.content for v in me.history(now.id)] == ["Li lives in Lisbon",
                                                              "Li lives in Oslo"]


def test_contradictory_writes_in_one_batch_apply_in_order(me):  # type: ignore[no-untyped-def]
    results = me.remember_many([Draft("Li lives in Lisbon"), Draft("Li moved to Berlin"),
                                Draft("Li now lives in Oslo"), Draft("ok")])
    assert [r.action for r in results] == [Action.ADD, Action.SUPERSEDE, Action.SUPERSEDE,
                                           Action.REJECT]
    assert current_contents(me) == ["Li now lives in Oslo"]
    assert me.count() == 3


# ---------------------------------------------------------------- near-duplicates


@pytest.mark.parametrize(("first", "second"), [
    ("the garden has three old apple trees", "the garden has three old apple trees too"),
    ("我们家的花园里有三棵苹果树", "我们家的花园里有三棵苹果树呢"),
])
def test_near_duplicate_is_a_noop_with_its_similarity(me, first, second):  # type: ignore[no-untyped-def]
    old = me.remember(first).memory
    r = me.remember(second)
    assert (r.action, r.rule) == (Action.NOOP, "near_duplicate")
    assert r.memory.id == old.id and r.evidence["duplicate_of"] == old.id
    assert r.evidence["jaccard"] >= 0.8 and r.evidence["cosine"] >= 0.9
    assert me.count() == 1


def test_near_duplicate_needs_the_same_numbers_and_kind(me):  # type: ignore[no-untyped-def]
    me.remember("the garden has 3 old apple trees")
    changed = me.remember("the garden has 4 old apple trees")  # a new value (write/shape.py)
    assert (changed.action, changed.rule) == (Action.SUPERSEDE, "shape_value_changed")
    assert me.remember("the garden has 3 old apple trees too",
                       kind="preference").action == Action.ADD


# ---------------------------------------------------------------- surprise


def test_surprise_gates_default_importance(me):  # type: ignore[no-untyped-def]
    novel = me.remember("Quantum tunnelling explains alpha decay")
    assert novel.evidence["surprise"] == 1.0
    assert novel.memory.importance == pytest.approx(0.5 * (SURPRISE_BASE + SURPRISE_GAIN))
    overlap = me.remember("Alpha decay rates in heavy nuclei follow from quantum tunnelling")
    assert overlap.action == Action.ADD and overlap.evidence["surprise"] < 0.5
    assert overlap.memory.importance < novel.memory.importance
    given = me.remember("Quantum tunnelling explains fusion in stars", importance=0.9)
    assert given.memory.importance == 0.9 and "surprise" in given.evidence


def test_a_successor_keeps_at_least_its_predecessors_importance(me):  # type: ignore[no-untyped-def]
    old = me.remember("Li lives in Lisbon", importance=0.9).memory
    new = me.remember("Li lives in Oslo").memory
    assert new.importance == old.importance == 0.9


# ---------------------------------------------------------------- racing writers


@pytest.mark.parametrize("text", ["Li lives in Berlin", "我们家的花园里有三棵苹果树"])
def test_two_writers_racing_the_same_content_end_with_one_memory(tmp_path, text):  # type: ignore[no-untyped-def]
    path = tmp_path / "race.db"
    clock = FrozenClock(datetime(2026, 3, 1, tzinfo=UTC))
    engramdb.open(path, embedder="hashing", clock=clock).close()
    barrier = threading.Barrier(2)
    results: list[Action] = []
    errors: list[BaseException] = []

    def write() -> None:
        try:
            with engramdb.open(path, embedder="hashing", clock=clock) as m:
                barrier.wait()
                results.append(m.remember(text).action)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == sorted([Action.ADD, Action.NOOP])
    with engramdb.open(path, embedder="hashing", clock=clock) as m:
        assert m.count() == 1


def test_a_batch_decides_exactly_as_one_write_at_a_time(tmp_path, clock):  # type: ignore[no-untyped-def]
    """remember_many finds each write's neighbours with one matrix product for the batch;
    the decisions must be those of writing the same drafts one by one."""
    import random

    rng = random.Random(5)
    names, cities = ["Li", "Ana", "Tom", "Wang"], ["Berlin", "Oslo", "Lisbon", "Rome"]
    drafts = [Draft(rng.choice([f"{rng.choice(names)} lives in {rng.choice(cities)}",
                                f"{rng.choice(names)} works in {rng.choice(cities)}",
                                f"the service runs on port {rng.choice([80, 8080, 9000])}",
                                f"we talked about {rng.choice(cities)} and the weather"]),
                    kind="fact") for _ in range(80)]
    outcomes = []
    for batched in (True, False):
        with engramdb.open(tmp_path / f"b{batched}.db", embedder="hashing", clock=clock) as mem:
            me = mem.scope(user="u")
            results = (me.remember_many(drafts) if batched
                       else [me.remember(d.content, kind=d.kind) for d in drafts])
            current = sorted(r.content for r in me.list(include_superseded=False))
            outcomes.append(([(r.action, r.rule) for r in results], current))
    assert outcomes[0] == outcomes[1]


def test_batches_of_any_size_decide_as_one_write_at_a_time(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Crowded slots (many superseded ports, exact-tie vectors), events, URIs and Chinese, in
    batches of several sizes: the same actions, rules, targets and current memories."""
    import random

    rng = random.Random(11)
    names, cities = ["Li", "Ana", "Tom", "Wang"], ["Berlin", "Oslo", "Lisbon", "Rome"]

    def draft() -> Draft:
        roll = rng.random()
        if roll < 0.3:
            return Draft(f"the service runs on port {rng.randrange(8000, 8060)}", kind="fact")
        if roll < 0.45:
            return Draft(f"{rng.choice(names)} had lunch in {rng.choice(cities)}", kind="event")
        if roll < 0.55:
            return Draft(f"{rng.choice(names)} prefers {rng.choice(['tea', 'coffee'])}",
                         kind="preference", uri=f"core://user/{rng.randrange(3)}")
        if roll < 0.75:
            who, city = rng.choice(["小王", "小李"]), rng.choice(["北京", "上海", "杭州"])
            return Draft(f"{who}住在{city}", kind="fact")
        return Draft(f"{rng.choice(names)} lives in {rng.choice(cities)}", kind="fact")

    drafts = [draft() for _ in range(240)]
    outcomes = []
    for sizes in ((1,), (240,), (7, 50, 3)):
        with engramdb.open(tmp_path / f"s{len(outcomes)}.db", embedder="hashing",
                           clock=clock) as mem:
            me = mem.scope(user="u")
            results, i, n = [], 0, 0
            while i < len(drafts):
                size = sizes[n % len(sizes)]
                results += me.remember_many(drafts[i : i + size])
                i, n = i + size, n + 1
            ids = {r.memory.id: k for k, r in enumerate(results)}
            decided = [(r.action, r.rule, ids.get(r.memory.id)) for r in results]
            current = sorted(r.content for r in me.list(include_superseded=False))
            outcomes.append((decided, current))
    assert outcomes[0] == outcomes[1] == outcomes[2]

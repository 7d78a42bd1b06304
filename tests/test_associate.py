"""Spreading activation and co-activation: what a recall brings in by association, and why."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from engramdb import Layer
from engramdb.recall.associate import FLOOR, spread
from engramdb.recall.concepts import build

LEX = "lexical"   # text legs only: a memory sharing no word with the query is never a direct hit


def assoc_ids(hits):  # type: ignore[no-untyped-def]
    return [h.memory.id for h in hits if "associate" in h.explanation.legs]


def trip(me):  # type: ignore[no-untyped-def]
    a = me.remember("Ski trip to Hokkaido with Wang", kind="event").memory
    b = me.remember("The snow season starts in December", kind="fact").memory
    me.remember("Bought a new keyboard", kind="event")
    return a, b


def test_a_strong_edge_recalls_an_unmatched_memory(me):  # type: ignore[no-untyped-def]
    a, b = trip(me)
    me.link(a.id, b.id, "reminds", 0.8)
    hits = me.recall("that ski trip with Wang", k=5, track=False, preset=LEX)
    assert hits[0].memory.id == a.id
    assert assoc_ids(hits) == [b.id]
    note = next(h for h in hits if h.memory.id == b.id).explanation.notes[0]
    assert note.startswith("associated: activation") and "reminds ->" in note and a.id in note
    assert hits.plan["associated"] == [b.id]


def test_a_weak_edge_does_not(me):  # type: ignore[no-untyped-def]
    a, b = trip(me)
    me.link(a.id, b.id, "reminds", 0.1)
    hits = me.recall("that ski trip with Wang", k=5, track=False, preset=LEX)
    assert b.id not in [h.memory.id for h in hits]


def test_a_shared_rare_person_bridges_two_memories(me):  # type: ignore[no-untyped-def]
    lunch = me.remember("Lunch at the noodle bar", kind="event", people=["Wang Lei"]).memory
    ski = me.remember("Got the season passes", kind="event", people=["Wang Lei"]).memory
    for i in range(12):
        me.remember(f"Standup meeting number {i}", kind="event", people=["Anna"])
    hits = me.recall("noodle bar", k=5, track=False, preset=LEX)
    assert hits[0].memory.id == lunch.id
    assert assoc_ids(hits) == [ski.id]
    assert "person 'Wang Lei' (2 memories)" in hits[1].explanation.notes[0]
    zh_a = me.remember("在面馆吃午饭", kind="event", people=["小新"]).memory
    zh_b = me.remember("买了季票", kind="event", people=["小新"]).memory
    zh = me.recall("面馆", k=5, track=False, preset=LEX)
    assert zh[0].memory.id == zh_a.id and assoc_ids(zh) == [zh_b.id]


def test_a_rare_concept_spreads_more_than_a_common_one(mem, me):  # type: ignore[no-untyped-def]
    seed = me.remember("Seed note", topics=["glaciology", "work"]).memory
    rare = me.remember("Rare note", topics=["glaciology"]).memory
    common = [me.remember(f"Common note {i}", topics=["work"]).memory for i in range(11)]
    scope = mem._scope("alice", "noah")
    graph = build(mem.store, scope, [seed])
    assert graph.concepts == {"topic:glaciology": 2, "topic:work": 12}
    act = spread(graph, {seed.id: 1.0})
    assert act.of(rare.id) > 2 * act.of(common[0].id)
    assert all(abs(act.of(c.id) - act.of(common[0].id)) < 1e-12 for c in common)


def test_two_hops_get_less_than_one(mem, me):  # type: ignore[no-untyped-def]
    a = me.remember("First", kind="event").memory
    b = me.remember("Second", kind="event").memory
    c = me.remember("Third", kind="event").memory
    me.link(a.id, b.id, "related", 0.8)
    me.link(b.id, c.id, "related", 0.8)
    act = spread(build(mem.store, mem._scope("alice", "noah"), [a]), {a.id: 1.0})
    assert act.of(a.id) > act.of(b.id) > act.of(c.id) > 0


def test_the_graph_is_bounded_with_a_60_member_concept(mem, me):  # type: ignore[no-untyped-def]
    seed = me.remember("The hub", topics=[f"topic {t}" for t in range(6)]).memory
    for t in range(6):
        me.remember_many([_draft(f"member {t}-{i}", f"topic {t}") for i in range(59)])
    graph = build(mem.store, mem._scope("alice", "noah"), [seed])
    assert graph.size <= 300 and graph.truncated
    assert graph.concepts[next(iter(graph.concepts))] == 60
    act = spread(graph, {seed.id: 1.0})
    assert 1 <= act.iterations <= 20 and np.isfinite(act.values).all()
    hits = me.recall("the hub", k=5, track=False, preset=LEX)
    assert hits[0].memory.id == seed.id   # fan 60: nothing passes the floor
    assert assoc_ids(hits) == []


def _draft(content: str, topic: str):  # type: ignore[no-untyped-def]
    from engramdb import Draft

    return Draft(content=content, kind="event", topics=[topic])


def test_the_same_graph_gives_the_same_activations(mem, me):  # type: ignore[no-untyped-def]
    seeds = [me.remember(f"Seed {i}", people=["Li"], topics=[f"t{i % 3}"]).memory
             for i in range(8)]
    for i in range(20):
        me.remember(f"Other {i}", topics=[f"t{i % 3}"], people=["Li" if i % 2 else "Bo"])
    me.link(seeds[0].id, seeds[5].id, "caused", 0.7)
    scope = mem._scope("alice", "noah")
    runs = [spread(build(mem.store, scope, seeds[:3]), {s.id: 1.0 + i for i, s in
                                                         enumerate(seeds[:3])})
            for _ in range(2)]
    assert runs[0].order == runs[1].order
    assert np.max(np.abs(runs[0].values - runs[1].values)) <= 1e-12
    assert runs[0].values.sum() <= 1.0 + 1e-9


def test_associated_hits_obey_the_time_window_and_kinds(me):  # type: ignore[no-untyped-def]
    a = me.remember("Ski trip to Hokkaido", kind="event",
                    at=datetime(2025, 5, 10, tzinfo=UTC)).memory
    old = me.remember("The snow season starts in December", kind="event",
                      at=datetime(2023, 1, 5, tzinfo=UTC)).memory
    me.link(a.id, old.id, "reminds", 0.9)
    assert assoc_ids(me.recall("ski trip", k=5, track=False, preset=LEX)) == [old.id]
    windowed = me.recall("ski trip in May 2025", k=5, track=False, preset=LEX)
    # what association brings from outside the window follows, explained as outside it
    assert [h.memory.id for h in windowed] == [a.id, old.id]
    assert any(n.startswith("outside the asked window") for n in windowed[1].explanation.notes)
    fact = me.remember("December is cold", kind="fact").memory
    me.link(a.id, fact.id, "reminds", 0.9)
    events = me.recall("ski trip", k=5, track=False, preset=LEX, kinds=["event"])
    assert fact.id not in [h.memory.id for h in events]


def test_associated_hits_leave_out_superseded_values_for_a_present_question(me):  # type: ignore[no-untyped-def]
    a = me.remember("Ski trip to Hokkaido", kind="event").memory
    old = me.remember("The snow season starts in December", uri="knowledge://snow").memory
    me.link(a.id, old.id, "reminds", 0.9)
    rec = me.get(old.id)
    me.memory.store.save(rec.replace(invalid_at=rec.at, version=rec.version + 1), "supersede")
    assert assoc_ids(me.recall("ski trip", k=5, track=False, preset=LEX)) == []


def test_archived_memories_enter_only_through_links_and_strong_ones_wake(me):  # type: ignore[no-untyped-def]
    a = me.remember("Ski trip to Hokkaido", kind="event", people=["Wang"]).memory
    linked = me.remember("The snow season starts in December", kind="fact").memory
    shared = me.remember("Wang likes green tea", kind="fact", people=["Wang"]).memory
    me.link(a.id, linked.id, "reminds", 0.8)
    store = me.memory.store
    for rec in (me.get(linked.id), me.get(shared.id)):
        store.save(rec.replace(layer=Layer.ARCHIVED, version=rec.version + 1), "archive")
    hits = me.recall("ski trip", k=5, track=False, preset=LEX)
    assert assoc_ids(hits) == [linked.id]
    assert hits[1].woken and me.get(linked.id).layer == Layer.ARCHIVED   # track=False
    me.recall("ski trip", k=5, preset=LEX)
    assert me.get(linked.id).layer == Layer.CORE                           # woken, promoted
    assert me.get(shared.id).layer == Layer.ARCHIVED


def test_tracked_recalls_strengthen_co_activation_edges(me, clock):  # type: ignore[no-untyped-def]
    a = me.remember("Ski trip to Hokkaido with Wang", kind="event").memory
    b = me.remember("Ski passes for the trip", kind="event").memory
    store, scope = me.memory.store, me.memory._scope("alice", "noah")
    me.recall("ski trip", k=2, track=False, preset=LEX)
    assert me.links(a.id) == []                                            # pure read
    me.recall("ski trip", k=2, preset=LEX)
    assert store.get_link(scope, a.id, b.id, "associated").weight == 0.05
    assert store.get_link(scope, b.id, a.id, "associated").weight == 0.05
    me.recall("ski trip", k=2, preset=LEX)                                  # within 60 s
    assert store.get_link(scope, a.id, b.id, "associated").weight == 0.05
    for _ in range(30):
        clock.advance(seconds=61)
        me.recall("ski trip", k=2, preset=LEX)
    assert store.get_link(scope, a.id, b.id, "associated").weight == 1.0


def test_learned_association_recalls_the_other_memory(me, clock):  # type: ignore[no-untyped-def]
    a, b = trip(me)
    for _ in range(16):   # recalled together often: the edge grows past the floor
        me.recall("Hokkaido snow", k=2, preset=LEX)
        clock.advance(minutes=2)
    hits = me.recall("ski trip with Wang", k=5, track=False, preset=LEX)
    assert assoc_ids(hits) == [b.id]


def test_no_association_when_switched_off(tmp_path, clock):  # type: ignore[no-untyped-def]
    import engramdb

    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, assoc_slots=0) as m:
        me = m.scope(user="alice", agent="noah")
        a, b = trip(me)
        me.link(a.id, b.id, "reminds", 0.9)
        assert assoc_ids(me.recall("ski trip with Wang", k=5, track=False, preset=LEX)) == []


def test_floor_is_relative_to_the_strongest_seed():  # type: ignore[no-untyped-def]
    assert 0 < FLOOR < 0.25


def test_a_file_from_before_the_concept_table_gains_it(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Schema migration 10 fills the concept table from the memories already in the file."""
    import sqlite3

    import engramdb

    path = tmp_path / "old.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="alice", agent="noah")
        lunch = me.remember("Lunch at the noodle bar", kind="event", people=["Wang Lei"]).memory
        ski = me.remember("Got the season passes", kind="event", people=["ＷＡＮＧ  lei"]).memory
    db = sqlite3.connect(path)
    db.execute("DROP TABLE concepts")
    db.execute("DELETE FROM schema_migrations WHERE version >= 10")
    db.commit()
    db.close()
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        scope = mem._scope("alice", "noah")
        assert mem.store.concept_members(scope, "person:wang lei", 10) == sorted(
            [lunch.id, ski.id])
        hits = mem.scope(user="alice", agent="noah").recall("noodle bar", k=5, track=False,
                                                              preset=LEX)
        assert assoc_ids(hits) == [ski.id]

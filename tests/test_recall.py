"""The read path's own rules: presets as data, context, anchor cues, strength blend, ties."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb import Draft, Invalid
from engramdb.recall.presets import PRESETS, Leg, Preset

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores


def ids(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.memory.id for h in hits]


def test_context_finds_a_turn_by_what_it_answers(me):  # type: ignore[no-untyped-def]
    answer = me.remember("Bob: Yes, in March!", kind="event",
                         context="Alice: did you ever go to Kyoto for the cherry blossoms?")
    me.remember("Bob: I had noodles for lunch", kind="event")
    hits = me.recall("when did Bob go to Kyoto", k=2, track=False, preset="lexical")
    assert ids(hits)[0] == answer.memory.id
    assert hits[0].memory.content == "Bob: Yes, in March!"  # context is searched, not returned


def test_context_round_trips(me):  # type: ignore[no-untyped-def]
    r = me.remember("Yes, in March", context="did you go to Kyoto?")
    assert me.get(r.memory.id).context == "did you go to Kyoto?"


def test_a_hit_whose_person_the_query_names_ranks_first(me):  # type: ignore[no-untyped-def]
    other = me.remember("I adopted a cat last spring", people=["Jon"])
    named = me.remember("I adopted a cat last spring!", people=["Caroline"])
    hits = me.recall("did Caroline adopt a cat", k=2, track=False)
    assert ids(hits) == [named.memory.id, other.memory.id]
    assert hits[0].explanation.terms["anchor_factor"] > 1.0
    assert any("Caroline" in n for n in hits[0].explanation.notes)
    assert "anchor_factor" not in hits[1].explanation.terms


def test_presets_are_data(me, monkeypatch):  # type: ignore[no-untyped-def]
    me.remember("the deploy key lives in the vault")
    monkeypatch.setitem(PRESETS, "bm25-only", Preset("bm25-only", (Leg("bm25"),)))
    hits = me.recall("deploy key", k=3, track=False, preset="bm25-only")
    assert [set(h.explanation.legs) for h in hits] == [{"bm25"}]
    with pytest.raises(Invalid, match="unknown recall preset"):
        me.recall("deploy key", preset="nope")


def test_uri_in_the_query_lists_that_prefix(me):  # type: ignore[no-untyped-def]
    name = me.remember("Alice", kind="identity", uri="core://user/name")
    me.remember("Berlin", uri="core://user/city")
    hits = me.recall("core://user/name", k=5, track=False)
    assert ids(hits)[0] == name.memory.id
    assert "uri" in hits[0].explanation.legs


def test_weak_memories_are_pushed_down_by_strength(tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.testing import FrozenClock

    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        old = me.remember("we talked about the garden party")
        clock.advance(days=200)
        new = me.remember("we discussed the garden party")  # not a near-duplicate
        hits = me.recall("garden party", k=2, track=False, preset="lexical")
        assert ids(hits) == [new.memory.id, old.memory.id]
        assert hits[0].explanation.strength > hits[1].explanation.strength


def test_kinds_filter(me):  # type: ignore[no-untyped-def]
    me.remember_many([Draft("Lisbon trip in May", kind="event"),
                      Draft("Lisbon is lovely in May", kind="preference")])
    hits = me.recall("Lisbon May", k=5, track=False, kinds=["event"])
    assert [h.memory.kind.value for h in hits] == ["event"]


def test_explanation_is_complete_and_printable(me):  # type: ignore[no-untyped-def]
    me.remember("Our stack is Java 21 and Kafka")
    hit = me.recall("which Java version", k=1, track=False)[0]
    d = hit.explanation.to_dict()
    assert set(d) == {"legs", "fused", "strength", "terms", "final", "notes"}
    assert d["legs"]["bm25"]["rank"] == 1
    assert abs(hit.score - d["terms"]["relevance"]) < 1e-4  # the score is the relevance
    assert "bm25#1" in str(hit.explanation)


def test_the_top_k_is_the_prefix_of_a_full_ranking(mem):  # type: ignore[no-untyped-def]
    """Recall stops loading candidates once no other can reach the top k: that must never
    change the answer."""
    import random

    rng = random.Random(3)
    words = "berlin oslo cat dog tea coffee java rust kafka garden party trip wang li".split()
    people = ["Wang", "Li", "Ana", "Tom"]
    me = mem.scope(user="prune")
    me.remember_many([Draft(" ".join(rng.choices(words, k=6)), people=[rng.choice(people)],
                            importance=rng.random()) for _ in range(300)])
    for _ in range(30):
        query = " ".join(rng.choices(words + ["wang", "li"], k=3))
        full = me.recall(query, k=1000, track=False)
        for k in (1, 5, 20):
            top = me.recall(query, k=k, track=False)
            assert [(h.memory.id, h.score) for h in top] == [
                (h.memory.id, h.score) for h in full[:k]]


def test_matches_on_common_words_only_do_not_outrank_real_ones(me):  # type: ignore[no-untyped-def]
    """Every turn names Maya; only two memories say where she lives. The turns' match on
    'Maya' alone (an IDF near 0) is not ranked, so the anchor cue cannot lift them above."""
    me.remember_many([Draft(f"Maya: note number {i} about work and weather", kind="event",
                            people=["Maya"]) for i in range(12)])
    lisbon = me.remember("Maya lives in Lisbon", kind="fact")
    hits = me.recall("Where does Maya live?", k=3, track=False)
    assert ids(hits)[0] == lisbon.memory.id
    assert all(h.memory.id == lisbon.memory.id or "bm25" not in h.explanation.legs
               for h in hits)

"""Honest recall (recall/relevance.py), one piece of evidence per place (recall/collapse.py),
batches that report bad items (write/batch.py) and ingest that survives a bad message."""

from __future__ import annotations

import pytest

import engramdb
from engramdb import Action, Draft
from engramdb.errors import ConfigError, Invalid
from engramdb.recall.collapse import same_words

FACTS = [
    "Mara plays the cello in a community orchestra",
    "The build cache lives on host alder-01",
    "Jonas is allergic to peanuts",
    "The team ships the mobile app on Thursdays",
    "李雷每周六去爬山",
]
# what a scope holds besides: relevance is judged against a scope's background, which needs
# MIN_BACKGROUND memories (recall/relevance.py)
BACKGROUND = [
    "The quarterly review moved to the second floor meeting room",
    "Priya prefers tea without sugar in the afternoon",
    "Our office plants get watered every Monday",
    "The staging database is backed up at midnight",
    "Tomas drives a green hatchback to work",
    "The printer on level three jams with thick paper",
    "Lena runs the book club on the last Friday of the month",
    "The VPN certificate was renewed in March",
    "Hugo keeps spare chargers in the top drawer",
    "The design team uses dark mode everywhere",
    "王芳周末喜欢在家做饭",
    "公司的年会定在十二月中旬",
    "张伟的女儿今年上小学一年级",
    "楼下的咖啡店换了新的老板",
    "我们组每周三下午开例会",
    "The recycling bins are emptied on Tuesdays",
    "Ines learned to sail last summer",
    "The wifi password changes every quarter",
    "Karl collects vintage fountain pens",
    "The kitchen fridge is cleaned out on Fridays",
]


@pytest.fixture
def floored(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       relevance_floor=0.3) as m:
        m.remember_many([Draft(f) for f in FACTS + BACKGROUND])
        yield m


def test_each_hit_has_a_relevance_in_0_1_and_keeps_its_legs(me):  # type: ignore[no-untyped-def]
    me.remember_many([Draft(f) for f in FACTS])
    hits = me.recall("who plays the cello?", k=5)
    assert hits and all(0.0 <= h.score <= 1.0 for h in hits)
    top = hits[0]
    assert "cello" in top.memory.content
    assert top.score == top.explanation.terms["relevance"]
    assert top.explanation.terms["rrf"] > 0 and "bm25" in top.explanation.legs
    assert top.explanation.terms["lexical"] == 1.0   # every content word of the query


def test_the_floor_abstains_on_what_memory_does_not_hold(floored):  # type: ignore[no-untyped-def]
    hits = floored.recall("what is next year's semiconductor funding plan?")
    assert hits.abstained and list(hits) == []
    assert "relevance" in hits.note and "floor 0.30" in hits.note
    zh = floored.recall("量子纠缠实验的结果是什么？")
    assert zh.abstained and list(zh) == []
    on = floored.recall("where does the build cache live?")
    assert not on.abstained and "alder-01" in on[0].memory.content
    assert all(h.score >= 0.3 for h in on)
    assert "爬山" in floored.recall("李雷周六做什么？")[0].memory.content


def test_a_scope_too_small_to_judge_keeps_its_hits(tmp_path, clock):  # type: ignore[no-untyped-def]
    # five memories are no background: what stands out cannot be told, so the floor keeps
    # them (their scores still say how little they match)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       relevance_floor=0.3) as m:
        m.remember_many([Draft(f) for f in FACTS])
        hits = m.recall("what is next year's semiconductor funding plan?")
        assert hits and not hits.abstained and hits[0].score < 0.3


def test_a_recall_takes_its_own_floor(floored):  # type: ignore[no-untyped-def]
    asked = "what is next year's semiconductor funding plan?"
    assert floored.recall(asked).abstained                      # the configured 0.3
    assert not floored.recall(asked, relevance_floor=0).abstained
    on = floored.recall("where does the build cache live?", relevance_floor=0.9)
    assert "alder-01" in on[0].memory.content and all(h.score >= 0.9 for h in on)


@pytest.mark.parametrize("bad", [-0.1, 1.5, "0.3", True, float("nan")])
def test_a_bad_recall_floor_is_invalid(floored, bad):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="relevance_floor"):
        floored.recall("where does the build cache live?", relevance_floor=bad)


def test_a_floor_of_zero_keeps_every_hit(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       relevance_floor=0) as m:
        m.remember_many([Draft(f) for f in FACTS])
        hits = m.recall("semiconductor funding plan for next year", k=5)
        assert len(hits) > 0 and not hits.abstained
        assert all(h.score < 0.25 for h in hits)  # the default floor would drop them all


@pytest.mark.parametrize("bad", [-0.1, 1.5, "high", True, float("nan")])
def test_a_bad_relevance_floor_is_a_config_error(tmp_path, bad):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="relevance_floor"):
        engramdb.Config(relevance_floor=bad)


def test_a_fact_that_repeats_its_turn_takes_one_place(me):  # type: ignore[no-untyped-def]
    report = me.ingest([{"role": "user", "content": "I moved to Lisbon last spring."},
                        {"role": "assistant", "content": "Nice, how do you like it?"}],
                       extractor="rules")
    assert report.extracted, "the rules extract the move"
    hits = me.recall("where did I move?", k=5)
    contents = [h.memory.content.rstrip(".") for h in hits]
    assert len(contents) == len(set(contents))
    assert any("also stored as" in n for h in hits for n in h.explanation.notes)


def test_same_words() -> None:
    assert same_words("I moved to Lisbon last spring.", "i moved to lisbon last spring")
    assert not same_words("I moved to Lisbon", "I moved to Lisbon with my sister and our dog")


def test_remember_many_skip_reports_bad_items(me):  # type: ignore[no-untyped-def]
    drafts = [Draft("Mara plays the cello"), Draft("..."), Draft("   "),
              Draft("Jonas is allergic to peanuts")]
    with pytest.raises(Invalid, match="item 1"):
        me.remember_many(drafts)
    assert me.count() == 0   # the default stays all-or-nothing
    results = me.remember_many(drafts, on_error="skip")
    assert [r.action for r in results] == [Action.ADD, Action.REJECT, Action.REJECT,
                                           Action.ADD]
    assert results[1].rule == "invalid_input" and results[1].evidence["index"] == 1
    assert "no words" in results[1].evidence["error"]
    assert me.count() == 2


@pytest.mark.parametrize("bad", ["ignore", "", None, 1])
def test_a_bad_on_error_is_invalid(me, bad):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="on_error"):
        me.remember_many([Draft("Mara plays the cello")], on_error=bad)


def test_ingest_keeps_the_conversation_around_a_wordless_message(me):  # type: ignore[no-untyped-def]
    report = me.ingest([{"role": "user", "content": "I started learning the violin"},
                        {"role": "assistant", "content": "..."},
                        {"role": "user", "content": "👍"},
                        {"role": "user", "content": "长" * 30000},  # over the size limit
                        {"role": "user", "content": "我下周去成都出差"}], extractor="rules")
    assert report.turns == 5 and report.skipped_turns == 2 and report.offloaded_turns == 1
    assert report.to_dict()["skipped_turns"] == 2
    kept = {r.content for r in me.list(kind="event")}
    assert {"I started learning the violin", "我下周去成都出差"} <= kept

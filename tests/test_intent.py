"""Intent-aware recall: each query is classified (English and Chinese) and picks a preset."""

from __future__ import annotations

import pytest

from engramdb.recall.intent import classify

CASES = [
    ("what is the config", "factual"),
    ("小新叫什么名字", "factual"),
    ("Berlin", "factual"),
    ("config", "factual"),
    ("when did we last talk", "temporal"),
    ("昨天发生了什么", "temporal"),
    ("What did we do 3 days ago?", "temporal"),
    ("我们什么时候去的北海道", "temporal"),
    ("why did the build fail", "causal"),
    ("为什么构建失败了", "causal"),
    ("What caused the outage yesterday?", "causal"),
    ("tell me about the memory architecture", "exploratory"),
    ("聊聊记忆系统", "exploratory"),
    ("What kinds of music does Li like?", "exploratory"),
    ("介绍一下这个项目", "exploratory"),
]


@pytest.mark.parametrize(("query", "intent"), CASES)
def test_queries_are_classified(query, intent):  # type: ignore[no-untyped-def]
    found = classify(query)
    assert found.name == intent
    assert found.reason.startswith(intent)


@pytest.mark.parametrize(("query", "intent", "preset"), [
    ("what is the config", "factual", "factual"),
    ("when did we talk about Berlin", "temporal", "temporal"),
    ("why did we move to Berlin", "causal", "causal"),
    ("tell me about Berlin", "exploratory", "exploratory"),
    ("为什么搬到柏林", "causal", "causal"),
])
def test_the_intent_and_preset_are_in_the_result(me, query, intent, preset):  # type: ignore[no-untyped-def]
    me.remember("We moved to Berlin for the new job", kind="fact")
    hits = me.recall(query, k=3, track=False)
    assert (hits.plan["intent"], hits.plan["preset"]) == (intent, preset)
    assert hits.plan["intent_reason"]


def test_a_named_preset_wins_but_the_intent_is_still_reported(me):  # type: ignore[no-untyped-def]
    me.remember("We moved to Berlin for the new job", kind="fact")
    hits = me.recall("why did we move to Berlin", k=3, track=False, preset="lexical")
    assert (hits.plan["intent"], hits.plan["preset"]) == ("causal", "lexical")


def test_causal_questions_follow_caused_links_further(me):  # type: ignore[no-untyped-def]
    fail = me.remember("The build failed on the release branch", kind="event").memory
    cause = me.remember("numpy 2.0 came out and broke the wheels", kind="event").memory
    me.link(cause.id, fail.id, "caused", 0.15)
    plain = me.recall("the build failed", k=5, track=False, preset="lexical")
    causal = me.recall("why did the build fail", k=5, track=False)
    assert cause.id not in [h.memory.id for h in plain]       # 0.15 alone is below the floor
    assert causal.plan["preset"] == "causal"
    assert cause.id in [h.memory.id for h in causal]          # caused counts double


def test_temporal_questions_put_recent_memories_first(me, clock):  # type: ignore[no-untyped-def]
    me.remember("Talked with Li about the garden", kind="event")
    clock.advance(days=90)
    recent = me.remember("Talked with Li about the kitchen", kind="event").memory
    hits = me.recall("when did I talk with Li", k=2, track=False)
    assert hits.plan["intent"] == "temporal"
    assert hits[0].memory.id == recent.id
    assert hits[0].explanation.terms["recency_factor"] > hits[1].explanation.terms[
        "recency_factor"]


def test_exploratory_questions_get_diverse_hits(me):  # type: ignore[no-untyped-def]
    for n in range(3):
        me.remember(f"Berlin trip photos from the Berlin trip album {n}", kind="event")
    other = me.remember("Berlin has good bakeries and a trip-worthy museum island",
                        kind="fact").memory
    plain = me.recall("Berlin trip", k=2, track=False, preset="default")
    wide = me.recall("tell me about the Berlin trip", k=2, track=False)
    assert wide.plan["preset"] == "exploratory"
    assert other.id not in [h.memory.id for h in plain]
    assert other.id in [h.memory.id for h in wide]
    assert any("diversity (MMR)" in note for h in wide for note in h.explanation.notes)


def test_exploratory_questions_get_one_more_association_place(mem, tmp_path, clock):  # type: ignore[no-untyped-def]
    import engramdb
    from engramdb.recall.plan import choose_preset, plan_query

    def slots(m, query):  # type: ignore[no-untyped-def]
        return choose_preset(plan_query(query), None, m.config.preset,
                             m.config.assoc_slots).assoc_slots

    assert (slots(mem, "Kyoto garden"), slots(mem, "tell me about the Kyoto garden")) == (2, 3)
    with engramdb.open(tmp_path / "off.db", embedder="hashing", clock=clock,
                       assoc_slots=0) as off:
        assert (slots(off, "Kyoto garden"), slots(off, "聊聊京都的花园")) == (0, 0)

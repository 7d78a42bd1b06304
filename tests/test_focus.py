"""focus(query): the active goal, triggered procedures, memories chosen by the attention score,
and an audit of every candidate (the excluded ones too). Uncertainty cues in both languages.
Procedures: triggers, confidence up and down, bounded."""

from __future__ import annotations

import pytest

from engramdb.attention.score import (
    MIN_RELEVANCE,
    WEIGHTS,
    Signals,
    exclusion,
    terms,
    total,
)
from engramdb.attention.uncertainty import detect
from engramdb.errors import Invalid, NotFound

SCENARIOS = {
    "en": {
        "goal": "fix failing pytest and push the PR",
        "fact": "The last pytest failure was test_login timing out on the CI runner",
        "pref": "I prefer dark roast coffee in the morning",
        "proc": ("Debug a failing pytest run", ["run pytest -x -q", "read the first traceback"],
                 ["pytest"]),
        "query": "why did pytest fail?",
    },
    "zh": {
        "goal": "修复失败的 pytest 并提交 PR",
        "fact": "上次 pytest 失败是因为 test_login 在 CI 上超时",
        "pref": "我最喜欢喝深烘焙的咖啡",
        "proc": ("排查失败的测试", ["运行 pytest -x", "先看第一个报错"], ["测试失败", "pytest"]),
        "query": "pytest 又失败了，怎么办？",
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_goal_scenario(me, lang):  # type: ignore[no-untyped-def]
    s = SCENARIOS[lang]
    goal = me.goal_start(s["goal"])
    fact = me.remember(s["fact"], kind="fact").memory
    pref = me.remember(s["pref"], kind="preference", importance=1.0).memory
    proc = me.add_procedure(*s["proc"])
    ws = me.focus(s["query"])
    assert ws.goal == goal
    assert [t.procedure.id for t in ws.procedures] == [proc.id]
    assert "pytest" in ws.procedures[0].on_query
    assert [m.memory.id for m in ws.memories] == [fact.id]
    audit = {a.memory.id: a for a in ws.audit}
    assert set(audit) == {fact.id, pref.id}  # the excluded preference is in the audit
    out = audit[pref.id]
    assert not out.included and out.terms["importance"] == 1.0
    assert out.terms["query"] == 0 and out.terms["goal"] == 0
    assert out.terms["distraction"] == 1.0
    assert "not about the query nor the goal" in out.reason
    kept = audit[fact.id]
    assert kept.included and kept.reason.startswith("in:")
    assert kept.terms["query"] >= MIN_RELEVANCE and kept.terms["goal"] >= MIN_RELEVANCE
    assert kept.terms["uncertainty"] == 1.0  # the query asks
    assert set(kept.terms) == set(WEIGHTS)
    assert kept.score == pytest.approx(sum(WEIGHTS[n] * v for n, v in kept.terms.items()))
    assert kept.score > out.score
    text = ws.render()
    assert s["goal"] in text and s["fact"] in text and s["pref"] not in text
    assert s["proc"][1][0] in text


def test_goal_relevance_alone_brings_a_memory_in(me):  # type: ignore[no-untyped-def]
    me.goal_start("migrate billing to Temporal workflows", open_loops=["retry policy?"])
    fact = me.remember("Temporal activities must be idempotent because retries happen").memory
    me.remember("The office plants need water on Mondays", importance=0.9)
    ws = me.focus("what should I do next")
    assert [m.memory.id for m in ws.memories] == [fact.id]
    assert ws.memories[0].terms["goal"] > ws.memories[0].terms["query"]


def test_superseded_values_stay_out_and_say_why(me, clock):  # type: ignore[no-untyped-def]
    old = me.remember("I live in Lisbon", kind="fact").memory
    clock.advance(days=1)
    result = me.remember("I live in Berlin", kind="fact")
    assert result.action.value == "supersede"
    ws = me.focus("where do I live")
    assert [m.memory.id for m in ws.memories] == [result.memory.id]
    past = me.get(old.id)
    parts = terms(past, Signals(goal=0.0, query=1.0, uncertain=True), clock.now())
    assert parts["staleness"] == 1.0
    why = exclusion(past, parts, total(parts))
    assert why is not None and why.startswith(f"superseded by {result.memory.id}")


def test_k_limits_the_workspace_and_the_rest_is_audited(me):  # type: ignore[no-untyped-def]
    for i in range(6):
        me.remember(f"deploy note {i}: the deploy script needs AWS_PROFILE set, step {i}")
    ws = me.focus("deploy script", k=2)
    assert len(ws.memories) == 2
    ranked_out = [a for a in ws.audit if "below the top 2" in a.reason]
    assert len(ranked_out) == 4
    assert min(m.score for m in ws.memories) >= max(a.score for a in ranked_out)


def test_focus_tracks_uses_unless_told_not_to(me):  # type: ignore[no-untyped-def]
    fact = me.remember("The staging database listens on port 5433").memory
    me.focus("staging database port", track=False)
    assert me.get(fact.id).use_count == 0
    me.focus("staging database port")
    assert me.get(fact.id).use_count == 1


def test_focus_without_goal_or_memories(me):  # type: ignore[no-untyped-def]
    ws = me.focus("anything at all?")
    assert ws.goal is None and ws.memories == [] and ws.audit == [] and ws.procedures == []
    assert ws.uncertainty.uncertain
    assert ws.to_dict()["memories"] == []


@pytest.mark.parametrize("query", ["", "   ", None])
def test_focus_refuses_an_empty_query(me, query):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="query"):
        me.focus(query)


@pytest.mark.parametrize("k", [0, -1, 101, True, "5"])
def test_focus_refuses_a_bad_k(me, k):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="k must be"):
        me.focus("x", k=k)


# ---------------------------------------------------------------- uncertainty


@pytest.mark.parametrize("text", [
    "why did the test fail", "How do I rebase this branch", "not sure the cache is warm",
    "is it safe to deploy?", "怎么办", "这样可以吗？", "他来了吗", "为什么测试会失败",
    "我不确定缓存是不是热的", "部署安全吗?",
])
def test_uncertain_queries(text):  # type: ignore[no-untyped-def]
    assert detect(text).uncertain, text


@pytest.mark.parametrize("text", [
    "whatever happens the pipeline is green", "somehow it works now", "the pipeline is green",
    "showhow notwithstanding", "吗啡是一种止痛药", "无论什么情况都要先跑测试", "不管怎么样都要推送",
    "部署完成了",
])
def test_certain_queries(text):  # type: ignore[no-untyped-def]
    assert not detect(text).uncertain, (text, detect(text).cues)


# ---------------------------------------------------------------- procedures


def test_procedure_triggers_in_both_languages_and_by_goal(me):  # type: ignore[no-untyped-def]
    en = me.add_procedure("Rebase a stale branch", ["git fetch", "git rebase origin/main"],
                          ["rebase", "stale branch"])
    zh = me.add_procedure("发布新版本", ["打标签", "运行发布脚本"], ["发布", "release"])
    assert [t.procedure.id for t in me.triggered_procedures("how do I rebase?")] == [en.id]
    assert [t.procedure.id for t in me.triggered_procedures("今天要发布吗")] == [zh.id]
    assert [t.procedure.id for t in me.triggered_procedures("my branches are stale")] == [en.id]
    assert me.triggered_procedures("prerelease notes") == []  # word boundaries
    assert me.triggered_procedures("debased currency") == []
    me.goal_start("cut the 2.0 release")
    hits = me.triggered_procedures("what next")
    assert [t.procedure.id for t in hits] == [zh.id] and hits[0].on_goal == ["release"]
    assert "goal has 'release'" in hits[0].why


def test_confidence_moves_with_outcomes_and_stays_in_bounds(me):  # type: ignore[no-untyped-def]
    proc = me.add_procedure("Restart the worker", ["systemctl restart worker"], ["worker"])
    assert proc.confidence == 0.5
    up = me.procedure_outcome(proc.uri, True)
    assert up.confidence == pytest.approx(0.6) and up.successes == 1
    down = me.procedure_outcome(proc.id, False)
    assert down.confidence == pytest.approx(0.48) and down.failures == 1
    for _ in range(60):
        p = me.procedure_outcome(proc.id, True)
    assert 0.99 < p.confidence <= 1.0
    for _ in range(80):
        p = me.procedure_outcome(proc.id, False)
    assert 0.0 <= p.confidence < 0.01
    history = me.history(proc.id)
    assert history[1].reason == "outcome: success" and history[2].reason == "outcome: failure"


def test_adding_the_same_title_keeps_the_track_record(me):  # type: ignore[no-untyped-def]
    proc = me.add_procedure("Restart the worker", ["systemctl restart worker"], ["worker"])
    me.procedure_outcome(proc.id, True)
    again = me.add_procedure("Restart the worker", ["check logs", "systemctl restart worker"],
                             ["worker", "重启"])
    assert again.id == proc.id and again.steps[0] == "check logs"
    assert again.confidence == pytest.approx(0.6) and again.successes == 1
    assert [p.id for p in me.procedures()] == [proc.id]


def test_a_hand_written_procedure_memory_reads_as_one(me):  # type: ignore[no-untyped-def]
    me.remember("Rotate the API keys\n1. open the vault\n2. rotate\n3. redeploy",
                kind="procedure", topics=["api keys"])
    (proc,) = me.procedures()
    assert proc.title == "Rotate the API keys"
    assert proc.steps == ["open the vault", "rotate", "redeploy"]
    assert [t.procedure.title for t in me.triggered_procedures("rotate API keys")] == [
        "Rotate the API keys"]


def test_bad_procedures_are_refused(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="step"):
        me.add_procedure("t", [], ["x"])
    with pytest.raises(Invalid, match="trigger"):
        me.add_procedure("t", ["s"], [])
    with pytest.raises(Invalid, match="confidence"):
        me.add_procedure("t", ["s"], ["x"], confidence=1.5)
    with pytest.raises(Invalid):
        me.add_procedure("", ["s"], ["x"])
    proc = me.add_procedure("t stuff", ["s"], ["x"])
    with pytest.raises(Invalid, match="true or false"):
        me.procedure_outcome(proc.id, "yes")
    with pytest.raises(NotFound):
        me.procedure_outcome("procedure://nope", True)
    fact = me.remember("not a procedure at all").memory
    with pytest.raises(NotFound):
        me.procedure_outcome(fact.id, True)

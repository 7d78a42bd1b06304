"""Memory.context(): the prompt block at the start of a turn, in its documented layout, within
a token budget, with what was cut listed at the end."""

from __future__ import annotations

import json

import pytest

from engramdb.attention.context import LAYOUT, TITLES
from engramdb.errors import Invalid, NotFound
from engramdb.text.tokens import count_tokens

PIN = "Never connect to the production database."


def fill(me, clock):  # type: ignore[no-untyped-def]
    me.remember("My name is Alice, a backend engineer.", uri="core://user/name")
    me.remember("I am Noah, Alice's coding assistant.", uri="core://agent/persona")
    me.remember("Always run the tests before pushing.", kind="rule", importance=0.6)
    me.remember("Never force-push to main.", kind="rule", importance=0.9)
    me.remember("Li lives in Lisbon")
    clock.advance(days=30)
    me.remember("Li lives in Oslo")
    me.remember("李住在北京")
    clock.advance(days=30)
    me.remember("李搬到了上海")
    me.remember("The staging database password rotates every Monday.")


def session(me):  # type: ignore[no-untyped-def]
    wm = me.session("s1", budget=200, keep=2)
    wm.add("user", PIN, pin=True)
    for i in range(12):
        wm.add("user", f"Step {i}: we decided to set the retry limit to {i + 3}.")
        wm.add("assistant", "ok")
    wm.add("user", "Where does Li live now?")
    return wm


def test_layout_and_content(me, clock):  # type: ignore[no-untyped-def]
    fill(me, clock)
    session(me)
    ctx = me.context("where does Li live now?", budget=2000, session="s1")
    names = [s.name for s in ctx.sections]
    assert names == ["identity", "rules", "memories", "summary", "pinned", "recent"]
    assert names == [n for n in LAYOUT if n in names]  # the documented order
    assert ctx.text.startswith("## Identity\n- I am Noah, Alice's coding assistant.\n"
                               "- My name is Alice, a backend engineer.\n\n## Rules\n"
                               "- Never force-push to main.\n- Always run the tests before")
    for s in ctx.sections:
        assert f"## {TITLES[s.name]}\n" + "\n".join(s.lines) in ctx.text
        assert s.tokens == count_tokens(f"## {s.title}\n" + "\n".join(s.lines))
    memories = next(s for s in ctx.sections if s.name == "memories").lines
    assert "- [2026-03-31] Li lives in Oslo" in memories
    assert not any("Lisbon" in line for line in memories)  # superseded: not asked about
    assert ctx.text.endswith("user: Where does Li live now?")
    assert f"## Pinned\nuser: {PIN}" in ctx.text
    assert ctx.cut == [] and "## Cut" not in ctx.text
    assert ctx.tokens == count_tokens(ctx.text) <= 2000


@pytest.mark.parametrize(("query", "old", "new"), [
    ("where did Li live before?", "Li lives in Lisbon", "Li lives in Oslo"),
    ("李以前住在哪里？", "李住在北京", "李搬到了上海"),
])
def test_superseded_values_only_when_asked_about_the_past(me, clock, query, old, new):  # type: ignore[no-untyped-def]
    fill(me, clock)
    past = me.context(query, budget=2000)
    lines = next(s for s in past.sections if s.name == "memories").lines
    former = next(line for line in lines if old in line)
    assert "superseded]" in former and " → " in former
    assert any(new in line and "superseded" not in line for line in lines)
    now = me.context(query.replace("before", "now").replace("以前", "现在"), budget=2000)
    assert old not in now.text


@pytest.mark.parametrize("budget", [1, 5, 12, 30, 60, 100, 150, 250, 400])
def test_always_within_the_budget_with_the_cut_listed(me, clock, budget):  # type: ignore[no-untyped-def]
    fill(me, clock)
    session(me)
    full = me.context("where does Li live now?", budget=5000, session="s1")
    ctx = me.context("where does Li live now?", budget=budget, session="s1")
    assert ctx.tokens == count_tokens(ctx.text) <= budget
    kept = sum(len(s.lines) for s in ctx.sections)
    assert kept + len(ctx.cut) == sum(len(s.lines) for s in full.sections)
    if ctx.cut and ctx.text:
        assert ctx.text.rindex("## ") == ctx.text.index("## Cut\n")  # the last section
        first = ctx.cut[0]
        shown = f"- {first.section}: {first.label} ({first.tokens} tokens)"
        assert shown in ctx.text or "items" in ctx.text.split("## Cut")[1]


def test_priorities_under_a_tight_budget(me, clock):  # type: ignore[no-untyped-def]
    fill(me, clock)
    session(me)
    ctx = me.context("where does Li live now?", budget=90, session="s1")
    names = [s.name for s in ctx.sections]
    assert names[:3] == ["identity", "rules", "pinned"]  # before memories and old turns
    assert PIN in ctx.text and "Never force-push to main." in ctx.text
    assert {c.section for c in ctx.cut} >= {"memories", "summary"}
    assert ctx.tokens <= 90


def test_the_cut_names_what_was_left_out(me, clock):  # type: ignore[no-untyped-def]
    me.remember("My name is Alice.", uri="core://user/name")
    for i in range(6):
        me.remember(f"Project {i} uses Postgres version {10 + i} in production.")
    ctx = me.context("which Postgres version does the project use?", budget=100)
    assert ctx.tokens == count_tokens(ctx.text) <= 100
    kept = next(s for s in ctx.sections if s.name == "memories").lines
    assert ctx.cut and all(c.section == "memories" for c in ctx.cut)
    assert len(kept) + len(ctx.cut) == 6
    for c in ctx.cut:
        assert c.label.startswith("Project ") and not c.label.startswith("[")
        assert not any(c.label.rstrip("…") in line for line in kept)
    first = ctx.cut[0]
    assert f"## Cut\n- memories: {first.label} ({first.tokens} tokens)" in ctx.text


def test_the_active_goal_and_triggered_procedures_are_in_context(me, clock):  # type: ignore[no-untyped-def]
    """The goal stack and the procedures (attention/) fill their sections, in their place."""
    fill(me, clock)
    me.goal_start("fix the failing pytest and push the PR",
                  constraints=["never force-push to main"])
    me.add_procedure("debug a failing test", ["run pytest -x", "read the first failure"],
                     ["pytest"])
    ctx = me.context("why did the test fail?", budget=2000)
    names = [s.name for s in ctx.sections]
    assert names[:4] == ["identity", "rules", "goal", "procedures"]
    assert ("## Active goal\n- fix the failing pytest and push the PR\n"
            "  - constraint: never force-push to main") in ctx.text
    assert ("## Procedures\n- debug a failing test (confidence 0.50)\n  1. run pytest -x\n"
            "  2. read the first failure") in ctx.text
    assert ctx.text.count("read the first failure") == 1  # not again among the memories
    me.goal_done()
    assert "## Active goal" not in me.context("why did the test fail?", budget=2000).text


def test_context_without_anything_stored(me):  # type: ignore[no-untyped-def]
    ctx = me.context("你好，我们上次说到哪了？", budget=100)
    assert (ctx.text, ctx.tokens, ctx.sections, ctx.cut) == ("", 0, [], [])


def test_chinese_and_encodings(me, clock):  # type: ignore[no-untyped-def]
    me.remember("我叫王芳，是后端工程师。", uri="core://user/name")
    me.remember("永远不要在周五发布。", kind="rule")
    me.remember("项目使用 PostgreSQL 16。")
    wm = me.session("zh", encoding="o200k_base")
    wm.add("user", "我们决定下周一上线。")
    for encoding in ("cl100k_base", "o200k_base", "estimate"):
        ctx = me.context("项目用什么数据库？", budget=300, session="zh", encoding=encoding)
        assert ctx.encoding == encoding
        assert ctx.tokens == count_tokens(ctx.text, encoding) <= 300
        assert "## Identity\n- 我叫王芳，是后端工程师。" in ctx.text
        assert "## Rules\n- 永远不要在周五发布。" in ctx.text
        assert "PostgreSQL 16" in ctx.text and "user: 我们决定下周一上线。" in ctx.text


def test_to_dict_is_json(me, clock):  # type: ignore[no-untyped-def]
    fill(me, clock)
    ctx = me.context("Li?", budget=40)
    data = json.loads(json.dumps(ctx.to_dict()))
    assert data["text"] == ctx.text and data["tokens"] == ctx.tokens
    assert len(data["cut"]) == len(ctx.cut) and str(ctx) == ctx.text


def test_context_reads_do_not_cross_scopes(mem, clock):  # type: ignore[no-untyped-def]
    alice = mem.scope(user="alice", agent="noah")
    bob = mem.scope(user="bob", agent="noah")
    alice.remember("Alice's secret: the launch code is 4242.", kind="rule")
    alice.session("s1").add("user", "alice's private turn")
    assert "4242" not in bob.context("launch code", budget=500).text
    with pytest.raises(NotFound):
        bob.context("launch code", budget=500, session="s1")


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"budget": 0}, Invalid, "budget"), ({"budget": -1}, Invalid, "budget"),
    ({"budget": True}, Invalid, "budget"), ({"budget": "800"}, Invalid, "budget"),
    ({"encoding": "bogus"}, Invalid, "unknown token encoding"),
    ({"session": "nope"}, NotFound, "no session 'nope'"), ({"session": ""}, Invalid, "session"),
])
def test_bad_input(me, kwargs, error, match):  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=match):
        me.context("anything", **kwargs)


@pytest.mark.parametrize("query", ["", "   ", None])
def test_empty_query_is_invalid(me, query):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        me.context(query, budget=100)

"""The goal stack: start, pause, resume, done, notes; one active goal; state survives a
restart; scopes never see each other's goals; bad input is a clear error."""

from __future__ import annotations

import pytest

import engramdb
from engramdb.errors import Conflict, Invalid, NotFound
from engramdb.model import GoalStatus


def test_start_pause_resume_done(me):  # type: ignore[no-untyped-def]
    goal = me.goal_start("fix failing pytest and push the PR",
                         constraints=["never push to main"], open_loops=["why is it flaky?"])
    assert me.active_goal() == goal
    assert goal.status == GoalStatus.ACTIVE and goal.constraints == ["never push to main"]
    paused = me.goal_pause()
    assert paused.status == GoalStatus.PAUSED and me.active_goal() is None
    with pytest.raises(NotFound, match="no active goal"):
        me.goal_pause()
    assert me.goal_resume(goal.id).status == GoalStatus.ACTIVE
    done = me.goal_done(evidence=["CI run 4711 is green"])
    assert done.status == GoalStatus.DONE and done.closed_at is not None
    assert done.evidence == ["CI run 4711 is green"]
    assert me.active_goal() is None
    with pytest.raises(Conflict, match="already done"):
        me.goal_done(goal.id)
    with pytest.raises(Conflict, match="done"):
        me.goal_resume(goal.id)


def test_a_nested_goal_pauses_its_parent_and_hands_back(me, clock):  # type: ignore[no-untyped-def]
    outer = me.goal_start("ship release 2.0")
    clock.advance(minutes=5)
    inner = me.goal_start("修复失败的 pytest")
    assert inner.parent == outer.id
    assert me.goals("paused")[0].id == outer.id
    assert me.active_goal().id == inner.id
    me.goal_done()
    assert me.active_goal().id == outer.id  # the parent resumes


def test_a_goal_paused_by_hand_does_not_come_back_by_itself(me, clock):  # type: ignore[no-untyped-def]
    first = me.goal_start("write the docs")
    me.goal_pause()
    clock.advance(minutes=1)
    me.goal_start("answer the support ticket")
    me.goal_done()
    assert me.active_goal() is None
    assert [g.id for g in me.goals("paused")] == [first.id]


def test_resume_pauses_the_active_one(me, clock):  # type: ignore[no-untyped-def]
    a = me.goal_start("goal a")
    me.goal_pause()
    clock.advance(minutes=1)
    b = me.goal_start("goal b")
    me.goal_resume(a.id)
    statuses = {g.id: g.status for g in me.goals()}
    assert statuses == {a.id: GoalStatus.ACTIVE, b.id: GoalStatus.PAUSED}
    assert me.goal_resume(a.id).status == GoalStatus.ACTIVE  # already active: unchanged


def test_notes_add_evidence_loops_and_close_them(me):  # type: ignore[no-untyped-def]
    me.goal_start("迁移计费系统", open_loops=["谁负责回滚？"])
    g = me.goal_note(evidence=["staging 验证通过"], open_loops=["what about cron?"],
                     constraints=["不要在周五部署"])
    assert g.evidence == ["staging 验证通过"]
    assert g.open_loops == ["谁负责回滚？", "what about cron?"]
    g = me.goal_note(close_loops=["谁负责回滚？"])
    assert g.open_loops == ["what about cron?"] and g.constraints == ["不要在周五部署"]
    with pytest.raises(NotFound, match="no open loop"):
        me.goal_note(close_loops=["never opened"])
    with pytest.raises(Invalid, match="nothing to note"):
        me.goal_note()


def test_goals_survive_a_restart(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "goals.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        mem.goal_start("outer", user="u")
        clock.advance(minutes=1)
        inner = mem.goal_start("inner", constraints=["keep it small"], user="u")
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        again = mem.active_goal(user="u")
        assert again == inner
        mem.goal_done(user="u")
        assert mem.active_goal(user="u").title == "outer"


def test_goals_are_scoped(mem):  # type: ignore[no-untyped-def]
    alice, bob = mem.scope(user="alice"), mem.scope(user="bob")
    goal = alice.goal_start("alice's goal")
    assert bob.active_goal() is None and bob.goals() == []
    with pytest.raises(NotFound):
        bob.goal_done(goal.id)
    bob.goal_start("bob's goal")  # each scope has its own active goal
    assert alice.active_goal().title == "alice's goal"


def test_forget_scope_drops_its_goals(mem):  # type: ignore[no-untyped-def]
    mem.goal_start("to be dropped", user="gone")
    mem.goal_start("kept", user="stays")
    mem.forget_scope(user="gone")
    assert mem.goals(user="gone") == []
    assert len(mem.goals(user="stays")) == 1


@pytest.mark.parametrize("title", ["", "   ", None, 42, "x" * 2001, "bad \ud800 text"])
def test_bad_titles_are_refused(me, title):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid):
        me.goal_start(title)
    assert me.goals() == []


def test_bad_lists_and_statuses_are_refused(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="list"):
        me.goal_start("g", constraints="one text, not a list")
    with pytest.raises(Invalid):
        me.goal_start("g", open_loops=[""])
    with pytest.raises(Invalid, match="unknown goal status"):
        me.goals("finished")
    with pytest.raises(NotFound):
        me.goal_resume("no-such-goal")
    assert me.goals() == []

"""Review schedule: FSRS intervals from a memory's uses, due_for_review, and boot/context
surfacing the due ones when Config.review_due is set (dynamics/review.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engramdb
from engramdb import ConfigError, Invalid
from engramdb.dynamics.review import W, interval, retrievability, schedule


def test_a_new_memory_is_due_after_the_first_fsrs_stability(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("The deploy key lives in the vault", kind="fact").memory
    plan = schedule(rec, clock.now())
    assert plan.reviews == 1 and plan.stability_days == pytest.approx(W[2])
    assert plan.interval_days == pytest.approx(W[2])   # retention 0.9: interval = stability
    assert plan.due_at == rec.recorded_at + timedelta(days=W[2])
    assert mem.due_for_review() == []
    clock.advance(days=3)
    assert mem.due_for_review() == []
    clock.advance(days=1)
    due = mem.due_for_review()
    assert [rv.memory.id for rv in due] == [rec.id]
    assert due[0].retrievability == pytest.approx(retrievability(4, W[2]))
    assert 0.89 < due[0].retrievability < 0.9


def test_spaced_uses_push_the_next_review_further_than_massed_ones(mem, clock):  # type: ignore[no-untyped-def]
    spaced = mem.remember("部署密钥放在保险库里", kind="fact").memory
    massed = mem.remember("The staging database is on port 5433", kind="fact").memory
    for _ in range(3):
        clock.advance(days=4)
        mem.recall("部署密钥放在哪里", k=1)   # a tracked recall: one use of the spaced one
    assert mem.get(spaced.id).use_count == 3
    now = clock.now()
    for minutes in (1, 2, 3):
        mem.store.record_uses(massed.scope, [massed.id], massed.recorded_at
                              + timedelta(minutes=2 * minutes), 60)
    s = schedule(mem.get(spaced.id), now)
    m = schedule(mem.get(massed.id), now)
    assert s.reviews == m.reviews == 4
    assert s.stability_days > 3 * W[2]                    # each spaced review grew it
    assert m.stability_days < W[2] * 1.05                  # same-hour reviews add almost nothing
    assert s.due_at > m.due_at
    assert [rv.memory.id for rv in mem.due_for_review()] == [massed.id]


def test_due_ones_come_least_retrievable_first_and_k_cuts(mem, clock):  # type: ignore[no-untyped-def]
    old = mem.remember("Rule: never push directly to main", kind="rule").memory
    clock.advance(days=10)
    new = mem.remember("The user prefers tea over coffee", kind="preference").memory
    clock.advance(days=10)
    got = mem.due_for_review(5)
    assert [rv.memory.id for rv in got] == [old.id, new.id]
    assert got[0].retrievability < got[1].retrievability
    assert [rv.memory.id for rv in mem.due_for_review(1)] == [old.id]
    assert got[0].to_dict()["id"] == old.id and got[0].overdue_days > 0


def test_events_pending_p0_archived_and_superseded_are_not_scheduled(mem, clock):  # type: ignore[no-untyped-def]
    mem.remember("Went to the dentist", kind="event")
    mem.remember("Call the plumber", kind="pending")
    mem.remember("Alice", kind="identity", uri="core://user/name")
    gone = mem.remember("I live in Berlin", kind="fact").memory
    mem.remember("I live in Oslo", kind="fact")
    archived = mem.remember("The printer is on floor 2", kind="fact").memory
    mem.forget(archived.id)
    clock.advance(days=30)
    due = [rv.memory.content for rv in mem.due_for_review(10)]
    assert due == ["I live in Oslo"], due
    assert mem.get(gone.id).invalid_at is not None


@pytest.mark.parametrize("k", [0, -1, 1001, 2.5, "3", True])
def test_a_bad_k_is_invalid(mem, k):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="k must be"):
        mem.due_for_review(k)


def test_the_scoped_view_has_the_verb(mem, clock):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    rec = me.remember("Alice's locker code is 4411", kind="fact").memory
    mem.remember("someone else's fact", kind="fact")
    clock.advance(days=5)
    assert [rv.memory.id for rv in me.due_for_review(10)] == [rec.id]


@pytest.mark.parametrize("bad", [-1, 101, 2.5, True])
def test_the_setting_is_checked(bad):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="review_due"):
        engramdb.Config(review_due=bad)


def test_boot_and_context_surface_due_ones_only_when_set(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        mem.remember("Alice", kind="identity", uri="core://user/name")
        # a lesson: boot's profile (identity, rules, facts, preferences) does not load it
        due = mem.remember("Lesson: the deploy key lives in the vault", kind="lesson").memory
        clock.advance(days=5)
        assert mem.boot().due == []
        assert "Due for review" not in mem.context("what is for lunch", track=False).text
    with engramdb.open(path, embedder="hashing", clock=clock, review_due=3) as mem:
        got = mem.boot()
        assert [r.id for r in got.due] == [due.id] and got.to_dict()["due"][0]["id"] == due.id
        assert [r.content for r in got.memories] == ["Alice"]
        assert mem.boot(budget=2).due == []            # the budget holds only the name
        text = mem.context("what is for lunch", track=False).text
        assert "## Due for review" in text and "deploy key" in text
        assert mem.get(due.id).use_count == 0
        mem.context("what is for lunch")               # tracked: showing it is a review
        assert mem.get(due.id).use_count == 1
        assert mem.due_for_review() == []
        assert "Due for review" not in mem.context("what is for lunch", track=False).text


def test_intervals_follow_the_formula():  # type: ignore[no-untyped-def]
    assert interval(10.0) == pytest.approx(10.0)
    assert interval(10.0, 0.8) > interval(10.0, 0.9)
    assert retrievability(0, 5.0) == 1.0

"""The rules review's facts kept between sleeps (dynamics/rulebook.py): after each change a
kept book says what a book read afresh from the store says, whoever made the change."""

from __future__ import annotations

import engramdb
from engramdb.dynamics.rulebook import RuleBooks
from engramdb.model import Scope

BACKENDS = ("sqlite", "postgres")
SCOPE = Scope("alice", "noah")


def _same(kept: RuleBooks, mem) -> list[str]:  # type: ignore[no-untyped-def]
    """The kept book's rules (ids), checked against a book read afresh."""
    mine = kept.current(mem.store, SCOPE)
    assert mine == RuleBooks().current(mem.store, SCOPE)
    return [f.id for f in mine]


def test_the_kept_book_follows_write_update_forget_restore_rollback(mem, clock):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    kept = RuleBooks()
    first = me.remember("Always pin dependency versions", kind="rule").memory
    assert _same(kept, mem) == [first.id]
    second = me.remember("从不在周五上线", kind="rule").memory
    me.remember("The staging host runs Debian 12", kind="fact")
    assert _same(kept, mem) == [first.id, second.id]
    me.update(first.id, content="Never pin dependency versions")
    assert kept.current(mem.store, SCOPE)[0].shape == ("pindependencyversions", True)
    assert _same(kept, mem) == [first.id, second.id]
    me.forget(second.id)
    assert _same(kept, mem) == [first.id]
    me.restore(second.id)
    assert _same(kept, mem) == [first.id, second.id]
    me.rollback(first.id, 1)
    assert kept.current(mem.store, SCOPE)[0].shape == ("pindependencyversions", False)
    clock.advance(days=2)
    me.recall("pin dependency versions", k=1)   # a use moves the rule's last activity
    assert kept.current(mem.store, SCOPE)[0].last == clock.now()
    assert _same(kept, mem) == [first.id, second.id]
    me.forget(first.id, hard=True)
    assert _same(kept, mem) == [second.id]
    me.forget_scope()
    assert _same(kept, mem) == []


def test_a_change_by_another_handle_reaches_the_kept_book(mem, clock, tmp_path, backend, request):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    kept = RuleBooks()
    rule = me.remember("Always deploy on Fridays", kind="rule").memory
    assert _same(kept, mem) == [rule.id]
    target = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "memory.db"
    with engramdb.open(target, embedder="hashing", clock=clock) as other:
        late = other.remember("Never deploy on Fridays", kind="rule", user="alice",
                              agent="noah").memory
    assert _same(kept, mem) == [rule.id, late.id]


def test_sleeps_through_the_book_decide_as_a_fresh_review(mem, clock):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    old = me.remember("Always deploy on Fridays", kind="rule").memory
    me.sleep()                                   # the engine's book is read here
    dup = me.remember("always deploy on FRIDAYS!", kind="rule", uri="rule://again").memory
    new = me.remember("Never deploy on Fridays", kind="rule").memory
    lessons = me.sleep().phase("lessons")        # and brought up to date here
    assert lessons.ids("rule_merged") == [dup.id]
    assert lessons.ids("rule_retired") == [old.id]
    clock.advance(days=91)
    assert me.sleep().phase("lessons").ids("rule_flagged_unused") == [new.id]
    clock.advance(days=1)
    assert me.sleep().phase("lessons").ids("rule_flagged_unused") == []

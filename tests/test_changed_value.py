"""A changed value said naturally supersedes at write ("changed_value", write/supersede.py: the
recall-time net's judgement asked of the nearest current statement); a near miss (another
subject, another attribute, a plan, one occasion) stays current. Real SQLite files, the
hashing embedder, a frozen clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.testing import FrozenClock


def _remember(path, *texts: str):  # type: ignore[no-untyped-def]
    clock = FrozenClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    with engramdb.open(str(path), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u", agent="a")
        results = []
        for text in texts:
            results.append(me.remember(text, kind="fact"))
            clock.advance(days=9)
        return results, [r.content for r in me.list(include_superseded=False)]


@pytest.mark.parametrize(("old", "new"), [
    ("The office wifi password is Falcon22.",
     "The office wifi password changed, it's Heron58 now."),
    ("Grandpa's check-ups are at St Mary's hospital.",
     "Grandpa's check-ups switched to Riverside Clinic."),
    ("我们家的宽带是电信的。", "宽带换成联通的了。"),
    ("我们家的燃气是港华的。", "燃气现在换成新奥的了。"),
])
def test_a_changed_value_supersedes_at_write(tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    (a, b), live = _remember(tmp_path / "m.db", old, new)
    assert (b.action.value, b.rule) == ("supersede", "changed_value")
    assert b.evidence["old_id"] == a.memory.id
    assert live == [new]


def test_a_chain_of_three_values_ends_at_the_third(tmp_path) -> None:  # type: ignore[no-untyped-def]
    texts = ("我们家的宽带是电信的。", "宽带换成联通的了。", "宽带现在又换成移动的了。")
    (_, _, c), live = _remember(tmp_path / "m.db", *texts)
    assert c.action.value == "supersede"
    assert live == [texts[2]]


@pytest.mark.parametrize(("old", "new"), [
    ("My sister lives in Porto.", "I live in Lisbon now."),                      # subject
    ("我们家的宽带是电信的。", "公司的宽带换成联通的了。"),                            # possessor
    ("我的健身教练是小刘。", "我老婆的健身教练现在换成老周了。"),
    ("Our team wiki lives on Confluence.", "Our design docs moved to Figma now."),  # attribute
    ("Our team wiki lives on Confluence.", "We might move the wiki to Notion next year."),  # plan
    ("我住在杭州。", "我打算明年搬到苏州。"),
    ("Choir practice is on Thursdays at the church hall.",                      # one occasion
     "This Thursday choir practice moved to the school gym since the hall is booked."),
    ("羽毛球课一般在周四晚上。", "下周四教练有事，那节课挪到周五晚上。"),
    ("We're redoing the bathroom; the plumber is Omar from Keystone Plumbing.",  # value kinds:
     "The bathroom budget is 12,500 euros including the new tiles."),            # names / a sum
    ("我们在装修阳台，施工队是老周带的。", "阳台的预算是两万三千块，包括新的推拉门。"),
])
def test_a_near_miss_stays_current(tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    (_, b), live = _remember(tmp_path / "m.db", old, new)
    assert b.rule != "changed_value"
    assert sorted(live) == sorted([old, new])


@pytest.mark.parametrize(("old", "new"), [
    ("The car's inspection is on June 2 at the Eastgate garage.",
     "The car's inspection got moved to June 9."),
    ("搬家公司约在6月20日上午来。", "搬家公司改到6月27日上午来了。"),
])
def test_a_pending_items_changed_day_supersedes_it(tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """A pending item states a value too (its day, its place): a later statement of a new one
    supersedes it, whatever kind each was read as."""
    clock = FrozenClock(datetime(2026, 5, 4, 9, 0, tzinfo=UTC))
    with engramdb.open(str(tmp_path / "m.db"), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        a = me.remember(old, kind="pending")
        clock.advance(days=2)
        b = me.remember(new, kind="fact")
        assert (b.action.value, b.rule) == ("supersede", "changed_value")
        assert b.evidence["old_id"] == a.memory.id
        assert [r.content for r in me.list(include_superseded=False)] == [new]


@pytest.mark.parametrize(("fact", "plan"), [
    ("I drive an old grey Volvo estate.",
     "I'm thinking of swapping the Volvo for an electric Renault next year."),
    ("我书房那台打印机是兄弟牌的。", "我在考虑明年把兄弟打印机换成一台爱普生。"),
])
def test_a_plan_is_no_new_value(tmp_path, fact: str, plan: str) -> None:  # type: ignore[no-untyped-def]
    """A pending item said as a plan tells how things may be: both stay current, and the
    recall-time net does not set the plan above the current fact (recall/conflicts.py)."""
    from engramdb.recall.conflicts import conflict

    clock = FrozenClock(datetime(2026, 5, 4, 9, 0, tzinfo=UTC))
    with engramdb.open(str(tmp_path / "m.db"), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        a = me.remember(fact, kind="fact").memory
        clock.advance(days=3)
        b = me.remember(plan, kind="pending").memory
        assert sorted(r.content for r in me.list(include_superseded=False)) == sorted([fact, plan])
        assert not conflict(a, b)

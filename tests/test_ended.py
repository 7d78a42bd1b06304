"""Supersession by a value the new text says has ended (write/ended.py, rule "ended_value"),
in English and Chinese, through the public API with the moved clock; and what it leaves
alone: ends for a while, at a time or of a part, a thing left somewhere, another subject's
end, events."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb import Action
from engramdb.testing import FrozenClock
from engramdb.write.ended import ended

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)


@pytest.fixture
def mem():  # type: ignore[no-untyped-def]
    clock = FrozenClock(T0)
    with engramdb.open(":memory:", embedder="hashing", clock=clock) as m:
        m.clock_ = clock
        yield m


@pytest.mark.parametrize(("old", "new"), [
    ("I ride a Vespa to the office.", "I sold the Vespa and take the tram now."),
    ("My personal trainer is Marco.", "Marco retired, so I train with Ines now."),
    ("I'm learning the saxophone.", "I gave up the saxophone after a year."),
    ("I have a Netflix subscription.", "I cancelled Netflix to save money."),
    ("我在学书法。", "书法不学了，太费时间。"),
    ("我的理发师是阿强。", "阿强离职了，我换了一家店。"),
    ("我开一辆大众高尔夫。", "我把高尔夫卖掉了。"),
    ("我男朋友叫周凯。", "我和周凯分手了。"),
])
def test_an_ended_value_supersedes_the_fact_that_names_it(mem, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    first = mem.remember(old).memory
    mem.clock_.advance(days=3)
    result = mem.remember(new)
    assert (result.action, result.rule) == (Action.SUPERSEDE, "ended_value")
    assert result.evidence["old_id"] == first.id and result.evidence["ended"]
    assert mem.get(first.id).superseded_by == result.memory.id
    assert [r.content for r in mem.list(include_superseded=False)] == [new]


@pytest.mark.parametrize(("old", "new"), [
    ("I swim every evening.", "I gave up on swimming today, the pool was closed."),
    ("I collect stamps.", "I sold some stamps at the fair."),
    ("I keep my bike in the hallway.", "I left my bike at the station."),
    ("My boss is Hana.", "Hana left the call early."),
    ("My brother plays the trumpet.", "My brother quit his job at the bakery."),
    ("我每天练琴。", "今天累了，练琴停了一天。"),
    ("我喜欢吃草莓。", "我把一些草莓送给了邻居。"),
    # the ended thing is the old fact's subject: that fact still holds
    ("Jonah is a pastry chef.", "I broke up with Jonah last week."),
    ("刘洋是我的高中同学。", "我和刘洋分手了。"),
])
def test_what_ends_only_for_a_while_or_in_part_replaces_nothing(mem, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    first = mem.remember(old).memory
    mem.clock_.advance(days=3)
    result = mem.remember(new)
    assert result.rule != "ended_value"
    assert mem.get(first.id).superseded_by is None


def test_an_event_that_ends_something_supersedes_nothing(mem) -> None:  # type: ignore[no-untyped-def]
    first = mem.remember("I ride a Vespa to the office.").memory
    result = mem.remember("I sold the Vespa yesterday.", kind="event")
    assert result.rule != "ended_value" and mem.get(first.id).superseded_by is None


def test_the_ended_things_are_read_in_both_languages() -> None:
    assert ended("I quit.") == []
    assert [sorted(w) for w in ended("I left Google in March.")] == [["googl"]]
    assert ended("I left my keys at the office.") == []
    assert [sorted(w) for w in ended("小周离职了。")] != []

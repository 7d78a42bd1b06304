"""A gist summarises one period: a theme's episodes join one gist only while each falls within
``gist_max_gap_days`` (30) of the one before and all within ``gist_max_span_days`` (92); months
apart they make separate gists, a week of them one, and gists of gists follow the same rule six
times wider per level."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb.dynamics.periods import LEVEL_SCALE
from engramdb.errors import ConfigError

NO_AUTO = {"auto_sleep_importance": 0}
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
EN = {"topic": "garden", "texts": [
    "Planted tulip bulbs along the fence.", "Mended the garden hose by the shed.",
    "Pruned the old apple tree.", "Spread compost over the vegetable beds.",
    "Moved the rosemary into a bigger pot.", "Raked leaves off the lawn.",
]}
ZH = {"topic": "花园", "texts": [
    "在篱笆边种了郁金香球根。", "在棚子旁修好了浇水管。", "修剪了那棵老苹果树。",
    "给菜畦铺了一层堆肥。", "把迷迭香移到了大花盆里。", "把草坪上的落叶耙干净了。",
]}


def open_mem(tmp_path, clock, **config):  # type: ignore[no-untyped-def]
    return engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                         **NO_AUTO, **config)


def write(mem, lang, days):  # type: ignore[no-untyped-def]
    """One episode of the theme on each day offset (from START)."""
    return [mem.remember(lang["texts"][i % len(lang["texts"])], kind="event",
                         topics=[lang["topic"]], at=START + timedelta(days=d)).memory
            for i, d in enumerate(days)]


def settle_and_sleep(mem, clock):  # type: ignore[no-untyped-def]
    clock.advance(days=15)
    return mem.sleep()


def gists(mem, at_level=None):  # type: ignore[no-untyped-def]
    out = mem.list(kind="gist", layer=["core", "archived"])
    return [g for g in out if at_level is None or g.metadata.get("gist_level", 1) == at_level]


@pytest.fixture
def clock():  # type: ignore[no-untyped-def]
    from engramdb.testing import FrozenClock

    return FrozenClock(START + timedelta(days=200))


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_week_of_episodes_makes_one_gist(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock) as mem:
        events = write(mem, lang, [0, 1, 2, 4, 5, 6])
        settle_and_sleep(mem, clock)
        (gist,) = gists(mem)
        assert set(gist.derived_from) == {e.id for e in events}
        assert gist.metadata["span"] == [events[0].at.isoformat(), events[-1].at.isoformat()]


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_one_theme_months_apart_makes_one_gist_per_period(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock) as mem:
        winter = write(mem, lang, [0, 2, 3])
        spring = write(mem, lang, [90, 91, 93])
        report = settle_and_sleep(mem, clock)
        assert report.phase("consolidate").counts()["gist_created"] == 2
        made = sorted(gists(mem), key=lambda g: g.at)
        assert [set(g.derived_from) for g in made] == [
            {e.id for e in winter}, {e.id for e in spring}]
        assert all(g.metadata["theme"] == f"topic:{lang['topic']}" for g in made)
        # a late episode of the winter period reinforces the winter gist, not the spring one
        late = write(mem, lang, [5])[0]
        report = settle_and_sleep(mem, clock)
        assert report.phase("consolidate").ids("gist_reinforced") == [made[0].id]
        assert late.id in mem.get(made[0].id).derived_from
        assert late.id not in mem.get(made[1].id).derived_from


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_lone_late_pair_joins_no_earlier_gist(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock) as mem:
        write(mem, lang, [0, 1, 2])
        settle_and_sleep(mem, clock)
        (first,) = gists(mem)
        write(mem, lang, [60, 61])  # two months on: too few for a gist of their own
        report = settle_and_sleep(mem, clock)
        assert report.phase("consolidate").counts() == {}
        assert len(mem.get(first.id).derived_from) == 3


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_steady_habit_is_cut_into_periods_by_the_span(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock) as mem:
        clock.set(START + timedelta(days=230))
        events = write(mem, lang, range(0, 210, 7))  # weekly, thirty weeks: short gaps
        settle_and_sleep(mem, clock)
        made = sorted(gists(mem, 1), key=lambda g: g.at)  # days 0-91, 98-189; 196, 203 too few
        assert [len(g.derived_from) for g in made] == [14, 14]
        assert {mem.get(e.id).layer.value for e in events[28:]} == {"core"}
        for g in made:
            first, last = (datetime.fromisoformat(x) for x in g.metadata["span"])
            assert last - first <= timedelta(days=92)


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_the_rule_is_configurable(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path, clock, gist_max_gap_days=2) as mem:
        write(mem, lang, [0, 1, 2, 6, 7, 8])  # four days apart in the middle: two periods
        settle_and_sleep(mem, clock)
        assert len(gists(mem)) == 2
    with pytest.raises(ConfigError):
        engramdb.Config.load(gist_max_span_days=0)
    with pytest.raises(ConfigError):
        engramdb.Config.load(gist_max_gap_days="soon")


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_gists_of_gists_follow_a_wider_period(tmp_path, clock, lang):  # type: ignore[no-untyped-def]
    assert LEVEL_SCALE > 1
    with open_mem(tmp_path, clock) as mem:
        for start in (0, 45, 90):  # three periods six weeks apart: one season
            write(mem, lang, [start, start + 1, start + 2])
        for start in (400, 445):  # a year on: two more periods, not that season's
            write(mem, lang, [start, start + 1, start + 2])
        clock.set(START + timedelta(days=470))
        settle_and_sleep(mem, clock)
        assert len(gists(mem, 1)) == 5
        (season,) = gists(mem, 2)
        assert len(season.derived_from) == 3
        later = [g for g in gists(mem, 1) if g.id not in season.derived_from]
        assert all("higher_gist" not in g.metadata for g in later)

"""Supersession by the shape of a fact (write/shape.py, write/align.py): attributes the slot
table does not know, in English and Chinese, through the public API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb import Action
from engramdb.model import Kind
from engramdb.write.shape import _apart_scripts, _may_align, compare

T0 = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("old", "new"), [
    ("The build cache lives on host alder-01", "The build cache now lives on host birch-07"),
    ("Standup is at 9:30", "Standup moved to 10:00"),
    ("The dentist appointment is on Tuesday", "The dentist appointment is on Friday"),
    ("Our servers run Ubuntu 22.04", "Our servers run Ubuntu 24.04"),
    ("Priya drives a Toyota", "Priya drives a Honda"),
    ("站会在9:30", "站会改到10:00"),
    ("李雷的生日是5月3日", "李雷的生日是6月1日"),
    ("构建缓存放在主机alder-01上", "构建缓存现在放在主机birch-07上"),
    ("小明晚上9点睡觉", "小明现在晚上8点半睡觉"),
])
def test_a_new_value_supersedes_the_old(me, old, new):  # type: ignore[no-untyped-def]
    first = me.remember(old, at=T0).memory
    second = me.remember(new, at=T0 + timedelta(days=1))
    assert second.action == Action.SUPERSEDE
    assert second.rule.startswith(("shape_", "slot_"))  # the slot table knows "X's Y is"
    assert second.evidence["old_id"] == first.id and second.evidence["diff"]
    assert [r.content for r in me.list(include_superseded=False)] == [new]


@pytest.mark.parametrize(("old", "new"), [
    ("Tomas drinks oolong with honey.",
     "Tomas has gone off oolong, it's mint tea every night now."),
    ("The billing service runs on Node 18.",
     "Upgraded this morning: the billing service runs on Node 22 now."),
    ("我们的前端用 Vue 2。", "前端上个月升到 Vue 3 了。"),
    ("我叔叔在南京做律师。", "上周和叔叔吃饭才知道，他早就不做律师了，现在在苏州开民宿。"),
    ("数据库部署在华南1区。", "数据库昨天迁到华东2区了。"),
])
def test_a_change_said_with_a_time_still_replaces_the_old_value(me, old, new):  # type: ignore[no-untyped-def]
    """A time said with a change ("every night now", "this morning", 上个月, 昨天) says when it
    changed or how the new value goes, not that the old one still holds beside it."""
    first = me.remember(old, at=T0).memory
    second = me.remember(new, at=T0 + timedelta(days=1))
    assert second.action == Action.SUPERSEDE and second.evidence["old_id"] == first.id
    assert [r.content for r in me.list(include_superseded=False)] == [new]


@pytest.mark.parametrize(("first", "second"), [
    ("Mara lives in Oslo", "Mara works in Oslo"),
    ("The standup is at 10:00", "The retro is at 10:00"),
    ("Tobias's birthday is on May 3", "Mara's birthday is on June 5"),
    ("Redis runs on host alder-01", "Postgres runs on host birch-07"),
    ("Room 101 is booked for Friday", "Room 102 is booked for Friday"),
    ("Jonas is 34 years old", "Jonas is 180 cm tall"),
    ("Priya drives a Toyota", "Priya's sister drives a Honda"),
    ("Greta likes coffee", "Greta likes tea"),
    ("李雷的生日是5月3日", "王芳的生日是5月3日"),
    ("站会在10:00", "复盘会在10:00"),
    ("王芳住在杭州", "王芳的妹妹住在杭州"),
])
def test_another_attribute_or_subject_stays_side_by_side(me, first, second):  # type: ignore[no-untyped-def]
    me.remember(first, at=T0)
    result = me.remember(second, at=T0 + timedelta(days=1))
    assert result.action == Action.ADD
    assert sorted(r.content for r in me.list(include_superseded=False)) == sorted([first, second])


def test_an_extension_is_an_update_with_the_old_text_in_history(me):  # type: ignore[no-untyped-def]
    old = me.remember("Li likes coffee", kind="preference").memory
    new = me.remember("Li likes coffee, especially light-roast Ethiopian pour-over",
                      kind="preference")
    assert (new.action, new.rule) == (Action.UPDATE, "shape_extended")
    assert new.memory.id == old.id and new.memory.version == 2
    assert new.evidence["diff"] == [{"old": "",
                                     "new": "especially light-roast Ethiopian pour-over"}]
    assert "Li likes coffee" in [v.memory.content for v in me.history(old.id)]
    zh = me.remember("小李喜欢喝茶", kind="preference").memory
    more = me.remember("小李喜欢喝茶，尤其是龙井", kind="preference")
    assert (more.action, more.memory.id) == (Action.UPDATE, zh.id)


def test_a_revised_procedure_supersedes_the_old_one(me):  # type: ignore[no-untyped-def]
    me.remember("To release the app: bump the version, run the tests, tag the commit",
                kind="procedure")
    result = me.remember("To release the app: bump the version, run the tests, sign the "
                         "build, tag the commit, push the tag", kind="procedure")
    assert result.action in (Action.UPDATE, Action.SUPERSEDE)
    assert len(list(me.list(kind="procedure", include_superseded=False))) == 1


def test_events_are_never_superseded(me):  # type: ignore[no-untyped-def]
    me.remember("Standup was at 9:30", kind="event", at=T0)
    result = me.remember("Standup was at 10:00", kind="event", at=T0 + timedelta(days=1))
    assert result.action == Action.ADD and me.count() == 2


def test_an_older_value_written_late_is_history(me):  # type: ignore[no-untyped-def]
    current = me.remember("The backup runs at 02:00", at=T0 + timedelta(days=10)).memory
    late = me.remember("The backup runs at 03:30", at=T0)
    assert late.rule == "shape_older_value"
    assert [r.id for r in me.list(include_superseded=False)] == [current.id]


def test_negation_supersedes(me):  # type: ignore[no-untyped-def]
    me.remember("Jonas eats meat", at=T0)
    result = me.remember("Jonas doesn't eat meat", at=T0 + timedelta(days=1))
    assert (result.action, result.rule) == (Action.SUPERSEDE, "shape_negation")


def test_compare_is_pure_and_names_the_value_types() -> None:
    verdict = compare("The wifi password is tulip-42", "The wifi password is maple-17",
                      Kind.FACT)
    assert verdict is not None and verdict.rule == "shape_value_changed"
    assert verdict.regions[0].to_dict() == {"old": "tulip-42", "new": "maple-17"}
    assert compare("Li lives in Oslo", "Li lives in Oslo and likes it", Kind.FACT) is not None
    assert compare("Li", "Li likes tea", Kind.FACT) is None  # one word is not a fact to extend


@pytest.mark.parametrize(("old", "new"), [
    ("I drive a Honda Civic", "I drive a Tesla Model 3 now"),
    ("我开丰田卡罗拉。", "我现在开特斯拉Model 3 Performance。"),
])
def test_a_value_of_many_words_does_not_outweigh_the_frame(tmp_path, old, new):  # type: ignore[no-untyped-def]
    """The frame ("I drive", 我开) is one word: the texts are compared by it, not by their
    values too, of which the new one has four tokens. The default embedder, a real file."""
    from engramdb.testing import FrozenClock

    with engramdb.open(tmp_path / "m.db", clock=FrozenClock(T0)) as mem:
        me = mem.scope(user="alice", agent="noah")
        first = me.remember(old, at=T0).memory
        second = me.remember(new, at=T0 + timedelta(days=1))
        assert second.action == Action.SUPERSEDE, second.rule
        assert second.evidence["old_id"] == first.id
        assert [r.content for r in me.list(include_superseded=False)] == [new]


def test_texts_are_aligned_when_their_frames_share_enough() -> None:
    assert _may_align("I drive a Honda Civic", "I drive a Tesla Model 3 now")
    assert _may_align("我骑捷安特ATX 830。", "我现在骑崔克Marlin 7 Gen 3。")
    assert not _may_align("I drive a Honda Civic", "I repaired the fence on Sunday")
    assert _may_align("Honda Civic", "Honda Accord")   # no frame: the content words decide


@pytest.mark.parametrize(("a", "b", "apart"), [
    ("I grow peppers on my balcony", "我在阳台上种西红柿。", True),
    ("我在阳台上种西红柿", "Café in Zürich", True),       # not ASCII, still no Chinese
    ("I keep my drafts in Notion", "我在 Notion 里写草稿", False),   # a word in common
    ("I run 5 km a day", "我每天跑５公里", False),         # a full-width digit is a digit
    ("We keep a rowing boat by the harbour", "My sister lives in Hamburg", False),
    ("我家在洛阳老城区", "我妹妹住在开封", False),
])
def test_texts_that_can_share_no_token_are_told_before_segmenting(
        a: str, b: str, apart: bool) -> None:
    """A text of Chinese characters alone and one with none share no token, so they cannot
    align: said without segmenting either (``_apart_scripts``); either order."""
    assert _apart_scripts(a, b) is apart and _apart_scripts(b, a) is apart
    if apart:
        assert not _may_align(a, b)

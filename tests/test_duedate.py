"""A pending item's due date, read from its words when none is given (text/duedate.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engramdb.text.duedate import due_from_text, marked_ahead

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)   # a Tuesday afternoon


def day_end(month: int, day: int, year: int = 2026) -> datetime:
    return datetime(year, month, day, tzinfo=UTC) + timedelta(days=1)


@pytest.mark.parametrize(("text", "due"), [
    ("call mom tomorrow", day_end(12, 2)),
    ("pay the rent today", day_end(12, 1)),
    ("renew the passport by Friday", day_end(12, 4)),
    ("on Monday: dentist", day_end(12, 7)),
    ("the day after tomorrow", day_end(12, 3)),
    ("finish the report next week", day_end(12, 13)),
    ("by the end of the month", day_end(12, 31)),
    ("file the taxes next month", day_end(1, 31, 2027)),
    ("reply in 3 days", day_end(12, 4)),
    ("within two weeks", day_end(12, 15)),
    ("book the hall for 2026-12-24", day_end(12, 24)),
    ("Dec 24 party", day_end(12, 24)),
    ("send the invoice by 5 January", day_end(1, 5, 2027)),
    ("the 3rd of March review", day_end(3, 3, 2027)),
    ("明天给妈妈打电话", day_end(12, 2)),
    ("后天交报告", day_end(12, 3)),
    ("周五之前续签护照", day_end(12, 4)),
    ("下周五开会", day_end(12, 11)),
    ("the club met last Monday; the next meeting is on Friday", day_end(12, 4)),
    ("周四晚上排练", day_end(12, 3)),
    ("下周交方案", day_end(12, 13)),
    ("下个月交税", day_end(1, 31, 2027)),
    ("三天后回复", day_end(12, 4)),
    ("两周内完成", day_end(12, 15)),
    ("12月24日买礼物", day_end(12, 24)),
    ("2027年1月5日之前报名", day_end(1, 5, 2027)),
])
def test_due_dates_in_english_and_chinese(text: str, due: datetime) -> None:
    assert due_from_text(text, NOW) == due


@pytest.mark.parametrize("text", ["buy milk", "yesterday I called", "market research",
                                  "may I ask about the budget", "2026-02-31 is no day",
                                  "记得买牛奶",
                                  # a weekday gone by, or every one: no day to come
                                  "last Friday the boiler broke", "上周六去爬山了",
                                  "上个星期三开过会", "the book club meets every Thursday",
                                  "each Monday I swim", "我们每周四晚上排练", "每个星期天去看奶奶",
                                  "the choir sings on Sunday mornings"])
def test_no_due_date(text: str) -> None:
    assert due_from_text(text, NOW) is None


@pytest.mark.parametrize(("text", "marked"), [
    ("we pushed the tasting to next Thursday", True), ("by Friday, please", True),
    ("in two weeks", True), ("tomorrow", True), ("体检改到下周二了", True), ("周五之前交", True),
    ("三天后", True), ("下个月", True), ("改到下周了", True),
    ("we tasted it on Thursday", False), ("on June 9", False), ("周四去的", False),
    ("6月9日那天", False), ("last Friday", False),
])
def test_a_time_to_come_said_so(text: str, marked: bool) -> None:
    """Words that put a time ahead whatever the verb's tense, not a bare weekday or date."""
    assert marked_ahead(text) is marked


@pytest.mark.parametrize(("text", "due"), [
    ("晚上周五再对一遍账目", day_end(12, 4)),     # 晚上 / 周五: the coming Friday, not 上周五
    ("我们看一下周四的排班", day_end(12, 3)),     # 一下 / 周四: not 下周四
    ("帮我看一下周末的路况", None),                # 一下 / 周末: no 下周
    ("聪明天然的做法", None),                      # 聪明 / 天然: no 明天
    ("等一下个月初再谈", None),                    # 一下 / 个 / 月: no 下个月
])
def test_a_chinese_time_word_counts_where_a_word_starts(text: str, due: datetime | None) -> None:
    """jieba's cut, not the characters, says where a Chinese time word is."""
    assert due_from_text(text, NOW) == due
    assert marked_ahead(text) is False


def test_a_pending_item_gets_its_due_date(mem, clock):  # type: ignore[no-untyped-def]
    today = clock.now().replace(hour=0, minute=0, second=0, microsecond=0)
    rec = mem.remember("Call the plumber tomorrow", kind="pending").memory
    assert rec.due_at == today + timedelta(days=2)
    given = clock.now() + timedelta(days=30)
    assert mem.remember("Renew the lease next week", kind="pending",
                        due_at=given).memory.due_at == given        # a given one wins
    assert mem.remember("I will see Anna tomorrow", kind="event").memory.due_at is None
    said = datetime(2025, 3, 10, 9, tzinfo=UTC)   # from a conversation: relative to when said
    old = mem.remember("明天交报告", kind="pending", at=said).memory
    assert old.due_at == datetime(2025, 3, 12, tzinfo=UTC)
    clock.advance(days=3)
    report = mem.sleep()
    assert rec.id in report.phase("tidy").ids("marked_overdue")


def test_pending_items_from_a_conversation_are_due_when_they_say(mem, clock):  # type: ignore[no-untyped-def]
    today = clock.now().replace(hour=0, minute=0, second=0, microsecond=0)
    mem.ingest([{"role": "user", "content": "Remind me to renew my passport in 3 days."},
                {"role": "user", "content": "提醒我明天给妈妈打电话。"}])
    due = {r.content: r.due_at for r in mem.list(kind="pending")}
    assert due == {"Remind me to renew my passport in 3 days.": today + timedelta(days=4),
                   "提醒我明天给妈妈打电话": today + timedelta(days=2)}

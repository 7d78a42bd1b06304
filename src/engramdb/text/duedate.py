"""When a pending item is due, read from its own words, in English and Chinese.

``due_from_text("call mom tomorrow", now)`` is the end of tomorrow: an item is due by the end
of the day (or week, or month) it names, in UTC, as the rest of engramdb's days are. Understood:

- today / tonight / 今天 / 今晚, tomorrow / 明天, the day after tomorrow / 后天;
- a weekday: "on Friday", "by Friday", "next Friday", 周五 / 星期五 / 礼拜五 (the next one after
  today), 下周五 (the Friday of next week);
- this week / 这周 / 本周, next week / 下周 / 下星期, this month / 这个月 / 本月, next month /
  下个月, "by the end of the week / month";
- "in 3 days", "in two weeks", "within 5 days", 三天后 / 3天内 / 两周后;
- a date: "2026-12-05", "5 December", "December 5" (the next one not before today, unless a year
  is named), 12月5日 / 12月5号.

The first expression found, in that order of kinds, wins; none: None. Words about the past
("yesterday") name no due date. A Chinese expression counts only where a word starts in jieba's
cut (text/timeexpr.py ``found``): 查一下周末 names no 下周, 聪明天才 no 明天."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from .timeexpr import MONTHS, WEEKDAYS, ZH_WEEKDAY, _number, first, found, opens_word

_I = re.IGNORECASE
_UNIT_DAYS = {"day": 1, "week": 7}
_NUM = r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|[一二两三四五六七八九十]+)"

_DAY_AFTER = re.compile(r"\bthe\s+day\s+after\s+tomorrow\b|后天", _I)
_TOMORROW = re.compile(r"\btomorrow\b|明天|明日", _I)
_TODAY = re.compile(r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b|今天|今晚|今日",
                    _I)
_NEXT_ZH_WEEKDAY = re.compile(r"下(?:周|星期|礼拜)([一二三四五六日天])")
_WEEKDAY = re.compile(rf"\b(?:on|by|next|this|until|before)?\s*({'|'.join(WEEKDAYS)})\b", _I)
_ZH_WEEKDAY_NAME = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
# a weekday that names no day to come: a past one ("last Friday", 上周六, 上个星期五) or every
# one ("every Friday", "each Friday", 每周五, 每个星期五), read from the words just before it,
# or one that recurs by its part of day in the plural ("Friday evenings")
_OFF_WEEKDAY = re.compile(r"(?:\b(?:last|every|each)\s+(?:on\s+)?|[上每]个?(?:周|星期|礼拜)?)$",
                          _I)
_RECURRING_PART = re.compile(r"\s+(?:mornings|afternoons|evenings|nights)\b", _I)
# words that put a time ahead whatever the tense of the verb beside them ("moved it to next
# Friday", 改到下周四了): not a bare weekday or date, which a story names as often
_MARKED = re.compile(rf"\b(?:next|by|before|until)\s+(?:{'|'.join(WEEKDAYS)}|week|month)\b"
                     r"|(?:周|星期|礼拜)[一二三四五六日天](?:之前|以前)"
                     r"|下个?(?:周|月|星期|礼拜)", _I)
_WEEK = re.compile(r"\b(this|next)\s+week\b|\bend\s+of\s+(?:the|this)\s+week\b"
                   r"|(这周|本周|这个星期|下周|下星期|下个星期)", _I)
_MONTH = re.compile(r"\b(this|next)\s+month\b|\bend\s+of\s+(?:the|this)\s+month\b"
                    r"|(这个月|本月|月底|下个月|下月)", _I)
_IN = re.compile(rf"\b(?:in|within)\s+{_NUM}\s+(day|week)s?\b", _I)
_ZH_IN = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*(天|周|个星期|星期)"
                    r"(?:后|以后|之后|内|以内)")
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_MON = rf"((?:{'|'.join(m[:3] for m in MONTHS)})[a-z]*)\.?"
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}", _I)
_MONTH_DAY = re.compile(rf"\b{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", _I)
_ZH_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]")
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def due_from_text(text: str, now: datetime) -> datetime | None:
    """The end of the day, week or month ``text`` says something is due; None if it names none."""
    day = datetime(now.year, now.month, now.day, tzinfo=UTC)
    for finder in (_dates, _relative_days, _weekdays, _spans, _counts):
        found = finder(text, day)
        if found is not None:
            return found
    return None


def marked_ahead(text: str) -> bool:
    """Does ``text`` name a time to come in words that say so ("tomorrow", "next Friday", "by
    Friday", "in 3 days", 明天, 下周三, 周五之前, 三天后), not only a weekday or a date?"""
    return any(first(p, text) for p in (_DAY_AFTER, _TOMORROW, _NEXT_ZH_WEEKDAY, _MARKED, _IN,
                                         _ZH_IN))


def _end(day: datetime) -> datetime:
    return day + timedelta(days=1)


def _relative_days(text: str, day: datetime) -> datetime | None:
    for pattern, offset in ((_DAY_AFTER, 2), (_TOMORROW, 1), (_TODAY, 0)):
        if first(pattern, text):
            return _end(day + timedelta(days=offset))
    return None


def _weekdays(text: str, day: datetime) -> datetime | None:
    m = first(_NEXT_ZH_WEEKDAY, text)
    if m:   # 下周五: the Friday of next week
        monday = day - timedelta(days=day.weekday()) + timedelta(days=7)
        return _end(monday + timedelta(days=ZH_WEEKDAY[m.group(1)]))
    m = next((m for pattern in (_WEEKDAY, _ZH_WEEKDAY_NAME) for m in found(pattern, text)
              if not _off(text, m.start(1)) and not _RECURRING_PART.match(text, m.end())), None)
    if not m:
        return None
    name = m.group(1).lower()
    wanted = WEEKDAYS.index(name) if name in WEEKDAYS else ZH_WEEKDAY[name]
    ahead = (wanted - day.weekday() - 1) % 7 + 1   # the next one after today
    return _end(day + timedelta(days=ahead))


def _off(text: str, at: int) -> bool:
    """Do the words before ``at`` make the weekday there a past one or every one? 上 and 每 only
    where they open a word: 上 / 个 / 星期五 is past, 晚上 / 周五 is not."""
    m = _OFF_WEEKDAY.search(text[:at])
    return m is not None and opens_word(text, m.start())


def _spans(text: str, day: datetime) -> datetime | None:
    m = first(_WEEK, text)
    if m:
        nxt = (m.group(1) or "").lower() == "next" or (m.group(2) or "").startswith("下")
        sunday = day + timedelta(days=6 - day.weekday())
        return _end(sunday + timedelta(days=7 if nxt else 0))
    m = first(_MONTH, text)
    if m:
        nxt = (m.group(1) or "").lower() == "next" or (m.group(2) or "").startswith("下")
        year, month = day.year, day.month + (1 if nxt else 0)
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        return datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)  # the month's end
    return None


def _counts(text: str, day: datetime) -> datetime | None:
    m = _IN.search(text)
    if m:
        word = m.group(1).lower()
        n = int(word) if word.isdigit() else _WORDS.get(word) or _number(word)
        if n > 0:
            return _end(day + timedelta(days=n * _UNIT_DAYS[m.group(2).lower()]))
    m = first(_ZH_IN, text)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _number(m.group(1))
        if n > 0:
            return _end(day + timedelta(days=n * (1 if m.group(2) == "天" else 7)))
    return None


def _dates(text: str, day: datetime) -> datetime | None:
    m = _ISO.search(text)
    if m:
        return _on(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for pattern, d_at, m_at in ((_DAY_MONTH, 1, 2), (_MONTH_DAY, 2, 1)):
        m = pattern.search(text)
        if m:
            month = _month(m.group(m_at))
            if month:
                return _upcoming(day, month, int(m.group(d_at)))
    m = first(_ZH_DATE, text)
    if m:
        if m.group(1):
            return _on(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return _upcoming(day, int(m.group(2)), int(m.group(3)))
    return None


def _month(name: str) -> int:
    """1-12 for a month's name or its start ("Dec", "December"); 0 for a word that only
    begins like one ("market")."""
    key = name.lower()
    for i, full in enumerate(MONTHS):
        if full.startswith(key) or key == full[:3]:
            return i + 1
    return 0


def _on(year: int, month: int, dom: int) -> datetime | None:
    try:
        return _end(datetime(year, month, dom, tzinfo=UTC))
    except ValueError:   # "2026-02-31": no such day, no due date
        return None


def _upcoming(day: datetime, month: int, dom: int) -> datetime | None:
    """The next ``month``/``dom`` not before ``day``."""
    for year in (day.year, day.year + 1):
        found = _on(year, month, dom)
        if found is not None and found > day:
            return found
    return None

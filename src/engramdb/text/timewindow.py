"""The time window a query names, for recall: [start, end) in UTC, and whether it is anchored.

Understood, in English and Chinese, most specific first:
- a day: "2023-05-08", "8 May 2023", "May 8, 2023", "2023年5月8日" (anchored); "5月8日" (the
  latest such day not after now);
- a month: "May 2023", "2023-05", "2023年5月" (anchored); "去年三月" (March of last year);
- a year: "2023", "2023年" (anchored);
- words relative to now: today/今天, yesterday/昨天, tomorrow/明天, the day before
  yesterday/前天, "last Friday" (the latest Friday before today), "this Friday", 这周五 (this
  week's, or the coming one), "next Friday", 下周五 (next week's), 上周五 (last week's), the
  same of a weekend ("this weekend", 下周末), this, last or next week/month/year (本周/上周/
  下周, 这个月/上个月/下个月, 今年/去年/前年/明年), a few days, weeks or months around,
  ahead of or up to now ("these few days", 这两周, "the next few days", 接下来几天, "the past
  few weeks"), "N days/weeks/months/years ago" (三天前, 两周前), and a bare month ("in
  March", "三月": the latest March not after now);
- "before"/"after"/"since"/"until" a day, month or year ("before May 2023", "2023年5月之前",
  "2024年以后"): an open-ended window; so is a time relative to now said as where something
  starts ("from today", "since yesterday", 从这周起, 今天开始: from its start on);
- with ``ranges``, a range between two days, months or years ("between August 11 and August
  15 2023", "from May 2023 to July 2023", "2023年5月1日到5月8日"): from the start of the first
  to the end of the second; a side without a year takes the other's ("between 11 and 15
  August 2023", a bare number, is not understood).

``anchored`` is True when the window names its calendar year itself; False when it is read
from the clock ("last week", "in March"). Recall treats the two differently (pipeline.py).
No time expression: None."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .timeexpr import (
    _AGO,
    _RELATIVE,
    MONTHS,
    WEEKDAYS,
    ZH_WEEKDAY,
    _add_months,
    _month_window,
    _number,
    _relative,
    _shift,
    _start_of,
    first,
    found,
)
from .timeexpr import _ago as _ago_window

EARLIEST = datetime(1, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, tzinfo=UTC)


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime
    expr: str        # the words that named it
    anchored: bool   # the words name the year themselves (not read from the clock)
    loose: bool = False  # a month or day without a year ("in March"): the latest one is a guess

    def contains(self, when: datetime) -> bool:
        return self.start <= when < self.end

    def overlaps(self, start: datetime, end: datetime | None) -> bool:
        """Does [start, end) (end None: still open) meet this window?"""
        return start < self.end and (end is None or end > self.start)

    def label(self) -> str:
        if self.start == EARLIEST:
            return f"before {self.end.date()}"
        if self.end == LATEST:
            return f"since {self.start.date()}"
        if self.end - self.start == timedelta(days=1):
            return f"on {self.start.date()}"
        return f"between {self.start.date()} and {self.end.date()}"

    def to_dict(self) -> dict[str, object]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "expr": self.expr,
                "anchored": self.anchored, "loose": self.loose, "label": self.label()}


_MON = "|".join([*MONTHS, *(m[:3] for m in MONTHS), "sept"])
_YEAR = r"((?:19|20)\d\d)"
_ZH_NUM = "(\\d{1,2}|十[一二]?|[一二两三四五六七八九])"
_ZH_DAY = "(\\d{1,2}|三十一?|二?十[一二三四五六七八九]?|[一二三四五六七八九])"
_DAY_PATTERNS = (
    ("iso", re.compile(rf"(?<![\d-]){_YEAR}-(\d{{1,2}})-(\d{{1,2}})(?![\d-])")),
    ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MON})\.?,?\s+{_YEAR}\b",
                       re.IGNORECASE)),
    ("mdy", re.compile(rf"\b({_MON})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s*{_YEAR}\b",
                       re.IGNORECASE)),
    ("zh", re.compile(rf"(?:{_YEAR}\s*年\s*)?{_ZH_NUM}\s*月\s*{_ZH_DAY}\s*[日号]")),
)
_MONTH_PATTERNS = (
    ("iso", re.compile(rf"(?<![\d-]){_YEAR}-(\d{{1,2}})(?![\d-])")),
    ("en", re.compile(rf"\b({_MON})\.?,?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE)),
    ("zh", re.compile(rf"{_YEAR}\s*年\s*{_ZH_NUM}\s*月")),
    ("zh-rel", re.compile(rf"(去年|今年|前年){_ZH_NUM}\s*月")),
)
_YEAR_ONLY = re.compile(rf"(?<![\d.\-]){_YEAR}(?:\s*年|\b)(?!-\d)")
_TODAY = re.compile(r"\btoday\b|今天|今日", re.IGNORECASE)
_DAY_BEFORE = re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b"
                         r"|(?<![一二两三四五六七八九十\d])前天")
_BARE_MONTH = re.compile(rf"\bin\s+({_MON})\b|(?<![\d年]){_ZH_NUM}月份?"
                         rf"(?![\d一二三四五六七八九十]*[日号])", re.IGNORECASE)
_BEFORE_EN = re.compile(r"\b(before|until|till|prior\s+to|after|since)\s+(?:the\s+)?$",
                        re.IGNORECASE)
_PERIOD = re.compile(r"\b(?:days?|weeks?|weekends?|months?|years?|monday|tuesday|wednesday|"
                     r"thursday|friday|saturday|sunday)\s+$", re.IGNORECASE)
_BEFORE_ZH = re.compile(r"^\s*(之前|以前|前|之后|以后|后|以来)")
_REL_YEAR = {"前年": -2, "去年": -1, "今年": 0}
# a weekday or a weekend named against the week of now: "last Friday" (the latest Friday
# before today), "this Friday", 这周五 (this week's, or the coming one where this week's is
# past; "this coming Friday", "the coming Friday" the same), "next Friday", 下周五 (next
# week's), "this weekend", 下周末; a bare weekday is not read ("on Fridays", 周五: every one
# or any one)
_WEEKDAY = re.compile(rf"\b(last|this(?:\s+coming)?|coming|next)\s+({'|'.join(WEEKDAYS)}|weekend)\b"
                      r"|([上这本下])个?(?:周|星期|礼拜)([一二三四五六日天末])", re.IGNORECASE)
_WEEK_OF = {"last": -1, "this": 0, "next": 1, "上": -1, "这": 0, "本": 0, "下": 1}
_COMING = re.compile(r"this\s+coming|coming")   # "this coming Friday": this week's, or the next
# a few days, weeks or months around now ("these few days", 这几天, 这两周, 最近几天), ahead of
# it ("the next few days", 接下来几天) or up to it ("the past few weeks"): FEW of them
_FEW_EN = re.compile(r"\b(?:the\s+)?(these|next|coming|past|last)\s+(?:few|couple\s+of|"
                     r"several)\s+(day|week|month)s\b", re.IGNORECASE)
_FEW_ZH = re.compile(r"(这|最近|接下来|未来)(?:[几两]|一两|两三|三四)个?(天|周|星期|礼拜|月)")
_FEW_UNIT = {"天": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month"}
_FEW_SIDE = {"these": 0, "这": 0, "最近": 0, "next": 1, "coming": 1, "接下来": 1, "未来": 1,
             "past": -1, "last": -1}
FEW = 3


_RANGE_START = re.compile(r"\b(?:between|from)\s+", re.IGNORECASE)
_RANGE_TO = re.compile(r"\s+(?:and|to|until|till|through)\s+", re.IGNORECASE)
_RANGE_TO_ZH = re.compile(r"\s*(?:到|至)\s*")
RANGE_TRIES = 3   # "from"s or 到s looked at: linear in the text, however long
_YEAR_OF = re.compile(rf"(?<!\d){_YEAR}(?!\d)")


def parse_window(text: str, now: datetime, ranges: bool = False) -> TimeWindow | None:
    """The window of time ``text`` names, read against ``now``, or None. ``ranges``: read a
    range between two times as one window (a question's "between August 11 and August 15
    2023"); without it, the one time such a range names in full is read (what the dating of
    an extracted episode expects)."""
    now = now.astimezone(UTC)
    ranged = _range(text, now) if ranges else None
    if ranged is not None:
        return ranged
    found = _explicit(text, now)
    if found is not None:
        window, span = found
        return _open_ended(text, window, span)
    window = _relative_window(text, now)
    return _onward(text, window) if window is not None else None


def _range(text: str, now: datetime) -> TimeWindow | None:
    """A range between two days, months or years the text names, from the start of the
    first to the end of the second. A side that names no year takes the other side's, and
    must then name a day or a month."""
    for begin, cut, after in _range_splits(text):
        first_text, second_text = text[begin:cut.start()], text[cut.end() : after]
        years = [y.group(1) for y in map(_YEAR_OF.search, (first_text, second_text)) if y]
        if not years:
            continue
        chinese = cut.re is _RANGE_TO_ZH
        first = _side(first_text, years[0], now, chinese)
        second = _side(second_text, years[-1], now, chinese)
        if first is None or second is None or first[0].start >= second[0].end:
            continue
        start = begin if not chinese else begin + first[1][0]
        expr = text[start : cut.end() + second[1][1]]
        return TimeWindow(first[0].start, second[0].end, expr, True)
    return None


def _range_splits(text: str) -> Iterator[tuple[int, re.Match[str], int]]:
    """Where a range may start, its connector, and where it may end: after "between" or
    "from" up to the next "and"/"to"/"until" (English); around 到 or 至 (Chinese)."""
    for tried, start in enumerate(_RANGE_START.finditer(text)):
        cut = _RANGE_TO.search(text, start.end())
        if tried == RANGE_TRIES or cut is None:
            break
        yield start.start(), cut, len(text)
    cuts = list(itertools.islice(_RANGE_TO_ZH.finditer(text), RANGE_TRIES + 1))
    for i, cut in enumerate(cuts[:RANGE_TRIES]):
        yield (cuts[i - 1].end() if i else 0), cut, (cuts[i + 1].start() if i + 1 < len(cuts)
                                                     else len(text))


def _side(side: str, year: str, now: datetime,
          chinese: bool) -> tuple[TimeWindow, tuple[int, int]] | None:
    """The time one side of a range names and where in the side it names it."""
    if _YEAR_OF.search(side):
        return _explicit(side, now)
    shift = len(year) + 1 if chinese else 0
    found = _day_or_month(f"{year}年{side}" if chinese else f"{side} {year}", now)
    if found is None or not found[0].anchored:
        return None
    window, (a, b) = found
    return window, (max(a - shift, 0), min(b - shift, len(side)))


def _explicit(text: str, now: datetime) -> tuple[TimeWindow, tuple[int, int]] | None:
    """A day, month or year the text names, with where it names it."""
    found = _day_or_month(text, now)
    if found is not None:
        return found
    m = _YEAR_ONLY.search(text)
    if m:
        y = int(m.group(1))
        start = datetime(y, 1, 1, tzinfo=UTC)
        return TimeWindow(start, start.replace(year=y + 1), m.group(0), True), m.span()
    return None


def _day_or_month(text: str, now: datetime) -> tuple[TimeWindow, tuple[int, int]] | None:
    """A day or month the text names, with where it names it."""
    for kind, pattern in _DAY_PATTERNS:
        for m in pattern.finditer(text):
            window = _day(kind, m, now)
            if window is not None:
                return window, m.span()
    for kind, pattern in _MONTH_PATTERNS:
        for m in pattern.finditer(text):
            window = _month(kind, m, now)
            if window is not None:
                return window, m.span()
    return None


def _day(kind: str, m: re.Match[str], now: datetime) -> TimeWindow | None:
    g = m.groups()
    if kind == "iso":
        y, mo, d = int(g[0]), int(g[1]), int(g[2])
    elif kind == "dmy":
        y, mo, d = int(g[2]), _month_no(g[1]), int(g[0])
    elif kind == "mdy":
        y, mo, d = int(g[2]), _month_no(g[0]), int(g[1])
    else:
        mo, d = _number(g[1]), _zh_day(g[2])
        y = int(g[0]) if g[0] else (now.year if (mo, d) <= (now.month, now.day) else now.year - 1)
    try:
        start = datetime(y, mo, d, tzinfo=UTC)
    except ValueError:
        return None
    anchored = kind != "zh" or bool(g[0])
    return TimeWindow(start, start + timedelta(days=1), m.group(0), anchored, loose=not anchored)


def _month(kind: str, m: re.Match[str], now: datetime) -> TimeWindow | None:
    g = m.groups()
    if kind == "iso":
        y, mo, anchored = int(g[0]), int(g[1]), True
    elif kind == "en":
        y, mo, anchored = int(g[1]), _month_no(g[0]), True
    elif kind == "zh":
        y, mo, anchored = int(g[0]), _number(g[1]), True
    else:
        y, mo, anchored = now.year + _REL_YEAR[g[0]], _number(g[1]), False
    if not 1 <= mo <= 12:
        return None
    start = datetime(y, mo, 1, tzinfo=UTC)
    return TimeWindow(start, _add_months(start, 1), m.group(0), anchored)


def _open_ended(text: str, window: TimeWindow, span: tuple[int, int]) -> TimeWindow | None:
    before = _BEFORE_EN.search(text[: span[0]])
    after = _BEFORE_ZH.match(text[span[1] :])
    word = (before.group(1) if before else after.group(1) if after else "").lower()
    if not word:
        return window
    if before and _PERIOD.search(text[: before.start()]):
        return None  # "the week before May 8": a span relative to the date, not understood
    expr = f"{word} {window.expr}" if before else f"{window.expr}{word}"
    if word in ("before", "until", "till", "之前", "以前", "前") or word.startswith("prior"):
        return TimeWindow(EARLIEST, window.start, expr, window.anchored)
    if word in ("since", "以来"):
        return TimeWindow(window.start, LATEST, expr, window.anchored)
    return TimeWindow(window.end, LATEST, expr, window.anchored)


_ONWARD_EN = re.compile(r"\b(from|starting|since|as\s+of|beginning)\s+$", re.IGNORECASE)
_ONWARD_ZH = re.compile(r"^\s*(起|开始|以来|以后|之后)")


def _onward(text: str, window: TimeWindow) -> TimeWindow:
    """A time relative to now said as where something starts ("from today", "starting this
    week", 从这周起, 今天开始): from the window's start on, not the window alone; after it
    (上周以后): from its end on, as ``_open_ended`` reads a date."""
    at = text.find(window.expr)
    said = _onward_word(text, at, at + len(window.expr)) if at >= 0 else None
    if said is None:
        return window
    word, first = said
    expr = f"{word} {window.expr}" if first else f"{window.expr}{word}"
    start = window.end if word in ("以后", "之后") else window.start
    return TimeWindow(start, LATEST, expr, window.anchored, window.loose)


def _onward_word(text: str, start: int, end: int) -> tuple[str, bool] | None:
    """The word that says the time at ``text[start:end]`` is where something starts, and
    whether it comes first ("from today") or after (今天起); None where none does."""
    before = _ONWARD_EN.search(text[:start])
    if before:
        return before.group(1), True
    after = _ONWARD_ZH.match(text[end:])
    return (after.group(1), False) if after else None


def _relative_window(text: str, now: datetime) -> TimeWindow | None:
    day = _start_of("day", now)
    for pattern, offset in ((_DAY_BEFORE, -2), (_TODAY, 0)):
        m = pattern.search(text)
        if m:
            start = day + timedelta(days=offset)
            return TimeWindow(start, start + timedelta(days=1), m.group(0), False)
    m = first(_WEEKDAY, text)
    if m:
        return _weekday(m, day)
    m = _FEW_EN.search(text) or first(_FEW_ZH, text)
    if m:
        return _few(m, now)
    for finder in (_relative, _ago_window):
        window = finder(text, now)
        if window is not None:
            return TimeWindow(window[0], window[1], _relative_words(text), False)
    m = _BARE_MONTH.search(text)
    if m:
        mo = _month_no(m.group(1)) if m.group(1) else _number(m.group(2))
        if 1 <= mo <= 12:
            start, end = _month_window(mo, None, now)
            return TimeWindow(start, end, m.group(0), False, loose=True)
    return None


def occasion(text: str) -> bool:
    """Does the text name one coming occasion of a weekday or a weekend ("this Thursday",
    下周二, "next weekend", 这个周末): a passing exception or a plan for it, not how things
    stand, whenever it was said? Not one said as where something starts ("from this
    weekend", 下周一起: ``_onward``)."""
    return any((m.group(1) or m.group(3)).lower() not in ("last", "上")
               and _onward_word(text, m.start(), m.end()) is None
               for m in found(_WEEKDAY, text))


def _weekday(m: re.Match[str], day: datetime) -> TimeWindow:
    """The day or weekend ``_WEEKDAY`` matched, read against today's week."""
    which, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    which, name = _COMING.sub("this", which.lower()), name.lower()
    if which == "last" and name != "weekend":  # the latest such day before today
        back = (day.weekday() - WEEKDAYS.index(name) - 1) % 7 + 1
        return TimeWindow(day - timedelta(days=back), day - timedelta(days=back - 1),
                          m.group(0), False)
    weekend = name in ("weekend", "末")
    offset = 5 if weekend else WEEKDAYS.index(name) if name in WEEKDAYS else ZH_WEEKDAY[name]
    start = day - timedelta(days=day.weekday() - 7 * _WEEK_OF[which] - offset)
    length = timedelta(days=2 if weekend else 1)
    if which in ("this", "这", "本") and start + length <= day:
        start += timedelta(days=7)  # this week's is past: the coming one is meant
    return TimeWindow(start, start + length, m.group(0), False)


def _few(m: re.Match[str], now: datetime) -> TimeWindow:
    """A few days, weeks or months: around now, the current one and one either side; ahead,
    the current one and ``FEW`` after it; up to now, ``FEW`` before it and the current one."""
    side = _FEW_SIDE[m.group(1).lower()]
    unit = _FEW_UNIT.get(m.group(2), m.group(2).lower())
    current = _start_of(unit, now)
    since, until = {0: (-1, 2), 1: (0, 1 + FEW), -1: (-FEW, 1)}[side]
    return TimeWindow(_shift(current, unit, since), _shift(current, unit, until), m.group(0),
                      False)


def _relative_words(text: str) -> str:
    for pattern in (*(p for p, _, _ in _RELATIVE), _AGO):
        m = first(pattern, text)
        if m:
            return m.group(0)
    return "relative to now"


def _month_no(word: str) -> int:
    return next(i for i, name in enumerate(MONTHS, start=1) if name.startswith(word.lower()[:3]))


def _zh_day(text: str) -> int:
    if text.isdigit():
        return int(text)
    tens, _, ones = text.rpartition("十")
    if "十" not in text:
        return _number(text)
    return (_number(tens) if tens else 1) * 10 + (_number(ones) if ones else 0)

"""A small matcher for the time a query names, in English and Chinese: a window [start, end).

Understood: a year ("2024", "2024年"), a month with or without a year ("March", "March 2024",
"3月", "三月", "2024年3月"; without a year: the latest such month not after now), and relative
words: yesterday/昨天, tomorrow/明天, this, last or next week/month/year (本周/上周/下周,
这个月/上个月/下个月, 今年/去年/前年/明年), and "N days/weeks/months/years ago" (N天前...).
The most specific expression wins. Anything else: None. Windows are in UTC."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from itertools import accumulate

from .tokenize import is_cjk, words

Window = tuple[datetime, datetime]

MONTHS = ("january february march april may june july august september october november "
          "december").split()
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}  # 周五 -> 4
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9, "十": 10, "十一": 11, "十二": 12}
_ZH_NUM = "(\\d{1,2}|十[一二]?|[一二两三四五六七八九])"
_YEAR = r"((?:19|20)\d\d)"
_EN_MONTH = re.compile(rf"\b({'|'.join(MONTHS)}|{'|'.join(m[:3] for m in MONTHS)})\b"
                       rf"(?:\.?,?\s+{_YEAR}\b)?", re.IGNORECASE)
_ZH_MONTH = re.compile(rf"(?:{_YEAR}\s*年\s*)?{_ZH_NUM}\s*月(?!份?[前后])")
_YEAR_ONLY = re.compile(rf"(?<![\d.]){_YEAR}(?:\s*年|\b)")
_AGO = re.compile(rf"\b(\d+|a|an|one|two|three)\s+(day|week|month|year)s?\s+ago\b"
                  rf"|{_ZH_NUM}\s*(?:个)?(天|周|星期|个月|月|年)前", re.IGNORECASE)
_EN_WORDS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3}
_RELATIVE = (
    (re.compile(r"\byesterday\b|昨天|昨日", re.IGNORECASE), "day", -1),
    (re.compile(r"\btomorrow\b|明天|明日", re.IGNORECASE), "day", 1),
    (re.compile(r"\blast\s+week\b|上一?(?:个)?(?:周|星期|礼拜)", re.IGNORECASE), "week", -1),
    (re.compile(r"\bthis\s+week\b|本周|这周|这个星期", re.IGNORECASE), "week", 0),
    (re.compile(r"\bnext\s+week\b|下一?个?(?:周|星期|礼拜)", re.IGNORECASE), "week", 1),
    (re.compile(r"\blast\s+month\b|上一?个?月", re.IGNORECASE), "month", -1),
    (re.compile(r"\bthis\s+month\b|这个月|本月", re.IGNORECASE), "month", 0),
    (re.compile(r"\bnext\s+month\b|下一?个?月", re.IGNORECASE), "month", 1),
    (re.compile(r"前年"), "year", -2),
    (re.compile(r"\blast\s+year\b|去年|上一年", re.IGNORECASE), "year", -1),
    (re.compile(r"\bthis\s+year\b|今年", re.IGNORECASE), "year", 0),
    (re.compile(r"\bnext\s+year\b|明年|下一年", re.IGNORECASE), "year", 1),
)


def time_window(text: str, now: datetime) -> Window | None:
    """The window of time ``text`` names, or None."""
    now = now.astimezone(UTC)
    return _month(text, now) or _year(text) or _relative(text, now) or _ago(text, now)


def _month(text: str, now: datetime) -> Window | None:
    for match in _EN_MONTH.finditer(text):
        word = match.group(1)
        if word.lower() == "may" and (word != "May" or match.start() == 0) and not match.group(2):
            continue  # "may" the verb
        if word.lower() == "march" and word != "March" and not match.group(2):
            continue  # "march" the verb
        return _month_window(MONTHS.index(_full(word)) + 1, match.group(2), now)
    for match in _ZH_MONTH.finditer(text):
        number = _number(match.group(2))
        if 1 <= number <= 12:
            return _month_window(number, match.group(1), now)
    return None


def _full(word: str) -> str:
    return next(m for m in MONTHS if m.startswith(word.lower()[:3]))


def _month_window(month: int, year: str | None, now: datetime) -> Window:
    if year:
        y = int(year)
    else:
        y = now.year if month <= now.month else now.year - 1
    start = datetime(y, month, 1, tzinfo=UTC)
    return start, _add_months(start, 1)


def _year(text: str) -> Window | None:
    match = _YEAR_ONLY.search(text)
    if not match:
        return None
    y = int(match.group(1))
    return datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)


def found(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in ``text`` that open a word: a Chinese one where jieba's
    cut starts a word (看一下周末 holds 一下 / 周末, not 下周末; 晚上周五, 晚上 / 周五, not
    上周五)."""
    for m in pattern.finditer(text):
        if opens_word(text, m.start()):
            yield m


def first(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first of ``found``, or None."""
    return next(found(pattern, text), None)


def opens_word(text: str, at: int) -> bool:
    """Does a word start at ``at``? Always for a character that is not Chinese; for a Chinese
    one, where jieba's cut starts a word (上 in 上 / 个 / 星期五, not in 晚上)."""
    return not is_cjk(text[at:at + 1]) or at in _word_starts(text)


@lru_cache(maxsize=1024)
def _word_starts(text: str) -> frozenset[int]:
    return frozenset(accumulate((len(w) for w in words(text)), initial=0))


def _relative(text: str, now: datetime) -> Window | None:
    for pattern, unit, offset in _RELATIVE:
        if first(pattern, text):
            start = _start_of(unit, now)
            return _shift(start, unit, offset), _shift(start, unit, offset + 1)
    return None


def _ago(text: str, now: datetime) -> Window | None:
    match = _AGO.search(text)
    if not match:
        return None
    if match.group(1):
        raw, unit = match.group(1).lower(), match.group(2).lower()
        n = _EN_WORDS.get(raw) or int(raw)
    else:
        n = _number(match.group(3))
        unit = {"天": "day", "周": "week", "星期": "week", "个月": "month", "月": "month",
                "年": "year"}[match.group(4)]
    start = _start_of(unit, now)
    return _shift(start, unit, -n), _shift(start, unit, -n + 1)


def _start_of(unit: str, now: datetime) -> datetime:
    day = datetime(now.year, now.month, now.day, tzinfo=UTC)
    if unit == "day":
        return day
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    return day.replace(month=1, day=1)


def _shift(start: datetime, unit: str, n: int) -> datetime:
    if unit == "day":
        return start + timedelta(days=n)
    if unit == "week":
        return start + timedelta(weeks=n)
    if unit == "month":
        return _add_months(start, n)
    return start.replace(year=start.year + n)


def _add_months(start: datetime, n: int) -> datetime:
    index = start.year * 12 + start.month - 1 + n
    return start.replace(year=index // 12, month=index % 12 + 1, day=1)


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _ZH_DIGITS.get(text, 0)

"""What a caller may add to a query besides its text: ``keywords`` and ``time_context`` (the
names a Python cognitive-agent package gave its recall; docs/migrating.md).

``keywords``: more words to match lexically. A string or a list of strings; each is tokenized
as a query is (Chinese segmentation, English stemming) and its tokens join the query's own in
the word leg (BM25) and in the relevance a hit's score reports. They are not embedded: the
meaning searched is the query's.

``time_context``: the time the answer should fall in, given apart from the query. Words as a
query would say them ("last week", "in May 2023", "上周", "去年三月", "2025-03"), or an
explicit window: ``{"start": ..., "end": ...}`` or ``(start, end)``, each side a datetime, a
date or ISO 8601 text ("2025", "2025-03", "2025-03-15", "2025-03-15T10:00:00Z"), either side
None (open). A side names its whole unit: ``end="2025-03"`` ends with March. The window is
applied as the query's own would be (recall/temporal.py): what falls inside ranks first, the
best matches outside follow. It takes the place of a time the query itself names, and a
month or day without its year ("in March") is applied too: the caller named it on purpose."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from ..errors import Invalid
from ..text import tokenize
from ..text.checks import storable
from ..text.timespan import parse_at, span_end
from ..text.timewindow import EARLIEST, LATEST, TimeWindow, parse_window

MAX_KEYWORDS = 64
MAX_KEYWORD_CHARS = 1000
EXAMPLES = ('words such as "last week" or "上周", a date such as "2025-03", or '
            '{"start": "2025-03-01", "end": "2025-03-31"}')


def keyword_tokens(keywords: object) -> list[str]:
    """The tokens of ``keywords`` (None: none); Invalid for anything but text."""
    if keywords is None:
        return []
    if isinstance(keywords, str):
        keywords = [keywords]
    if not isinstance(keywords, Sequence | set | frozenset):
        raise Invalid(f"keywords must be a string or a list of strings, got "
                      f"{type(keywords).__name__}")
    words = list(keywords)
    if len(words) > MAX_KEYWORDS:
        raise Invalid(f"keywords: at most {MAX_KEYWORDS}, got {len(words)}")
    tokens: list[str] = []
    for word in words:
        if not isinstance(word, str):
            raise Invalid(f"keywords must be strings, got {type(word).__name__} ({word!r})")
        if len(word) > MAX_KEYWORD_CHARS or not storable(word):
            raise Invalid(f"each keyword must be valid text of at most {MAX_KEYWORD_CHARS} "
                          "characters")
        tokens += [t for t in tokenize(word) if t not in tokens]
    return tokens


def context_window(value: object, now: datetime) -> TimeWindow | None:
    """The window ``time_context`` names, read against ``now`` (None: none given)."""
    if value is None:
        return None
    if isinstance(value, str):
        return _words(value, now)
    if isinstance(value, Mapping):
        unknown = set(value) - {"start", "end"}
        if unknown:
            raise Invalid(f"time_context takes start and end, not {', '.join(map(str, unknown))}")
        return _explicit(value.get("start"), value.get("end"))
    if isinstance(value, list | tuple) and len(value) == 2:
        return _explicit(value[0], value[1])
    raise Invalid(f"time_context must be {EXAMPLES}, or (start, end); got "
                  f"{type(value).__name__}")


def _words(text: str, now: datetime) -> TimeWindow:
    if not text.strip() or len(text) > MAX_KEYWORD_CHARS or not storable(text):
        raise Invalid(f"time_context is empty or not text: give {EXAMPLES}")
    window = parse_window(text, now, ranges=True)
    if window is None:
        raise Invalid(f"time_context {text!r} names no time: give {EXAMPLES}")
    return replace(window, loose=False)


def _explicit(start: object, end: object) -> TimeWindow:
    if start is None and end is None:
        raise Invalid("time_context: give a start, an end or both")
    low = EARLIEST if start is None else _side(start, "start")[0]
    high = LATEST if end is None else _end(end)
    if low >= high:
        raise Invalid(f"time_context: the start ({low.isoformat()}) must come before the end "
                      f"({high.isoformat()})")
    return TimeWindow(low, high, "time_context", anchored=True)


def _end(value: object) -> datetime:
    """Where a window that ends with ``value`` ends (exclusive): after its whole unit."""
    when, precision = _side(value, "end")
    return span_end(when, precision) or when


def _side(value: object, name: str) -> tuple[datetime, str | None]:
    if not isinstance(value, datetime | date | str):
        raise Invalid(f"time_context {name} must be a datetime, a date or ISO 8601 text, got "
                      f"{type(value).__name__}")
    try:
        return parse_at(value)
    except Invalid as exc:
        raise Invalid(f"time_context {name}: {str(exc).removeprefix('at ')}") from None


def describe(window: TimeWindow, asked: Any) -> str:
    """The plan's note on a window given as ``time_context``."""
    said = f" ({asked.expr!r} in the query gives way to it)" if asked is not None else ""
    return f"time_context: memories {window.label()} first{said}"

"""The span a memory's ``at`` covers: a moment, or a whole day, week, month or year.

"In March 2025 I moved to Lisbon" happened some time in March: its ``at`` is 1 March and its
precision "month", so a window for "March 15" meets it and a window for April does not.
``at`` may be given as a datetime (a moment, unless a precision is named), a ``date`` (that
day) or text: "2025" (the year), "2025-03" (the month), "2025-03-15" (the day), or a full ISO
8601 time (a moment; without a timezone it is UTC)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from ..clock import EXAMPLE, aware
from ..errors import Invalid
from .timeexpr import _add_months
from .timewindow import EARLIEST, LATEST, TimeWindow

PRECISIONS = ("day", "week", "month", "year")
_PARTIAL = re.compile(r"^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?$")


def span_end(at: datetime, precision: str | None) -> datetime | None:
    """Where the span starting at ``at`` ends (exclusive); None for a moment."""
    if precision is None:
        return None
    if precision == "day":
        return at + timedelta(days=1)
    if precision == "week":
        return at + timedelta(days=7)
    if precision == "month":
        return _add_months(at, 1)
    if precision == "year":
        return at.replace(year=at.year + 1) if at.year < LATEST.year else LATEST
    raise Invalid(f"unknown at precision {precision!r} (one of {', '.join(PRECISIONS)})")


def check_precision(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PRECISIONS:
        raise Invalid(f"at_precision must be one of {', '.join(PRECISIONS)}, got {value!r}")
    return value


def parse_at(value: object, precision: object = None) -> tuple[datetime, str | None]:
    """``at`` as given by a caller -> (start in UTC, precision). A precision named with a
    datetime moves ``at`` to the start of its unit (``at=<15 March>, at_precision="month"`` is
    the month of March)."""
    named = check_precision(precision)
    if isinstance(value, datetime):
        when = aware(value, "at")  # naive: UTC; out of range in UTC: Invalid
        return (start_of(when, named), named) if named else (when, None)
    if isinstance(value, date):
        when = datetime(value.year, value.month, value.day, tzinfo=UTC)
        return start_of(when, named or "day"), named or "day"
    if isinstance(value, str):
        return _parse_text(value.strip(), named)
    raise Invalid(f"at must be a datetime, a date or ISO 8601 text, got {type(value).__name__}")


def _parse_text(text: str, named: str | None) -> tuple[datetime, str | None]:
    m = _PARTIAL.match(text)
    if m:
        year, month, day = int(m[1]), int(m[2] or 1), int(m[3] or 1)
        try:
            when = datetime(year, month, day, tzinfo=UTC)
        except ValueError as exc:
            raise Invalid(f"at {text!r} is not a date: {exc}") from None
        own = "day" if m[3] else "month" if m[2] else "year"
        return start_of(when, named or own), named or own
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise Invalid(f"at: {text[:40]!r} is not an ISO 8601 time; give one such as {EXAMPLE}, "
                      "2025-03-15, 2025-03 or 2025 (without a time zone it is read as "
                      "UTC)") from None
    when = aware(when, "at")
    return (start_of(when, named), named) if named else (when, None)


def start_of(when: datetime, precision: str) -> datetime:
    day = when.replace(hour=0, minute=0, second=0, microsecond=0)
    if precision == "day":
        return day
    if precision == "week":
        return day - timedelta(days=day.weekday())
    if precision == "month":
        return day.replace(day=1)
    return day.replace(month=1, day=1)


def precision_of(window: TimeWindow) -> str | None:
    """The unit a closed window spans (a day, a week, a month, a year), or None."""
    if window.start == EARLIEST or window.end == LATEST:
        return None
    for precision in PRECISIONS:
        if span_end(window.start, precision) == window.end:
            return precision
    return None

"""Time is injectable: every time-dependent rule reads a clock, so tests move time.

The one reading of a caller's time, for every door (library, CLI, HTTP, MCP, imports): ``aware``
takes a datetime or ISO 8601 text and gives it back in UTC; a time without a time zone (a
"naive" datetime, ``2026-01-01T10:00:00``) is read as UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from .errors import Invalid

EXAMPLE = "2026-01-01T10:00:00Z"


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


def aware(value: datetime | str, name: str = "datetime") -> datetime:
    """Return ``value`` in UTC. A datetime without a time zone, or ISO 8601 text without an
    offset, is read as UTC."""
    if isinstance(value, str):
        return parse_time(value, name)
    if not isinstance(value, datetime):
        raise Invalid(f"{name} must be a time (a datetime or ISO 8601 text such as {EXAMPLE}), "
                      f"not {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise Invalid(f"{name} is out of range once converted to UTC: {value}; give a time "
                      "between the years 1 and 9999") from None


def parse_time(text: str, name: str = "datetime") -> datetime:
    """Parse an ISO 8601 timestamp; a date or a time without an offset is taken as UTC."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except (ValueError, TypeError, AttributeError):
        shown = repr(text) if isinstance(text, str) and len(text) <= 40 else "the value given"
        raise Invalid(f"{name}: {shown} is not an ISO 8601 time; give one such as {EXAMPLE} "
                      "or 2026-01-01 (without a time zone it is read as UTC)") from None
    return aware(value, name)

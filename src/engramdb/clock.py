"""Time is injectable: every time-dependent rule reads a clock, so tests move time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from .errors import Invalid


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


def aware(value: datetime, name: str = "datetime") -> datetime:
    """Return ``value`` in UTC; a naive datetime is refused (we never guess a timezone)."""
    if not isinstance(value, datetime):
        raise Invalid(f"{name} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise Invalid(f"{name} must be timezone-aware (e.g. datetime(..., tzinfo=timezone.utc))")
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise Invalid(f"{name} is out of range once converted to UTC: {value}") from None


def parse_time(text: str, name: str = "datetime") -> datetime:
    """Parse an ISO 8601 timestamp; a date or a naive time is taken as UTC."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise Invalid(f"{name}: not an ISO 8601 timestamp: {text!r}") from exc
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)

"""The public test kit: a frozen clock, the hashing embedder, and the store contract.

``StoreContract`` is a pytest mix-in: subclass it and provide a ``store`` fixture that yields a
fresh, empty store; every backend must pass the same tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .clock import aware
from .embed.hashing import HashingEmbedder

__all__ = ["FrozenClock", "HashingEmbedder", "StoreContract"]


class FrozenClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = aware(start, "start") if start else datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = aware(when, "when")


from .store.contract import StoreContract  # noqa: E402

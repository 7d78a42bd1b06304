"""The mem0 adapter's remembered timestamp text: always what ``isoformat`` gives."""

from datetime import UTC, datetime, timedelta, timezone

from engramdb.integrations import mem0_shapes
from engramdb.integrations.mem0_shapes import ISO_KEPT, iso


def test_iso_is_isoformat_for_utc_and_other_zones() -> None:
    at = datetime(2026, 3, 1, 8, 30, 15, 123456, tzinfo=UTC)
    assert iso(at) == iso(at) == "2026-03-01T08:30:15.123456+00:00"
    shanghai = at.astimezone(timezone(timedelta(hours=8)))  # the same instant, equal to `at`
    assert shanghai == at
    assert iso(shanghai) == "2026-03-01T16:30:15.123456+08:00"
    naive = at.replace(tzinfo=None)
    assert iso(naive) == "2026-03-01T08:30:15.123456"
    assert iso(at.replace(microsecond=0)) == "2026-03-01T08:30:15+00:00"


def test_iso_keeps_at_most_iso_kept() -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for i in range(ISO_KEPT + 10):
        at = start + timedelta(seconds=i)
        assert iso(at) == at.isoformat()
        assert len(mem0_shapes._ISO) <= ISO_KEPT

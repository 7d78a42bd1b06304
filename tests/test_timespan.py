"""A memory's time range follows the granularity of its ``at``: "in March 2025" is the whole
month, a date is the whole day; time-window recall meets the span, not only its first moment."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from engramdb import Invalid
from engramdb.text.timespan import parse_at, precision_of, span_end
from engramdb.text.timewindow import parse_window

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(("value", "start", "precision"), [
    ("2025", datetime(2025, 1, 1, tzinfo=UTC), "year"),
    ("2025-03", datetime(2025, 3, 1, tzinfo=UTC), "month"),
    ("2025-03-15", datetime(2025, 3, 15, tzinfo=UTC), "day"),
    (date(2025, 3, 15), datetime(2025, 3, 15, tzinfo=UTC), "day"),
    ("2025-03-15T10:30:00Z", datetime(2025, 3, 15, 10, 30, tzinfo=UTC), None),
    ("2025-03-15T10:30:00", datetime(2025, 3, 15, 10, 30, tzinfo=UTC), None),
    (datetime(2025, 3, 15, 10, tzinfo=UTC), datetime(2025, 3, 15, 10, tzinfo=UTC), None),
])
def test_at_is_read_with_its_granularity(value, start, precision):  # type: ignore[no-untyped-def]
    assert parse_at(value) == (start, precision)


def test_a_named_precision_moves_at_to_the_start_of_its_unit():  # type: ignore[no-untyped-def]
    assert parse_at(datetime(2025, 3, 15, 10, tzinfo=UTC), "month") == (
        datetime(2025, 3, 1, tzinfo=UTC), "month")
    assert parse_at("2025-03-12", "week") == (datetime(2025, 3, 10, tzinfo=UTC), "week")


@pytest.mark.parametrize(("value", "precision", "match"), [
    ("March", None, "ISO 8601"), ("2025-13", None, "not a date"), (3.5, None, "at must be"),
    ("2025-03-01T25:00", None, "ISO 8601"), ("2025", "decade", "at_precision"),
])
def test_bad_at_is_refused(value, precision, match):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=match):
        parse_at(value, precision)


def test_spans_and_window_units():  # type: ignore[no-untyped-def]
    start = datetime(2024, 2, 1, tzinfo=UTC)
    assert span_end(start, "month") == datetime(2024, 3, 1, tzinfo=UTC)
    assert span_end(start, "year") == datetime(2025, 2, 1, tzinfo=UTC)
    assert span_end(start, None) is None
    for text, unit in [("in March 2025", "month"), ("2025年3月", "month"), ("yesterday", "day"),
                       ("前天", "day"), ("last year", "year"), ("去年", "year"),
                       ("2025-03-15", "day"), ("before 2024", None)]:
        window = parse_window(text, NOW)
        assert window is not None and precision_of(window) == unit, text


@pytest.mark.parametrize(("at", "query", "found"), [
    ("2025-03", "what did Ana do on 15 March 2025", True),
    ("2025-03", "what did Ana do in March 2025", True),
    ("2025-03", "what did Ana do in April 2025", False),
    ("2025-03", "what did Ana do in 2025", True),
    ("2025-03-15", "what did Ana do on 2025-03-15", True),
    ("2025-03-15", "what did Ana do on 2025-03-16", False),
    ("2025", "what did Ana do in June 2025", True),
    ("2025-03", "Ana 2025年3月20日做了什么", True),
    ("2025-03", "Ana 2025年4月做了什么", False),
])
def test_window_recall_meets_the_whole_span(me, at, query, found):  # type: ignore[no-untyped-def]
    me.remember("Ana hiked the Alps", kind="event", at=at)
    me.remember("Ana painted the fence", kind="event", at="2023-07-01")
    hits = me.recall(query, k=5, track=False)
    inside = [h.memory.content for h in hits if not outside(h)]
    assert inside == (["Ana hiked the Alps"] if found else [])
    # what falls outside the window is not erased: it follows, explained as outside it
    assert [h.memory.content for h in hits][-1] == "Ana painted the fence"
    assert not hits.abstained
    assert hits.note.startswith("nothing remembered") is not found


def test_a_moment_is_only_in_windows_that_hold_it(me):  # type: ignore[no-untyped-def]
    me.remember("Ana hiked the Alps", kind="event", at=datetime(2025, 3, 1, tzinfo=UTC))
    other_day = me.recall("what did Ana do on 15 March 2025", k=5, track=False)
    assert len(other_day) == 1 and outside(other_day[0])
    assert other_day.note.startswith("nothing remembered on 2025-03-15")
    that_day = me.recall("what did Ana do on 1 March 2025", k=5, track=False)
    assert len(that_day) == 1 and not outside(that_day[0]) and that_day.note == ""


def outside(hit) -> bool:  # type: ignore[no-untyped-def]
    return any(n.startswith("outside the asked window") for n in hit.explanation.notes)


def test_the_precision_is_stored_and_exported(me, tmp_path):  # type: ignore[no-untyped-def]
    rec = me.remember("Ana hiked the Alps", kind="event", at="2025-03").memory
    got = me.get(rec.id)
    assert (got.at, got.at_precision) == (datetime(2025, 3, 1, tzinfo=UTC), "month")
    assert got.to_dict()["at_precision"] == "month"
    path = tmp_path / "snap.jsonl"
    me.snapshot(str(path))
    me.forget_scope()
    me.restore_snapshot(str(path))
    assert me.get(rec.id).at_precision == "month"


def test_a_datetime_without_a_zone_is_utc():  # type: ignore[no-untyped-def]
    assert parse_at(datetime(2025, 3, 1, 9)) == (datetime(2025, 3, 1, 9, tzinfo=UTC), None)
    assert parse_at("2025-03-01T09:00:00") == (datetime(2025, 3, 1, 9, tzinfo=UTC), None)

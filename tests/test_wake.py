"""Waking archived memories with cues: person, place, topic, time; strong cues promote, weak
ones do not; at most 2 woken in k; recall(track=False) changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engramdb.text.timeexpr import time_window
from helpers import dump

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores

WORK = ["The quarterly report is due on Friday", "My manager asked for the budget slides",
        "I work at Acme as an engineer", "The team moved to the new office"]


def archived_trip(mem, clock, content, people, places, topics):  # type: ignore[no-untyped-def]
    """The trip, a few work memories, 120 days and a sleep: the trip is in the archive."""
    trip = mem.remember(content, kind="event", people=people, places=places,
                        topics=topics).memory
    for text in WORK:
        mem.remember(text)
    clock.advance(days=120)
    assert mem.sleep().phase("decay").ids("archived") == [trip.id]
    return trip


def ids(hits):  # type: ignore[no-untyped-def]
    return [h.memory.id for h in hits]


@pytest.mark.parametrize(("content", "people", "places", "topics", "idle", "cue"), [
    ("went to Harbin with Wang to see the ice sculptures", ["Wang"], ["Harbin"],
     ["ice sculptures"], "how is work going", "that trip with Wang to Harbin"),
    ("和小王去哈尔滨看冰雕", ["小王"], ["哈尔滨"], ["冰雕"], "工作怎么样",
     "那次和小王去哈尔滨的旅行"),
])
def test_a_strong_cue_wakes_and_promotes(mem, clock, content, people, places, topics, idle,  # type: ignore[no-untyped-def]
                                         cue):
    trip = archived_trip(mem, clock, content, people, places, topics)
    assert trip.id not in ids(mem.recall(idle, k=10))
    hits = mem.recall(cue, k=5)
    woken = [h for h in hits if h.woken]
    assert ids(woken) == [trip.id] and hits[0].memory.id == trip.id
    hit = woken[0]
    assert hit.explanation.terms["wake_score"] == pytest.approx(2.0)
    assert hit.explanation.terms["strong_cue"] == 1.0
    assert "woken from the archive" in hit.explanation.notes[0]
    assert hit.explanation.notes[-1] == "promoted to core"
    assert hit.to_dict()["woken"] is True
    now = mem.get(trip.id)
    assert (now.layer.value, now.use_count) == ("core", 1)  # promoted, with a use
    last = mem.history(trip.id)[-1]
    assert (last.op, last.memory.layer.value) == ("wake", "core")
    again = mem.recall(cue, k=5)
    assert again[0].memory.id == trip.id and not again[0].woken  # found in core now
    clock.advance(days=1)
    assert mem.sleep().changes == 0  # the reconsolidated memory is not archived again at once


def test_a_weak_cue_wakes_without_promoting(mem, clock):  # type: ignore[no-untyped-def]
    trip = archived_trip(mem, clock, "went to Harbin with Wang to see the ice sculptures",
                         ["Wang"], ["Harbin"], ["ice sculptures"])
    hits = mem.recall("Wang and the ice", k=5)  # person in full, half of the topic
    (hit,) = [h for h in hits if h.woken]
    assert hit.memory.id == trip.id
    assert hit.explanation.terms["wake_score"] == pytest.approx(1.5)
    assert hit.explanation.terms["strong_cue"] == 0.0
    now = mem.get(trip.id)
    assert (now.layer.value, now.use_count) == ("archived", 1)  # a use, no promotion


@pytest.mark.parametrize("query", ["Wang", "that trip to Harbin", "what happened in March"])
def test_one_cue_kind_is_not_enough(mem, clock, query):  # type: ignore[no-untyped-def]
    trip = archived_trip(mem, clock, "went to Harbin with Wang to see the ice sculptures",
                         ["Wang"], ["Harbin"], ["ice sculptures"])
    assert trip.id not in ids(mem.recall(query, k=10))


@pytest.mark.parametrize("query", ["ice sculptures in winter", "那次看的冰雕"])
def test_its_own_words_wake_it_weakly(mem, clock, query):  # type: ignore[no-untyped-def]
    """Most of the query's content words, held by the memory, wake it without any anchor
    kind; a weak cue, so it is shown and not promoted."""
    content = ("went to Harbin with Wang to see the ice sculptures" if query.isascii()
               else "和小王去哈尔滨看冰雕，冻得不行")
    trip = archived_trip(mem, clock, content, [], [], [])
    hits = mem.recall(query, k=5)
    (hit,) = [h for h in hits if h.woken]
    assert hit.memory.id == trip.id and "words" in hit.explanation.notes[0]
    assert "woken from the archive by the words asked" in hit.why
    assert hit.explanation.terms["strong_cue"] == 0.0
    assert mem.get(trip.id).layer.value == "archived"


def test_a_time_cue_counts_as_a_kind(mem, clock):  # type: ignore[no-untyped-def]
    trip = archived_trip(mem, clock, "went to Harbin with Wang to see the ice sculptures",
                         ["Wang"], ["Harbin"], ["ice sculptures"])
    assert trip.at.month == 3 and clock.now().month == 6
    hits = mem.recall("what did Wang and I do in March", k=5)
    (hit,) = [h for h in hits if h.woken]
    assert hit.memory.id == trip.id and "time 2026-03-01..2026-04-01" in hit.explanation.notes[0]
    assert mem.get(trip.id).layer.value == "core"


def test_at_most_two_of_k_are_woken(mem, clock):  # type: ignore[no-untyped-def]
    trips = [mem.remember(f"Trip {i}: Harbin with Wang", kind="event", people=["Wang"],
                          places=["Harbin"]).memory.id for i in range(4)]
    for text in WORK:
        mem.remember(text)
    clock.advance(days=120)
    mem.sleep(phase="decay")  # archive them, without consolidating them into a gist
    hits = mem.recall("Wang in Harbin", k=5, track=False)
    woken = [h for h in hits if h.woken]
    assert len(hits) == 5 and len(woken) == 2
    assert set(ids(woken)) <= set(trips)
    assert len([h for h in mem.recall("Wang in Harbin", k=1, track=False) if h.woken]) == 1


def test_recall_without_tracking_changes_nothing(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    trip = archived_trip(mem, clock, "went to Harbin with Wang to see the ice sculptures",
                         ["Wang"], ["Harbin"], ["ice sculptures"])
    before = dump(str(tmp_path / "memory.db"))
    hits = mem.recall("that trip with Wang to Harbin", k=5, track=False)
    assert hits[0].memory.id == trip.id and hits[0].woken
    assert hits[0].explanation.notes[-1] != "promoted to core"
    assert dump(str(tmp_path / "memory.db")) == before
    assert mem.get(trip.id).layer.value == "archived"


def test_forgotten_and_filtered_memories_are_never_woken(mem, clock):  # type: ignore[no-untyped-def]
    trip = archived_trip(mem, clock, "went to Harbin with Wang to see the ice sculptures",
                         ["Wang"], ["Harbin"], ["ice sculptures"])
    assert trip.id not in ids(mem.recall("Wang in Harbin", k=5, kinds=["fact"]))
    mem.forget(trip.id)
    assert trip.id not in ids(mem.recall("that trip with Wang to Harbin", k=5))
    assert mem.get(trip.id).layer.value == "deleted"


NOW = datetime(2026, 6, 29, 12, tzinfo=UTC)


@pytest.mark.parametrize(("text", "start", "days"), [
    ("in March", datetime(2026, 3, 1, tzinfo=UTC), 31),
    ("December 2025", datetime(2025, 12, 1, tzinfo=UTC), 31),
    ("三月份", datetime(2026, 3, 1, tzinfo=UTC), 31),
    ("2025年3月", datetime(2025, 3, 1, tzinfo=UTC), 31),
    ("in 2024", datetime(2024, 1, 1, tzinfo=UTC), 366),
    ("去年", datetime(2025, 1, 1, tzinfo=UTC), 365),
    ("last week", datetime(2026, 6, 22, tzinfo=UTC), 7),
    ("上周", datetime(2026, 6, 22, tzinfo=UTC), 7),
    ("yesterday", datetime(2026, 6, 28, tzinfo=UTC), 1),
    ("two weeks ago", datetime(2026, 6, 15, tzinfo=UTC), 7),
    ("3个月前", datetime(2026, 3, 1, tzinfo=UTC), 31),
])
def test_time_words(text, start, days):  # type: ignore[no-untyped-def]
    assert time_window(text, NOW) == (start, start + timedelta(days=days))


@pytest.mark.parametrize("text", ["how is work going", "you may go", "工作怎么样", "room 2"])
def test_no_time_words(text):  # type: ignore[no-untyped-def]
    assert time_window(text, NOW) is None

"""Waking by meaning (recall/wakemeaning.py): a query that means an archived memory's topic
wakes it next to a named anchor, in English and Chinese; with the real USE model (pure numpy,
no download)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.testing import FrozenClock

WORK = ["The quarterly report is due on Friday", "My manager asked for the budget slides",
        "I work at Acme as an engineer", "The team moved to the new office"]


@pytest.fixture(scope="module")
def archived(tmp_path_factory):  # type: ignore[no-untyped-def]
    clock = FrozenClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    with engramdb.open(tmp_path_factory.mktemp("wm") / "m.db", embedder="use",
                       clock=clock) as mem:
        trip = mem.remember("travelled around Norway with Wang for two weeks", kind="event",
                            people=["Wang"], topics=["travel"]).memory
        for text in WORK:
            mem.remember(text)
        clock.advance(days=120)
        assert mem.sleep().phase("decay").ids("archived") == [trip.id]
        yield mem, trip


@pytest.mark.parametrize("cue", ["that trip with Wang", "Wang's journey", "和Wang的旅行"])
def test_a_query_that_means_the_topic_wakes_it(archived, cue):  # type: ignore[no-untyped-def]
    mem, trip = archived
    hits = mem.recall(cue, k=5, track=False)
    woken = [h for h in hits if h.woken]
    assert [h.memory.id for h in woken] == [trip.id]
    assert "person Wang, meaning" in woken[0].explanation.notes[0]


def test_the_exact_word_alone_is_no_longer_needed_but_a_cue_still_is(archived):  # type: ignore[no-untyped-def]
    mem, _ = archived
    assert not [h for h in mem.recall("how is work going", k=5, track=False) if h.woken]
    # the person named, but the rest means something else: no second kind
    assert not [h for h in mem.recall("what did Wang cook", k=5, track=False) if h.woken]

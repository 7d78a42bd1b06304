"""A question about an earlier value said in none of the past's words (recall/earlier.py): its
meaning leans toward the twin questions about before, and recall routes it as one about
history, so a value the write path superseded comes back, just below the value that replaced
it. A question about the value now does not. The default embedder, real SQLite files, a frozen
clock; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb.embed.shipped import load
from engramdb.recall.earlier import EARLIER, SHIPPED, TEXTS, book_for, texts, twins
from engramdb.recall.temporal import HISTORY, route
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock

# (older, newer, a question about before with no word of the past, a question about now)
CHANGED = [
    ("The puppy is called Biscuit.", "We renamed the puppy, she's called Maple now.",
     "What name did we give the puppy at first?", "What's the puppy called?"),
    ("沙发是在宜家订的。", "沙发改在顾家家居订了。",
     "我第一次订沙发是在哪家店？", "沙发是在哪家店订的？"),
]



def _lang(text: str) -> str:
    return "en" if text.isascii() else "zh"


def test_the_twins_are_read_in_both_languages() -> None:
    pairs = twins()
    assert {lang for lang, _, _ in pairs} == {"en", "zh"}
    assert all(before and now and before != now for _, before, now in pairs)
    assert texts() == [b for _, b, _ in pairs] + [n for _, _, n in pairs]


@pytest.mark.parametrize(("old", "new", "before", "now"), CHANGED)
def test_a_question_about_before_stands_and_its_twin_about_now_does_not(
        model: Any, old: str, new: str, before: str, now: str) -> None:
    book = book_for(model)
    assert book is not None and set(book.axes) == {"en", "zh"}
    for question in (before, now):
        assert route(question, None).mode == "current"   # no word of the past in either
    stand = [book.standing(model.embed_batch([q], query=True)[0], _lang(q)) for q in (before, now)]
    assert stand[0] >= EARLIER > stand[1], stand


@pytest.mark.parametrize(("old", "new", "before", "now"), CHANGED)
def test_the_superseded_value_comes_back_below_the_new_one(tmp_path: Any, model: Any,
                                                          old: str, new: str, before: str,
                                                          now: str) -> None:
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(str(tmp_path / "m.db"), embedder=model, clock=clock) as mem:
        me = mem.scope(user="u")
        first = me.remember(old).memory
        clock.advance(days=5)
        assert me.remember(new).action.value == "supersede"
        clock.advance(hours=1)
        assert me.get(first.id).superseded_by is not None
        hits = me.recall(before, k=3, track=False)
        assert hits.plan["routing"]["mode"] == HISTORY
        assert [h.memory.content for h in hits] == [new, old]
        assert any("after the value that replaced it" in n for n in hits[1].explanation.notes)
        current = me.recall(now, k=3, track=False)
        assert current.plan["routing"]["mode"] == "current"
        assert [h.memory.content for h in current] == [new]


def test_a_question_saying_before_still_puts_the_former_value_first(tmp_path: Any,
                                                                   model: Any) -> None:
    old, new, _, _ = CHANGED[0]
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(str(tmp_path / "m.db"), embedder=model, clock=clock) as mem:
        me = mem.scope(user="u")
        me.remember(old)
        clock.advance(days=5)
        me.remember(new)
        hits = me.recall("What was the puppy called before?", k=3, track=False)
        assert hits.plan["routing"]["mode"] == "past"
        assert [h.memory.content for h in hits] == [old, new]


def test_the_default_embedders_vectors_of_the_twins_ship(model: Any) -> None:
    """tools/shipped_vectors.py wrote them (run it again after editing
    data/earlier_questions.txt)."""
    vectors = load(SHIPPED, TEXTS, model.model_id)
    assert vectors is not None, "questions changed: run tools/shipped_vectors.py"
    assert vectors.shape == (len(texts()), model.dimensions)
    assert np.allclose(vectors[:3], model.embed_batch(texts()[:3], query=True), atol=2e-3)


def test_an_embedder_without_meaning_routes_nothing_by_meaning(tmp_path: Any) -> None:
    assert book_for(make_embedder("hashing")) is None
    with engramdb.open(str(tmp_path / "h.db"), embedder="hashing") as mem:
        me = mem.scope(user="u")
        me.remember("The puppy is called Biscuit.")
        hits = me.recall("What name did we give the puppy at first?", k=3, track=False)
        assert hits.plan["routing"]["mode"] == "current"


def test_a_past_tense_question_routed_to_history_still_asks_its_slot(tmp_path: Any,
                                                                    model: Any) -> None:
    """A question with "did" asks no slot of now (recall/slotcue.py), unless it asks for an
    earlier value: here by its meaning, routed as one about history after it was planned."""
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(str(tmp_path / "m.db"), embedder=model, clock=clock) as mem:
        me = mem.scope(user="u")
        me.remember("I use Kate as my editor.")
        clock.advance(days=5)
        assert me.remember("I switched my editor to Helix.").action.value == "supersede"
        clock.advance(hours=1)
        hits = me.recall("Which editor did I use at first?", k=3, track=False)
        assert hits.plan["routing"]["mode"] == HISTORY
        assert hits.plan["asked_slot"] == {"attributes": ["editor"]}

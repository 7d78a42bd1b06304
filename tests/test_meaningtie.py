"""A tie by meaning in a small scope (recall/rerank.py ``standing_ties``): under 20 memories
recall reads no meaning into the re-ranker (no chance level to judge a standing by), so two
memories that hold none of the question's words were ordered by the dense leg's raw cosine,
which favours a memory near every question. Their standing against the question bank orders
them now; a word held still outweighs it. Two memories that hold the same words of the
question are ordered by it too, at WORDS_TIE. The default embedder, real SQLite files, a
frozen clock; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

import engramdb
from engramdb.recall.rerank import TIE_WEIGHT, WORDS_TIE, standing_ties
from engramdb.testing import FrozenClock

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_ties_scale_the_standings_among_the_candidates() -> None:
    ties = standing_ties({"a": 1.0, "b": 3.0, "c": 2.0}, scope_size=5)
    assert ties == pytest.approx({"a": 0.0, "b": TIE_WEIGHT, "c": TIE_WEIGHT / 2})


@pytest.mark.parametrize(("standings", "size"), [
    ({"a": 1.0, "b": 3.0}, 20),   # a scope with a background reads meaning itself
    ({"a": 1.0}, 3),              # one memory: nothing to order
    ({"a": 2.0, "b": 2.0}, 3),    # no difference to order by
    ({}, 3),
])
def test_no_ties_where_there_is_nothing_to_break(standings: dict[str, float],
                                                 size: int) -> None:
    assert standing_ties(standings, size) == {}



def _first(tmp_path: Any, model: Any, older: str, newer: str, question: str) -> Any:
    clock = FrozenClock(START)
    with engramdb.open(str(tmp_path / "tie.db"), embedder=model, clock=clock) as mem:
        me = mem.scope(user="u")
        me.remember(older)
        clock.advance(days=3)
        me.remember(newer)
        clock.advance(hours=1)
        return me.recall(question, k=2, track=False)


def test_the_memory_a_question_means_comes_first_without_its_words(tmp_path: Any,
                                                                   model: Any) -> None:
    # neither memory holds a word of the question; the raw cosine put the battery first
    hits = _first(tmp_path, model, "Grandpa's hearing aid uses size 312 batteries.",
                  "Grandpa's hearing aid was fitted at Boots.",
                  "Which shop set up the device for him?")
    assert "Boots" in hits[0].memory.content
    assert hits[0].explanation.terms["meaning_tie"] == pytest.approx(TIE_WEIGHT)
    assert hits[1].explanation.terms["meaning_tie"] == 0.0


@pytest.mark.parametrize(("older", "newer", "question", "first"), [
    ("爷爷的助听器在眼镜店配的。", "爷爷的助听器用312号电池。",
     "老人家那个设备是在哪里弄的？", "眼镜店"),
    ("我们的牙医是周医生。", "牙科诊所早上八点开门。", "最早几点能去看？", "八点"),
])
def test_chinese_memories_without_the_questions_words_are_ordered_by_meaning(
        tmp_path: Any, model: Any, older: str, newer: str, question: str,
        first: str) -> None:
    hits = _first(tmp_path, model, older, newer, question)
    assert first in hits[0].memory.content
    assert hits[0].explanation.terms["meaning_tie"] == pytest.approx(TIE_WEIGHT)


def test_a_word_held_outweighs_the_tie(tmp_path: Any, model: Any) -> None:
    # "boat" is held by both, "seats" by one: the coverage decides, the tie is at most WORDS_TIE
    hits = _first(tmp_path, model, "Our boat is moored at Poole harbour.",
                  "The boat seats six people.", "How many people does the boat seat?")
    assert "seats six" in hits[0].memory.content
    assert all(h.explanation.terms["meaning_tie"] <= WORDS_TIE for h in hits)


@pytest.mark.parametrize(("first", "second", "question", "answer"), [
    ("The bakery on our corner opens at 7am.", "The bakery on our corner is on Mill Lane.",
     "Where is the bakery on our corner?", "Mill Lane"),
    ("The bakery on our corner is on Mill Lane.", "The bakery on our corner opens at 7am.",
     "When does the bakery on our corner open?", "7am"),
    ("小区的图书馆早上九点开门。", "小区的图书馆在人民路上。", "小区的图书馆在哪里？", "人民路"),
    ("小区的图书馆在人民路上。", "小区的图书馆早上九点开门。", "小区的图书馆几点开门？", "九点"),
])
def test_two_memories_holding_the_same_words_are_ordered_by_meaning(
        tmp_path: Any, model: Any, first: str, second: str, question: str,
        answer: str) -> None:
    """Both hold every word of the question ("bakery", 图书馆): the one that answers it comes
    first, whichever was said first."""
    hits = _first(tmp_path, model, first, second, question)
    assert answer in hits[0].memory.content
    assert hits[0].explanation.terms.get("meaning_tie") == pytest.approx(WORDS_TIE)


def test_the_hashing_embedder_reads_no_tie(tmp_path: Any) -> None:
    hits = _first(tmp_path, "hashing", "Grandpa's hearing aid uses size 312 batteries.",
                  "Grandpa's hearing aid was fitted at Boots.",
                  "Which shop set up the device for him?")
    assert all("meaning_tie" not in h.explanation.terms for h in hits)

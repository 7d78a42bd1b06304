"""Near ties among the top hits told apart by the question's person and mood (recall/asked.py):
"what am I allergic to?" gets the user's allergy first, not a daughter's; a question about a
plan gets the plan. Real SQLite files, the hashing embedder, a frozen clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engramdb.recall.asked import fits
from engramdb.write.reading import read


def told(me, clock, first: str, second: str) -> None:  # type: ignore[no-untyped-def]
    me.remember(first, at=clock.now() - timedelta(days=2))
    me.remember(second, at=clock.now() - timedelta(days=1))


@pytest.mark.parametrize(("first", "second", "question", "expected"), [
    ("I'm allergic to penicillin.", "My son is allergic to peanuts.",
     "What am I allergic to?", "I'm allergic to penicillin."),
    ("I'm allergic to penicillin.", "My son is allergic to peanuts.",
     "What is my son allergic to?", "My son is allergic to peanuts."),
    ("我对青霉素过敏。", "我儿子对花生过敏。", "我对什么过敏？", "我对青霉素过敏。"),
    ("Our Redis is version 6.", "We're considering moving Redis to version 7.",
     "Which Redis version are we considering?", "We're considering moving Redis to version 7."),
    ("I work at Siemens.", "My daughter works at Roche.",
     "Where do I work?", "I work at Siemens."),
    ("我们的数据库是MySQL 5.7。", "我们打算把数据库升级到MySQL 8.0。",
     "我们打算把数据库升级到哪个版本？", "我们打算把数据库升级到MySQL 8.0。"),
])
def test_the_hit_that_fits_the_question_comes_first(me, clock, first, second, question,  # type: ignore[no-untyped-def]
                                                    expected) -> None:
    told(me, clock, first, second)
    hits = me.recall(question, k=3, track=False)
    assert hits[0].memory.content == expected
    moved = hits.plan.get("stages", {}).get("asked", [])
    assert all(any("fits the question" in n for n in h.explanation.notes)
               for h in hits if h.memory.id in moved)


@pytest.mark.parametrize(("question", "text", "fit"), [
    ("What am I allergic to?", "I'm allergic to penicillin.", 2),
    ("What am I allergic to?", "My son is allergic to peanuts.", 1),       # another person
    ("What tea does Sam drink?", "Sam drinks Earl Grey.", 2),              # a thing fits any
    ("Which version are we considering?", "We might upgrade to 16.", 2),   # a plan for a plan
    ("Which version do we run?", "We might upgrade to 16.", 1),
    ("我对什么过敏？", "我儿子对花生过敏。", 1),
    ("我们打算升级到哪个版本？", "我们用的是5.7版。", 1),
])
def test_fits(question: str, text: str, fit: int) -> None:
    assert fits(read(question), text) == fit

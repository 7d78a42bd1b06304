"""Two current facts alike, of two subjects (recall/nearpair.py): a question about one ranks
its own fact first, whichever was said last. Real SQLite files, the hashing embedder, a
frozen clock."""

from __future__ import annotations

from datetime import timedelta

import pytest


@pytest.mark.parametrize(("mine", "theirs", "about_me", "about_them"), [
    ("I work at Siemens.", "My wife works at Roche.",
     "Where do I work?", "Where does my wife work?"),
    ("I live in Hangzhou.", "My parents live in Shaoxing.",
     "Where do I live?", "Where do my parents live?"),
    ("我对青霉素过敏。", "我女儿对芒果过敏。", "我对什么过敏？", "我女儿对什么过敏？"),
    ("我住在杭州西湖区。", "我爸妈住在绍兴。", "我住在哪里？", "我爸妈住在哪里？"),
])
@pytest.mark.parametrize("mine_first", [True, False])
def test_each_question_ranks_its_own_fact_first(me, clock, mine, theirs, about_me,  # type: ignore[no-untyped-def]
                                                about_them, mine_first) -> None:
    first, second = (mine, theirs) if mine_first else (theirs, mine)
    a = me.remember(first, kind="fact", at=clock.now() - timedelta(days=3))
    b = me.remember(second, kind="fact", at=clock.now() - timedelta(days=1))
    assert me.get(a.memory.id).current and me.get(b.memory.id).current
    for question, want in ((about_me, mine), (about_them, theirs)):
        hits = me.recall(question, k=3, track=False)
        assert hits[0].memory.content == want, question
        moved = hits.plan["stages"].get("near", [])
        if moved:  # the move is said in the plan and in the hit's notes
            assert moved[0]["first"] == hits[0].memory.id
            assert any(n.startswith("near miss") for n in hits[0].explanation.notes)

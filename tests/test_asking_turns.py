"""A turn that only asks states nothing (recall/rerank.py ``ASKING``): in a conversation, the
user's question about a topic ("Which lock suits a bike rack best?") shares the topic's words
with a later question about the user's own value ("Where is my bike locked up?") and ranked
above the turn that states it. Its score is now scaled by ASKING; a question the user stored
with ``remember`` is not. Real SQLite files, the hashing embedder (the reading needs no
meaning), a frozen clock; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import engramdb
from engramdb.recall.rerank import ASKING
from engramdb.testing import FrozenClock

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ENGLISH = [
    [("user", "Keep a note: my bike is locked to rack 12 outside the library."),
     ("assistant", "Noted, rack 12.")],
    [("user", "Which lock suits a bike rack best?"),
     ("assistant", "A D-lock is the usual choice."),
     ("user", "Oh, and a correction: the bike is locked to rack 30, I misread the sign."),
     ("assistant", "Thanks, rack 30.")],
]
CHINESE = [
    [("user", "记一下：我的自行车锁在图书馆门口的12号车架。"), ("assistant", "好的，12号。")],
    [("user", "自行车锁用哪种最好？"), ("assistant", "U型锁比较常用。"),
     ("user", "更正一下：自行车其实锁在30号车架，我看错了。"), ("assistant", "好的，30号。")],
]


def _recall(path: Path, days: list[list[tuple[str, str]]], question: str):  # type: ignore[no-untyped-def]
    clock = FrozenClock(START)
    with engramdb.open(str(path), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        for day, turns in enumerate(days):
            me.ingest([{"role": role, "content": text} for role, text in turns],
                      session=f"day{day}")
            clock.advance(days=1)
        return me.recall(question, k=5, track=False)


@pytest.mark.parametrize(("days", "question", "value", "asking"), [
    (ENGLISH, "Where is my bike locked up?", "rack 30", "Which lock suits a bike rack best?"),
    (CHINESE, "自行车停在哪里？", "30号", "自行车锁用哪种最好？"),
])
def test_the_turn_that_states_the_value_ranks_above_the_one_that_asks(
        tmp_path: Path, days: list[list[tuple[str, str]]], question: str, value: str,
        asking: str) -> None:
    hits = _recall(tmp_path / "m.db", days, question)
    assert value in hits[0].memory.content
    asked = [h for h in hits if h.memory.content == asking]
    assert all(h.explanation.terms.get("asking") == ASKING for h in asked)
    assert all(hits.index(h) > 0 for h in asked)


def test_a_question_the_user_chose_to_remember_keeps_its_score(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    with engramdb.open(str(tmp_path / "m.db"), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        me.remember("Should we repaint the shed green?", kind="fact")
        me.remember("The shed roof leaks when it rains.", kind="fact")
        hits = me.recall("Should we repaint the shed?", k=2, track=False)
    assert hits[0].memory.content == "Should we repaint the shed green?"
    assert "asking" not in hits[0].explanation.terms

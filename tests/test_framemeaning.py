"""Two statements of one thing in other words (recall/framemeaning.py): with no word in common,
or a value no typed token tells, the newer value comes first for a question about now and the
older for one about before, judged by their meaning against what the kind examples meet. The
default embedder, real SQLite files, a frozen clock; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engramdb
from engramdb.recall.conflicts import conflict, read, values_conflict
from engramdb.recall.framemeaning import STANDING, MeaningFrame
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from engramdb.write.kindvote import vectors_for

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)

CHANGES = [
    ("Our team chats on Slack.", "Everyone messages each other on Microsoft Teams now.",
     "What does our team use to chat?", "What did our team use to chat before?"),
    ("I rent a flat in Shoreditch.", "Just moved into a house in Walthamstow.",
     "Where do I live?", "Where did I live before?"),
    ("我的家庭医生是李医生。", "现在换成王医生给我看病了。",
     "我的家庭医生是谁？", "我以前的家庭医生是谁？"),
]



def _stored(tmp_path: Any, model: Any, old: str, new: str) -> Any:
    clock = FrozenClock(NOW)
    mem = engramdb.open(tmp_path / "memory.db", embedder=model, clock=clock)
    me = mem.scope(user="ana")
    a = me.remember(old, kind="fact", at=NOW - timedelta(days=30)).memory
    b = me.remember(new, kind="fact", at=NOW - timedelta(days=2)).memory
    return mem, me, a, b


@pytest.mark.parametrize(("old", "new", "now_q", "before_q"), CHANGES)
def test_a_change_in_other_words_comes_first_for_now_and_last_for_before(
        tmp_path: Any, model: Any, old: str, new: str, now_q: str, before_q: str) -> None:
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        assert me.get(a.id).current and me.get(b.id).current  # the write kept both
        # their words alone share nothing recall reads as one frame
        assert not conflict(me.get(a.id), me.get(b.id))
        ordered_by_time(me, a, b, now_q, before_q)


def ordered_by_time(me: Any, a: Any, b: Any, now_q: str, before_q: str) -> None:
    """The newer (``b``) first for the question about now, marked as such, and the older
    (``a``) first for the question about before."""
    hits = me.recall(now_q, k=3, track=False)
    assert [h.memory.id for h in hits[:2]] == [b.id, a.id]
    assert hits.plan["stages"]["conflicts"] == [{"earlier": a.id, "newer": b.id}]
    assert any(n.startswith("earlier value") for n in hits[1].explanation.notes)
    past = me.recall(before_q, k=3, track=False)
    assert [h.memory.id for h in past[:2]] == [a.id, b.id]


@pytest.mark.parametrize(("old", "new", "now_q"), [
    ("I drink black coffee every morning.", "Switched to green tea in the mornings now.",
     "What do I drink in the morning?"),
    ("我们组的代码放在码云上。", "代码仓库现在换成了极狐。", "我们组的代码放在哪里？"),
    ("我用的输入法是搜狗。", "输入法换成了微信输入法。", "我用什么输入法？"),
    # 了 at the end of a clause says a new state
    ("女儿在红星幼儿园上大班。", "女儿上一年级了，在育才小学。", "女儿在哪里上学？"),
])
def test_a_value_in_plain_words_is_what_differs(tmp_path: Any, model: Any, old: str, new: str,
                                                now_q: str) -> None:
    """No typed value (a name, a number) tells these apart: where the two mean one thing and
    the newer says a change, the words that differ are the value."""
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        assert not values_conflict(read(old), read(new))
        hits = me.recall(now_q, k=3, track=False)
        assert hits[0].memory.id == b.id
        if me.get(a.id).current:   # kept side by side: recall's net orders them
            assert [h.memory.id for h in hits[:2]] == [b.id, a.id]
            assert hits.plan["stages"]["conflicts"] == [{"earlier": a.id, "newer": b.id}]
        else:   # or the write path read the change (X换成Y: recall/untyped.py)
            assert me.get(a.id).superseded_by == b.id


@pytest.mark.parametrize(("old", "new", "asked"), [
    ("I'm allergic to shellfish.", "I'm not allergic to peanuts anymore.",
     "What am I allergic to?"),
    ("我对芒果过敏。", "我对菠萝不过敏，可以吃。", "我对什么过敏？"),
    # 了 after a verb says an act is done: one more item, no change
    ("我订阅的杂志有《三联生活周刊》。", "我还订阅了《读者》。", "我订阅了什么杂志？"),
])
def test_a_negation_or_one_more_item_is_no_new_value(tmp_path: Any, model: Any, old: str,
                                                      new: str, asked: str) -> None:
    mem, me, a, _ = _stored(tmp_path, model, old, new)
    with mem:
        hits = me.recall(asked, k=3, track=False)
        assert hits[0].memory.id == a.id
        assert "conflicts" not in hits.plan.get("stages", {})


@pytest.mark.parametrize(("old", "new"), [
    ("I rent a flat in Shoreditch.", "Our build runs on GitHub Actions now."),
    ("我的家庭医生是李医生。", "现在周末都去城西的游泳馆游泳。"),
])
def test_statements_about_different_things_do_not_stand_out(tmp_path: Any, model: Any,
                                                            old: str, new: str) -> None:
    mem, me, a, b = _stored(tmp_path, model, old, new)
    with mem:
        vectors = dict(zip([a.id, b.id], model.embed_batch([old, new]), strict=True))
        frame = MeaningFrame(model.embed_batch([new], query=True)[0],
                             lambda ids: {i: vectors[i] for i in ids},
                             lambda cjk: vectors_for(model, cjk))
        assert frame.standing(a, b) < STANDING
        assert not frame(a, b)


def test_without_meaning_the_words_alone_decide(tmp_path: Any) -> None:
    """The hashing embedder reads words: no standing, and the two stay in recall's order."""
    hashing = make_embedder("hashing")
    assert vectors_for(hashing, False) is None
    mem, me, a, b = _stored(tmp_path, hashing, *CHANGES[1][:2])
    with mem:
        hits = me.recall("Where do I live?", k=3, track=False)
        assert "conflicts" not in (hits.plan or {}).get("stages", {})

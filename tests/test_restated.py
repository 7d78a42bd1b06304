"""A fact said again with another value in plain words (recall/restated.py), and a correction
said in a turn of several sentences (write/extract.py): the newer value comes first for a
question about now, the older for one about before; near misses keep their order. Real SQLite
files, the hashing embedder, a frozen clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engramdb.recall.restated import restated
from engramdb.write.extract import sentences
from test_conflicts import told_in_chat


@pytest.fixture
def net_only(monkeypatch):  # type: ignore[no-untyped-def]
    """The write path's "changed_value" rule off (write/supersede.py ``CHANGED``): it now
    supersedes these pairs at write; the net is what is tested here, for the pairs the write
    path leaves side by side (said in other words, or in a conversation)."""
    import engramdb.write.supersede as supersede
    monkeypatch.setattr(supersede, "CHANGED", False)


def told(me, clock, first: str, second: str) -> None:  # type: ignore[no-untyped-def]
    a = me.remember(first, at=clock.now() - timedelta(days=11))
    b = me.remember(second, at=clock.now() - timedelta(days=1))
    assert me.get(a.memory.id).current and me.get(b.memory.id).current


@pytest.mark.parametrize(("first", "second", "now", "before"), [
    ("Sam drinks Earl Grey with milk.",
     "Sam has gone off Earl Grey, it's rooibos every evening now.",
     "What tea does Sam drink?", "What tea did Sam drink before?"),
    ("我用搜狗输入法。", "输入法换成微信输入法了，广告少。",
     "我用什么输入法？", "我以前用什么输入法？"),
])
def test_a_value_said_in_plain_words_is_placed_first(me, clock, net_only, first, second,  # type: ignore[no-untyped-def]
                                                     now, before) -> None:
    told(me, clock, first, second)
    hits = me.recall(now, k=3, track=False)
    assert [h.memory.content for h in hits[:2]] == [second, first]
    assert "earlier value" in hits[1].why
    assert hits.plan["stages"]["conflicts"] == [{"earlier": hits[1].memory.id,
                                                 "newer": hits[0].memory.id}]
    past = me.recall(before, k=3, track=False)
    assert [h.memory.content for h in past[:2]] == [first, second]


@pytest.mark.parametrize(("old", "new"), [
    ("Sam drinks Earl Grey with milk.", "Sam has gone off Earl Grey, it's rooibos now."),
    ("vpn endpoint is vpn-lon.corp.example", "vpn endpoint -> vpn-ams.corp.example"),
    ("The quarterly review is in room Everest.", "It's in room Kilimanjaro, not Everest."),
    ("我早餐一般吃包子配豆浆。", "最近早餐改成燕麦配酸奶了。"),
    ("我用搜狗输入法。", "输入法换成微信输入法了。"),
    # no change word: the older's value named again beside a new one
    ("I drive a Toyota Yaris.", "Traded the Yaris in for a Kia EV6."),
    ("我骑捷安特上班。", "捷安特被偷，只好坐地铁上班。"),
])
def test_restated(old: str, new: str) -> None:
    assert restated(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("I'm allergic to penicillin.", "My daughter is allergic to mango now."),  # another subject
    ("Our Postgres is version 14.", "We're considering upgrading Postgres to 16 now."),  # plan
    ("Our standup is at 10.", "Would 9:30 be a better time for standup now?"),  # a question
    ("We sell to Canada now.", "We also sell to Mexico now."),                # one more item
    ("小陈在招聘委员会。", "小陈不在预算委员会。"),                    # another thing denied
    ("I drink coffee every morning.", "I drink green tea at work."),         # no change said
    ("我们的客户有顺丰。", "盒马现在也是我们的客户。"),                       # one more item
    ("孩子晚上八点半睡觉。", "除夕那天孩子可以玩到十点再睡了。"),              # a passing exception
    ("I live in Leeds.", "I live in Leeds."),                                # nothing new
    ("我吃鱼。", "不过我不吃虾。"),                                # a negation of another
])
def test_remembered_near_misses_are_not_restated(old: str, new: str) -> None:
    assert not restated(old, new, chat=False)


@pytest.mark.parametrize(("first", "second", "question", "new"), [
    ("The quarterly review is in room Everest.",
     "Ah no, it's in room Kilimanjaro, not Everest. Everest is booked.",
     "Which room is the quarterly review in?", "Kilimanjaro"),
    ("周会在302会议室。", "不好意思说错了。是305会议室，不是302会议室。302在装修。",
     "周会在哪个会议室？", "305"),
])
def test_a_correction_in_a_longer_turn_is_kept_and_supersedes(me, clock, first, second,  # type: ignore[no-untyped-def]
                                                              question, new) -> None:
    me.ingest([{"role": "user", "content": first, "at": clock.now() - timedelta(days=3)}],
              session="s1")
    report = me.ingest([{"role": "user", "content": second,
                         "at": clock.now() - timedelta(days=1)}], session="s2")
    kept = [r for r in report.extracted if r.memory.kind.value == "fact"]
    assert kept and new in kept[0].memory.content
    assert kept[0].action.value == "supersede" and kept[0].rule == "triple_former_value"
    hits = me.recall(question, k=3, track=False)
    assert new in hits[0].memory.content


def test_a_title_abbreviation_ends_no_sentence() -> None:
    assert sentences("Finn's teacher is Ms. Alvarez. Dr. Chen took over. Ask Jon. He knows.") == [
        "Finn's teacher is Ms. Alvarez.", "Dr. Chen took over.", "Ask Jon.", "He knows."]
    assert sentences("我住在杭州。现在搬到了上海。") == ["我住在杭州", "现在搬到了上海"]



@pytest.mark.parametrize(("old", "new", "chat", "said"), [
    # between two remembered statements the older's words named again need a change word
    ("Sam drinks Earl Grey with milk.", "Sam has gone off Earl Grey, it's rooibos now.",
     False, True),
    ("我用搜狗输入法。", "输入法换成微信输入法了。", False, True),
    ("I drive a Toyota Yaris.", "Traded the Yaris in for a Kia EV6.", False, False),
    ("我骑捷安特上班。", "捷安特被偷，只好坐地铁上班。", False, False),
    ("I usually walk to school.", "Tomorrow I'm taking a taxi to school because of the rain.",
     False, False),
    # a former value between remembered statements is the write path's (triple_former_value)
    ("The quarterly review is in room Everest.", "It's in room Kilimanjaro, not Everest.",
     False, False),
    ("vpn endpoint is vpn-lon.corp.example", "vpn endpoint -> vpn-ams.corp.example", False,
     True),                                                               # an arrow says it
    ("我的体重是七十五公斤。", "希望夏天前到六十八公斤。", True, False),  # a plan
])
def test_between_remembered_statements_a_change_word_is_needed(old: str, new: str, chat: bool,
                                                               said: bool) -> None:
    assert restated(old, new, chat) is said


@pytest.mark.parametrize(("first", "second", "question", "new"), [
    ("I take melatonin to sleep.", "Melatonin stopped helping so my doctor gave me magnesium.",
     "What do I take to sleep?", "magnesium"),
    ("我每天早上喝美式咖啡。", "美式咖啡太苦，后来早上都喝拿铁。", "我早上喝什么咖啡？", "拿铁"),
])
def test_a_change_said_in_conversation_ranks_first(me, clock, first, second, question,  # type: ignore[no-untyped-def]
                                                   new) -> None:
    """Turn events are never superseded: the net orders the turns and what they yielded."""
    told_in_chat(me, clock, first, second, 30, 2)
    hits = me.recall(question, k=3, track=False)
    assert new in hits[0].memory.content
    assert hits.plan["stages"]["conflicts"]

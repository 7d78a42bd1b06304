"""The meaning vote (recall/rerank.py ``meaning_vote``): a word the question shares by chance
with another memory ("lives" in "My sister lives in Tromsø") gives that memory both legs, and it
stayed above the one that answers by meaning. The re-scored order is fused with the order by
meaning, trusted as far as no candidate holds the question's words; where a memory holding
some of them holds a name the question says, meaning does not vote. The default embedder
(meaning is read only with it, in a scope of 20 memories or more), real SQLite files, a frozen
clock; English and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engramdb
import engramdb.recall.rerank as rerank
from engramdb.testing import FrozenClock

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ENGLISH = [
    "I keep my passport in the top drawer of the desk.",
    "Our cat Miso sleeps all day on the radiator.",
    "I work as a nurse at the county hospital.",
    "My sister Hanna lives in Tromsø.",
    "I drive a blue Skoda estate.",
    "I'm allergic to penicillin.",
    "My dentist is Dr. Okafor on Mill Street.",
    "I play five-a-side football on Tuesdays.",
    "We moved into a flat near the canal in 2021.",
    "My favourite food is ramen.",
    "I'm learning to play the cello.",
    "My husband Tomas teaches maths at a secondary school.",
    "I go running along the river before work.",
    "Our wedding anniversary is in late September.",
    "I read crime novels on the train.",
    "My mum makes the best apple cake.",
    "I get hay fever every June.",
    "I volunteer at the food bank once a month.",
    "My laptop is an old ThinkPad.",
    "I take my coffee black.",
    "Night shifts leave me exhausted for two days.",
    "My best friend from school is called Priya.",
]
CHINESE = [
    "护照放在书桌最上面的抽屉里。", "家里的猫叫米索，整天趴在暖气片上睡觉。", "我在县医院当护士。",
    "我妹妹住在大连。", "我开一辆蓝色的斯柯达旅行车。", "我对青霉素过敏。", "我的牙医在磨坊街。",
    "我每周二踢五人制足球。", "我们2021年搬到了运河边的公寓。", "我最爱吃拉面。",
    "我在学拉大提琴。",
    "我老公在中学教数学。", "我每天上班前沿着河边跑步。", "我们的结婚纪念日在九月底。",
    "我在火车上看推理小说。", "我妈做的苹果蛋糕最好吃。", "每年六月我都会花粉过敏。",
    "我每个月去食物银行做一次志愿者。", "我的笔记本电脑是一台旧的ThinkPad。",
    "我喝咖啡不加糖不加奶。",
    "上夜班之后我要累两天。", "我中学最好的朋友叫小雅。",
]



def _store(path: Path, model: Any, texts: list[str]) -> Iterator[Any]:
    clock = FrozenClock(START)
    with engramdb.open(str(path), embedder=model, clock=clock) as mem:
        me = mem.scope(user="u")
        for text in texts:
            me.remember(text)
            clock.advance(days=1)
        yield me


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory, model: Any) -> Iterator[Any]:
    yield from _store(tmp_path_factory.mktemp("vote") / "en.db", model, ENGLISH)


@pytest.fixture(scope="module")
def chinese(tmp_path_factory: pytest.TempPathFactory, model: Any) -> Iterator[Any]:
    yield from _store(tmp_path_factory.mktemp("vote") / "zh.db", model, CHINESE)


def _trust(hits: Any) -> float:
    return float(hits.plan["stages"]["rerank"]["meaning_trust"])


@pytest.mark.parametrize(("question", "first"), [
    # "lives" is the one word it shares with a memory; the cat holds none of its words
    ("What animal lives with us?", "Our cat Miso sleeps all day on the radiator."),
    ("Which pet shares our home?", "Our cat Miso sleeps all day on the radiator."),
])
def test_an_english_question_in_other_words_gets_the_memory_it_means(
        english: Any, question: str, first: str) -> None:
    hits = english.recall(question, k=3, track=False)
    assert hits[0].memory.content == first
    assert hits[0].explanation.terms["coverage"] == 0.0
    assert hits[0].explanation.terms["meaning_vote"] > 0
    assert 0 < _trust(hits) <= 1
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_without_the_vote_the_shared_word_wins(english: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the same question with the vote switched off: the memory holding "lives" comes first
    monkeypatch.setattr(rerank, "meaning_vote", lambda top, meant, trust: top)
    hits = english.recall("What animal lives with us?", k=3, track=False)
    assert hits[0].memory.content == "My sister Hanna lives in Tromsø."


def test_a_chinese_question_in_other_words_gets_the_memory_it_means(chinese: Any) -> None:
    # 不 is shared by chance with the coffee; 药物 / 不耐受 are said as 青霉素 / 过敏
    hits = chinese.recall("我对什么药物不耐受？", k=3, track=False)
    assert hits[0].memory.content == "我对青霉素过敏。"
    assert _trust(hits) > 0


@pytest.mark.parametrize(("question", "first"), [
    ("Where do I keep my passport?", "I keep my passport in the top drawer of the desk."),
    ("What does my husband Tomas teach?",
     "My husband Tomas teaches maths at a secondary school."),
    ("我妹妹住在哪里？", "我妹妹住在大连。"),
])
def test_a_question_whose_words_are_held_is_ranked_by_them(
        english: Any, chinese: Any, question: str, first: str) -> None:
    store = chinese if any("\u4e00" <= c <= "\u9fff" for c in question) else english
    hits = store.recall(question, k=3, track=False)
    assert hits[0].memory.content == first
    assert _trust(hits) < 0.25


NAMED_EN = ["Mira works in Berlin.", "Mira works at Spotify.", "Jonas works at Siemens.",
            "Jonas lives in Hamburg."]
NAMED_ZH = ["郭勇平在西安工作。", "郭勇平在字节跳动工作。", "郭娟在青岛工作。", "郭娟住在青岛。"]


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory, model: Any) -> Iterator[Any]:
    yield from _store(tmp_path_factory.mktemp("vote") / "named.db", model,
                      ENGLISH + CHINESE + NAMED_EN + NAMED_ZH)


@pytest.mark.parametrize(("question", "subject"), [
    ("Mira is employed by which firm?", "Mira"),          # a name opening the question
    ("Which firm employs Mira these days?", "Mira"),
    ("郭勇平如今受雇于哪家企业？", "郭勇平"),
])
def test_meaning_does_not_vote_where_a_memory_holds_the_name_asked_about(
        named: Any, question: str, subject: str) -> None:
    # few of the question's words are held, but the subject's name is: meaning would not
    # tell one of the subject's attributes from another, or would lift another person's job
    hits = named.recall(question, k=3, track=False)
    assert _trust(hits) == 0.0
    assert hits[0].memory.content.startswith(subject)
    assert all("meaning_vote" not in h.explanation.terms for h in hits)


def test_an_embedder_without_meaning_never_votes(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    with engramdb.open(str(tmp_path / "h.db"), embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="u")
        for text in ENGLISH:
            me.remember(text)
        hits = me.recall("What animal lives with us?", k=3, track=False)
    assert _trust(hits) == 0.0
    assert all("meaning_vote" not in h.explanation.terms for h in hits)

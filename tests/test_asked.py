"""A question that asks for a time or an amount, and a best match that holds none
(recall/asked.py): the store is about the topic but does not answer it, and recall says so.
English and Chinese, with the default embedder, on a personal store of 20 memories or more."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

import engramdb
from engramdb import Draft
from engramdb.model import Kind
from engramdb.recall.asked import AMOUNT, TIME, UNANSWERED, asks, holds, names, precision
from engramdb.registry import make_embedder
from engramdb.store.contract_kit import make_record
from engramdb.testing import FrozenClock
from life_store import CHINESE, ENGLISH, LIFE

EPISODE = "Hiked the Sintra trail with Ana; the Pena Palace was in fog."


@pytest.fixture(scope="module")
def life(tmp_path_factory: pytest.TempPathFactory) -> Any:
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(tmp_path_factory.mktemp("asked") / "m.db",
                       embedder=make_embedder("default", threads=1), clock=clock) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in LIFE]
                          + [Draft(EPISODE, kind="event")])
        yield mem


def store(tmp: Any, texts: list[str]) -> Any:
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    return engramdb.open(tmp / "m.db", embedder=make_embedder("default", threads=1),
                         clock=clock)


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with store(tmp_path_factory.mktemp("en"), ENGLISH) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in ENGLISH])
        yield mem


@pytest.fixture(scope="module")
def chinese(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with store(tmp_path_factory.mktemp("zh"), CHINESE) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in CHINESE])
        yield mem


@pytest.mark.parametrize(("question", "kind"), [
    ("When does my passport expire?", TIME),
    ("What time does the bakery open?", TIME),
    ("How many lengths do I swim?", AMOUNT),
    ("How old is Ilse?", AMOUNT),
    ("我妈妈退休金有多少？", AMOUNT),
    ("我女儿几岁了？", AMOUNT),
    ("日语课是什么时候？", TIME),
    ("Where does Anton work?", None),
    ("我老公做什么工作？", None),
    ("I've got the flyer, so when's the gig?", TIME),
    ("Which trains run, and when do they leave?", TIME),
    ("What should I pack when I visit Gran?", None),   # "when" opening a clause asks nothing
    ("What does Ilse do when it rains?", None),
])
def test_what_a_question_asks_for(question: str, kind: str | None) -> None:
    assert asks(question) == kind


@pytest.mark.parametrize(("text", "held"), [
    ("The boiler service is booked for March 3.", True),
    ("Every Sunday I swim 40 lengths.", True),
    ("My daughter Ilse is seven.", True),
    ("我每天早上喝两杯豆浆。", True),
    ("I turned thirty-four last month.", True),
    ("My father had knee surgery last year.", False),   # a time, not an amount
    ("我在学日语，每周三晚上上网课。", True),
    ("I keep my passport in the grey folder.", False),
    ("My brother Anton repairs boats in Gdansk.", False),   # a place is no amount
    ("我妈妈住在苏州，退休前是会计。", False),
    ("我们家的路由器密码贴在冰箱上。", False),   # jieba tags 家 a numeral
    ("晚饭后散步不超过半小时。", True),   # a numeral and a unit, whatever jieba tags it
    ("他说一直在等你回电话。", False),
])
def test_what_a_memory_holds(text: str, held: bool) -> None:
    assert holds(make_record(1, content=text), AMOUNT) is held


def test_a_time_its_words_name_answers_when_not_how_many() -> None:
    for text in ("My father had knee surgery last year.", "去年我爸做了膝盖手术。"):
        assert holds(make_record(1, content=text), TIME)
        assert not holds(make_record(1, content=text), AMOUNT)


@pytest.mark.parametrize(("question", "text", "held"), [
    ("When is the kiln firing?", "The kiln firing is next month.", True),
    ("Which day is the kiln firing?", "The kiln firing is next month.", False),
    ("Which day is the kiln firing?", "The kiln firing is next Tuesday.", True),
    ("Which month is the kiln firing?", "The kiln firing is next week.", True),
    ("What year is the kiln firing?", "The kiln firing is next month.", True),
    ("窑什么时候开烧？", "下个月开窑。", True),
    ("窑哪天开烧？", "下个月开窑。", False),
    ("窑哪天开烧？", "明天开窑。", True),
    ("几月开窑？", "明年开窑。", False),
])
def test_a_time_named_more_coarsely_than_asked_does_not_answer(question: str, text: str,
                                                               held: bool) -> None:
    """"next month" answers "when", not "which day" (recall/asked.py ``precision``)."""
    record = make_record(1, content=text)
    assert holds(record, TIME, precision(question)) is held


def test_an_episode_answers_by_its_own_time() -> None:
    assert holds(make_record(1, content=EPISODE, kind=Kind.EVENT), TIME)
    assert not holds(make_record(2, content="Caroline went to a support group."), TIME)
    assert holds(make_record(3, content="Caroline went to a support group.",  # from a chat
                             metadata={"source_events": ["e1"]}), AMOUNT)


@pytest.mark.parametrize("question", [
    "When does my passport expire?",
    "How old is my brother Anton?",
    "我妈妈退休金有多少？",
    "路由器密码是什么时候改的？",
])
def test_the_topic_stored_but_not_the_time_or_amount_asked(life: Any, question: str) -> None:
    hits = life.recall(question, k=3, track=False)
    assert hits.abstained and not hits, [(h.score, h.memory.content) for h in hits]
    assert "nothing in memory answers this" in hits.note and "as the question asks" in hits.note
    scored = life.recall(question, k=3, track=False, relevance_floor=0)
    assert scored and all(h.score <= UNANSWERED for h in scored)
    assert scored[0].explanation.terms["unanswered"] == 1.0
    assert any("holds no" in note for note in scored[0].explanation.notes)


@pytest.mark.parametrize(("question", "answer"), [
    ("When is the boiler service?", "March 3"),
    ("How many lengths do I swim on Sundays?", "40 lengths"),
    ("我什么时候上日语网课？", "每周三晚上"),
    ("When did I hike the Sintra trail?", "Sintra"),   # an episode: its own time answers
])
def test_a_memory_holding_it_answers(life: Any, question: str, answer: str) -> None:
    hits = life.recall(question, k=3, track=False)
    assert hits and answer in hits[0].memory.content, [h.memory.content for h in hits]
    assert "unanswered" not in hits[0].explanation.terms


@pytest.mark.parametrize(("question", "answer"), [
    ("Which antibiotic must the doctor avoid when I get an infection?", "penicillin"),
    ("Who runs the rota when I'm on the ward?", "Priya"),
])
def test_a_question_with_a_when_clause_is_answered(english: Any, question: str,
                                                   answer: str) -> None:
    hits = english.recall(question, k=3, track=False)
    assert hits and answer in hits[0].memory.content, (hits.note, [h.memory.content
                                                                   for h in hits])
    assert "unanswered" not in hits[0].explanation.terms


def test_the_names_a_question_says() -> None:
    assert names("Do I have any cousins in Vancouver?") == ["Vancouver"]
    assert names("What did Anton say on March 3?") == ["Anton"]     # a date is no name
    assert names("Kevin 住在哪里？") == ["Kevin"]
    assert names("我平时爱喝什么饮料？") == []   # jieba's proper-noun tags are not read
    # "I'm" is "I am"; a word in lower case only is no name, hyphenated or not
    assert names("What's my non-negotiable rule when I'm at work?") == []
    assert names("Is Coca-Cola still sold at pg-main-a?") == ["Coca-Cola"]


@pytest.mark.parametrize(("scope", "question"), [
    ("english", "Do I have any cousins in Vancouver?"),
    ("english", "What did Dr. Okafor prescribe?"),
    ("chinese", "Kevin 住在哪里？"),
])
def test_a_question_naming_only_what_no_memory_holds(request: Any, scope: str,
                                                     question: str) -> None:
    mem = request.getfixturevalue(scope)
    hits = mem.recall(question, k=3, track=False)
    assert hits.abstained and not hits, [(h.score, h.memory.content) for h in hits]
    assert "which no memory holds" in hits.note
    scored = mem.recall(question, k=3, track=False, relevance_floor=0)
    assert scored and all(h.score <= UNANSWERED for h in scored)


@pytest.mark.parametrize(("scope", "question", "answer"), [
    ("english", "What does Anton do in Gdansk?", "repairs boats"),   # one name held
    ("english", "Where does Maud teach?", "yoga in the park"),
    ("chinese", "我弟弟在哪个城市工作？", "杭州"),
    # no name at all: "long-term" was read as a name no memory holds, and the question declined
    ("english", "Which medicine am I allergic to, long-term?", "penicillin"),
    ("english", "Where do I keep my travel documents, the hard-copy ones?", "passport"),
])
def test_a_question_naming_something_held_is_answered(request: Any, scope: str,
                                                      question: str, answer: str) -> None:
    hits = request.getfixturevalue(scope).recall(question, k=3, track=False)
    assert hits and answer in hits[0].memory.content, [h.memory.content for h in hits]


def test_in_a_scope_of_both_languages_an_unheld_name_is_not_read(life: Any) -> None:
    """A name may be written in the other script there (Amsterdam, 阿姆斯特丹)."""
    hits = life.recall("Do I have any cousins in Vancouver?", k=3, track=False,
                       relevance_floor=0)
    assert all("which no memory holds" not in " ".join(h.explanation.notes) for h in hits)

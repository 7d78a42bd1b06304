"""A question about the world, not the asker's life (recall/worldly.py): a memory that shares
its topic does not answer it, so recall abstains and says why; a question about the asker's own
life on the same topics is answered. English and Chinese, the default embedder, personal stores
of 20 memories or more (tests/life_store.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import engramdb
import engramdb.recall.pipeline as pipeline
from engramdb import Draft
from engramdb.embed.shipped import load
from engramdb.recall.worldly import (
    CUES,
    CUES_SHIPPED,
    SHIPPED,
    TEXTS,
    WAKES_NOT,
    WORLDLY,
    book_for,
    cues,
    questions,
)
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from life_store import CHINESE, ENGLISH

NOTE = "the question asks about the world, not about what the memories hold"



def _store(tmp: Any, model: Any, texts: list[str]) -> Any:
    mem = engramdb.open(tmp / "m.db", embedder=model,
                        clock=FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC)))
    mem.remember_many([Draft(text, kind="fact") for text in texts])
    return mem


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory, model: Any) -> Any:
    with _store(tmp_path_factory.mktemp("en"), model, ENGLISH) as mem:
        yield mem


@pytest.fixture(scope="module")
def chinese(tmp_path_factory: pytest.TempPathFactory, model: Any) -> Any:
    with _store(tmp_path_factory.mktemp("zh"), model, CHINESE) as mem:
        yield mem


# each shares a word with a memory ("I'm allergic to penicillin", 我的车是一辆白色的丰田卡罗拉)
WORLD = [("english", "What is penicillin made from?"),
         ("english", "What's the population of Gdansk?"),
         ("chinese", "丰田是哪个国家的公司？"),
         ("chinese", "豆浆怎么做才不糊？")]
OWN = [("english", "What does my brother do for work?", "Anton repairs boats"),
       ("english", "Where do I keep my passport?", "grey folder"),
       ("chinese", "我周五晚上打什么球？", "羽毛球"),
       ("chinese", "我弟弟在哪里工作？", "杭州")]


@pytest.mark.parametrize(("store", "question"), WORLD)
def test_a_question_about_the_world_is_not_answered_by_a_memory_of_its_topic(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, store: str,
        question: str) -> None:
    mem = request.getfixturevalue(store)
    hits = mem.recall(question, k=3, track=False)
    assert hits.abstained and not hits
    monkeypatch.setattr(pipeline, "WORLDLY", False)  # without the reading, a memory answers
    below = mem.recall(question, k=3, track=False, relevance_floor=0.0)
    assert not mem.recall(question, k=3, track=False).abstained
    monkeypatch.setattr(pipeline, "WORLDLY", True)
    judged = mem.recall(question, k=3, track=False, relevance_floor=0.0)
    assert [h.memory.id for h in judged] == [h.memory.id for h in below]  # ranked alike
    assert all(h.explanation.terms.get("unanswered") == 1.0 for h in judged)
    assert NOTE in judged[0].explanation.notes


@pytest.mark.parametrize(("store", "question", "answer"), OWN)
def test_a_question_about_the_askers_life_is_answered(request: pytest.FixtureRequest,
                                                     store: str, question: str,
                                                     answer: str) -> None:
    hits = request.getfixturevalue(store).recall(question, k=3, track=False)
    assert not hits.abstained and answer in hits[0].memory.content


def test_a_memory_holding_every_word_of_the_question_still_answers(tmp_path: Any,
                                                                   model: Any) -> None:
    """A how-to the user stored answers the how-to question, however worldly it reads."""
    with _store(tmp_path, model, CHINESE) as mem:
        mem.remember("红烧肉的做法：五花肉焯水，冰糖炒色，加酱油小火炖一小时。", kind="procedure")
        hits = mem.recall("红烧肉怎么做？", k=3, track=False)
        assert not hits.abstained and any("五花肉" in h.memory.content for h in hits)


def test_world_questions_stand_above_the_askers_own(model: Any) -> None:
    book = book_for(model)
    assert book is not None and set(book.axes) == {"en", "zh"}
    for lang, text in questions()[::10]:
        assert book.standing(model.embed_batch([text], query=True)[0], lang) > 1.0, text
    for lang, text in (("en", "When is my dentist appointment?"), ("zh", "我女儿几岁了？")):
        assert book.standing(model.embed_batch([text], query=True)[0], lang) < WORLDLY


@pytest.mark.parametrize(("shipped", "source", "read"),
                         [(SHIPPED, TEXTS, questions), (CUES_SHIPPED, CUES, cues)])
def test_the_default_embedders_vectors_of_the_questions_ship(
        model: Any, shipped: str, source: str, read: Any) -> None:
    """tools/shipped_vectors.py wrote them (run it again after editing
    data/world_questions.txt or data/episode_cues.txt)."""
    vectors = load(shipped, source, model.model_id)
    assert vectors is not None, "texts changed: run tools/shipped_vectors.py"
    texts = [text for _, text in read()]
    assert vectors.shape == (len(texts), model.dimensions)
    assert np.allclose(vectors[:3], model.embed_batch(texts[:3], query=True), atol=2e-3)


def test_the_episode_cues_stand_below_the_world_questions(model: Any) -> None:
    """Along the second direction (from the cues of one's own episodes to the world's
    questions) the cues' mean is its zero, the world's questions stand far above it, and
    a cue asked as a question about one's own episode stands below WAKES_NOT."""
    book = book_for(model)
    assert book is not None
    for lang in ("en", "zh"):
        mine = [text for one, text in cues() if one == lang]
        world = [text for one, text in questions() if one == lang]
        told = [book.episodes.standing(v, lang) for v in model.embed_batch(mine, query=True)]
        asked = [book.episodes.standing(v, lang) for v in model.embed_batch(world, query=True)]
        assert abs(np.mean(told)) < 0.05 and np.mean(asked) > 3.0
    for lang, text in (("en", "Do you remember when our boat's engine died off Skye?"),
                       ("zh", "还记得我们在青岛赶海被潮水困住那回吗？")):
        vector = model.embed_batch([text], query=True)[0]
        assert book.episodes.standing(vector, lang) < WAKES_NOT
        assert not book.wakes_nothing(vector, lang)


def test_an_embedder_without_meaning_reads_no_world_question() -> None:
    assert book_for(make_embedder("hashing")) is None

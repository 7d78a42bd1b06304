"""A question in Chinese read by both models of the default embedder (recall/pipeline.py
``_bank_standings``; recall/questionbank.py ``main_bank_for``): USE searches it, and
multilingual-e5, the main model, reads it too, so a memory in Chinese stands at the mean of the
two models' standings against the question bank, rescaled to one model's spread by chance. An
English question, which e5 searches already, is read by e5 alone."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import Draft
from engramdb.embed.shipped import load
from engramdb.embed.use import USEEmbedder
from engramdb.recall.background import chance
from engramdb.recall.questionbank import (
    MAIN_SHIPPED,
    TEXTS,
    bank_for,
    main_bank_for,
    questions,
)
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from life_store import CHINESE, ENGLISH


def test_the_main_models_bank_vectors_ship_and_match_a_fresh_embedding(model: Any) -> None:
    """tools/shipped_vectors.py wrote them: every question, English or Chinese, in the main
    model's half alone (run it again after editing data/question_bank.txt)."""
    vectors = load(MAIN_SHIPPED, TEXTS, model.model_id)
    assert vectors is not None, "the bank changed: run tools/shipped_vectors.py"
    texts = [text for _, text in questions()]
    assert vectors.shape == (len(texts), model.dimensions)
    half = model.main.dimensions
    assert not vectors[:, half:].any()
    picks = [0, len(texts) // 2, len(texts) - 1]   # English, Chinese, Chinese
    fresh = np.stack([model.embed_main(texts[i]) for i in picks])
    assert np.all(np.sum(fresh * vectors[picks], axis=1) > 0.999)


def test_the_main_model_embeds_a_batch_as_it_embeds_each_text(model: Any) -> None:
    """``embed_main_batch`` (the bank's questions when no shipped vectors match) gives each
    text's ``embed_main``: the main model's half, the other half zero."""
    texts = ["Where do I live now?", "我现在住在哪里？"]
    batch = model.embed_main_batch(texts)
    assert batch.shape == (2, model.dimensions)
    assert not batch[:, model.main.dimensions:].any()
    for row, text in zip(batch, texts, strict=True):
        assert float(np.dot(row, model.embed_main(text))) > 0.999


def test_only_a_routed_embedder_with_meaning_has_a_second_bank() -> None:
    assert main_bank_for(make_embedder("hashing")) is None
    assert main_bank_for(USEEmbedder(threads=1)) is None


def test_two_models_spread_by_chance_less_than_one(model: Any) -> None:
    """The mean of two standard normals that correlate by r spreads by sqrt((1 + r) / 2)."""
    own, main = bank_for(model), main_bank_for(model)
    assert own is not None and main is not None
    spread = own.mean_spread(main, "zh")
    assert 0.75 < spread < 0.95   # the two models agree on the Chinese questions' pairs
    assert own.mean_spread(own, "zh") == pytest.approx(1.0)


def recalled(model: Any, texts: list[str], question: str, tmp: Any) -> dict[str, float]:
    """Each hit's standing as the explanation says it, with the chance level added back."""
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(tmp / "m.db", embedder=model, clock=clock) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in texts])
        hits = mem.recall(question, k=20, relevance_floor=0.0)
    base = chance(len(texts))
    return {h.memory.content: h.explanation.terms["standing"] + base for h in hits
            if "standing" in h.explanation.terms}


def standings(model: Any, bank: Any, question: str, texts: list[str],
              vector: np.ndarray) -> dict[str, float]:
    vectors = model.embed_batch(texts)
    return bank.standings(question, vector, {t: vectors[i] for i, t in enumerate(texts)})


def test_a_chinese_question_stands_a_memory_at_the_mean_of_both_models(
        model: Any, tmp_path: Any) -> None:
    question = "我周末一般做什么运动？"
    own, main = bank_for(model), main_bank_for(model)
    assert own is not None and main is not None
    by_use = standings(model, own, question, CHINESE,
                       model.embed_batch([question], query=True)[0])
    by_e5 = standings(model, main, question, CHINESE, model.embed_main(question))
    spread = own.mean_spread(main, "zh")
    got = recalled(model, CHINESE, question, tmp_path)
    assert len(got) >= 10
    for text, stood in got.items():
        assert stood == pytest.approx((by_use[text] + by_e5[text]) / 2 / spread, abs=2e-3)
    assert max(got, key=got.__getitem__) == "我周末喜欢去公园跑步。"


def test_an_english_question_is_read_by_its_own_model_alone(model: Any, tmp_path: Any) -> None:
    question = "What does my brother do for work?"
    own = bank_for(model)
    assert own is not None
    by_e5 = standings(model, own, question, ENGLISH,
                      model.embed_batch([question], query=True)[0])
    got = recalled(model, ENGLISH, question, tmp_path)
    assert len(got) >= 10
    for text, stood in got.items():
        assert stood == pytest.approx(by_e5[text], abs=2e-3)
    assert max(got, key=got.__getitem__) == "My brother Anton repairs boats in Gdansk."


def test_a_chinese_question_asked_again_is_not_read_by_the_main_model_again(
        model: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The main model's query vectors are remembered like the question's own
    (embed/querycache.py): an agent that asks twice pays e5 once."""
    asked: list[str] = []
    main = model.embed_main

    def counted(text: str) -> np.ndarray:
        asked.append(text)
        return main(text)

    monkeypatch.setattr(model, "embed_main", counted)
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(tmp_path / "m.db", embedder=model, clock=clock) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in CHINESE])
        first = mem.recall("我家的猫叫什么？", k=3)
        again = mem.recall("我家的猫叫什么？", k=3)
        mem.recall("What is my cat called?", k=3)
    assert asked == ["我家的猫叫什么？"]
    assert [h.memory.id for h in first] == [h.memory.id for h in again]
    assert first[0].memory.content == "我们家的猫叫年糕，是只橘猫。"

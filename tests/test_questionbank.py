"""A hit's standing against typical questions (recall/questionbank.py), and the library's
default relevance floor it makes possible: English and Chinese, with the default embedder.

The default model's vectors of the bank ship with the package (data/question_bank.npz);
another model's are embedded once per process."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import Draft
from engramdb.embed.shipped import PerModel, load
from engramdb.recall import questionbank
from engramdb.recall.questionbank import SHIPPED, TEXTS, QuestionBank, bank_for, questions
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from life_store import LIFE


@pytest.fixture(scope="module")
def life(model: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    with engramdb.open(tmp_path_factory.mktemp("bank") / "m.db", embedder=model,
                       clock=clock) as mem:
        mem.remember_many([Draft(text, kind="fact") for text in LIFE])
        yield mem


def test_the_bank_holds_typical_questions_in_both_languages() -> None:
    known = questions()
    assert len(set(known)) == len(known)
    assert sum(lang == "en" for lang, _ in known) == 200
    assert sum(lang == "zh" for lang, _ in known) == 200
    assert all(any("\u4e00" <= c <= "\u9fff" for c in text) for lang, text in known
               if lang == "zh")


def test_the_default_models_bank_vectors_ship_and_match_a_fresh_embedding(model: Any) -> None:
    """tools/shipped_vectors.py wrote them for this bank and this model (run it again after
    editing data/question_bank.txt); a few embedded again as queries agree with them."""
    vectors = load(SHIPPED, TEXTS, model.model_id)
    assert vectors is not None, "the bank changed: run tools/shipped_vectors.py"
    texts = [text for _, text in questions()]
    assert vectors.shape == (len(texts), model.dimensions)
    picks = [0, 1, len(texts) // 2, len(texts) - 1]
    fresh = model.embed_batch([texts[i] for i in picks], query=True)
    assert np.all(np.sum(fresh * vectors[picks], axis=1) > 0.999)
    assert load(SHIPPED, TEXTS, "another-model") is None


class Counting:
    """A model under another name, counting the texts it embeds."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dimensions = inner, "another model", inner.dimensions
        self.texts = 0

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        self.texts += len(texts)
        return self.inner.embed_batch(texts, query=query)


def test_another_model_embeds_the_bank_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from engramdb.embed.use import USEEmbedder

    monkeypatch.setattr(questionbank, "_BANKS", PerModel())
    counting = Counting(USEEmbedder(threads=1))   # one of the default's two models: cheaper
    bank = bank_for(counting)
    assert bank is not None and counting.texts == len(questions())
    assert bank_for(counting) is bank and counting.texts == len(questions())


def test_words_without_meaning_have_no_bank() -> None:
    assert bank_for(make_embedder("hashing")) is None


@pytest.mark.parametrize(("question", "answer"), [
    ("What medicine does our pet need?", "Our cat Biscuit"),
    ("妈妈以前是做什么工作的？", "我妈妈住在苏州"),
])
def test_a_memory_stands_out_for_the_question_it_answers(model: Any, question: str,
                                                         answer: str) -> None:
    bank = bank_for(model)
    assert bank is not None
    vectors = model.embed_batch(LIFE)
    memories = {text: vectors[i] for i, text in enumerate(LIFE)}
    asked = model.embed_batch([question], query=True)[0]
    standings = bank.standings(question, asked, memories)
    best = max(standings, key=standings.__getitem__)
    assert best.startswith(answer)
    assert standings[best] > 3.0   # well above the best of 24 memories by chance (~2.0)
    unrelated = "How many moons does Jupiter have?"
    other = bank.standings(unrelated, model.embed_batch([unrelated], query=True)[0], memories)
    assert other[best] < standings[best] - 2.0


def test_a_memorys_statistics_against_the_bank_are_computed_once(model: Any) -> None:
    """A recall reads its hits' standings from their vectors' kept mean and spread: the same
    numbers as a bank that computes them afresh, in both languages."""
    vectors = model.embed_batch(LIFE)
    memories = {text: vectors[i] for i, text in enumerate(LIFE)}
    bank = model.embed_batch([q for _, q in questions()], query=True)
    for question in ("Where does my brother work?", "我妈妈以前做什么工作？"):
        asked = model.embed_batch([question], query=True)[0]
        fresh = QuestionBank(bank, [lang for lang, _ in questions()])
        first = fresh.standings(question, asked, memories)
        kept = sum(len(means) for means in fresh._means.values())
        assert kept == len(LIFE)   # one entry a vector, in the question's language
        again = fresh.standings(question, asked, dict(list(memories.items())[:5]))
        assert sum(len(means) for means in fresh._means.values()) == kept
        assert all(abs(again[text] - first[text]) < 1e-5 for text in again)


@pytest.mark.parametrize("question", [
    "Who won the Tour de France in 1998?",
    "How do I convert a PDF to a Word document?",
    "地球到太阳有多远？",
    "唐朝是哪一年建立的？",
])
def test_the_library_abstains_by_default_on_what_no_memory_is_about(life: Any,
                                                                     question: str) -> None:
    hits = life.recall(question)
    assert hits.abstained and list(hits) == []
    assert "nothing in memory is about this" in hits.note


@pytest.mark.parametrize(("question", "answer"), [
    ("Which hospital do I work at?", "St. Brennan's"),
    ("What pills does the cat take?", "thyroid"),
    ("我几号上日语课？", "日语"),
    ("我老公做什么工作？", "风控"),
])
def test_the_library_answers_what_a_memory_is_about(life: Any, question: str,
                                                    answer: str) -> None:
    hits = life.recall(question, k=3)
    assert not hits.abstained and any(answer in h.memory.content for h in hits)
    top = next(h for h in hits if answer in h.memory.content)
    assert top.score >= 0.25 and "standing" in top.explanation.terms

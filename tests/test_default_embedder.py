"""The bundled default model, for real: offline, routed by the question's language, and
finding English and Chinese memories from paraphrased questions in both languages."""

from __future__ import annotations

import numpy as np
import pytest

import engramdb
from engramdb.registry import make_embedder

FACTS = [
    ("I am allergic to peanuts", "我对花生过敏"),
    ("My daughter starts primary school in September", "我女儿九月开始上小学"),
    ("We are moving to Berlin next spring", "我们明年春天搬到柏林"),
    ("I play the cello in a community orchestra", "我在一个社区乐团拉大提琴"),
]
DISTRACTORS = [
    "The printer on the third floor is out of toner", "我昨天看了一部很长的电影",
    "Our team standup moved to 10 am", "周末天气不错，适合散步",
]
QUESTIONS = [
    ("Which food could give me an allergic reaction?", "我吃什么东西会过敏？"),
    ("When does my kid begin school?", "我的孩子什么时候上学？"),
    ("Which city are we relocating to?", "我们要搬去哪个城市？"),
    ("What instrument do I play?", "我演奏什么乐器？"),
]


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return make_embedder("default")


def test_the_default_model_is_offline_and_unit_length(model, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = model.embed_batch(["hello", "你好"])
    assert vectors.shape == (2, model.dimensions)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert "e5" in model.model_id and "use" in model.model_id


@pytest.mark.parametrize("stored", ["en", "zh"])
@pytest.mark.parametrize("asked", ["en", "zh"])
def test_paraphrased_questions_find_memories_across_languages(model, stored, asked):  # type: ignore[no-untyped-def]
    with engramdb.open(":memory:", embedder=model) as mem:
        texts = [en if stored == "en" else zh for en, zh in FACTS]
        ids = [r.memory.id for r in mem.remember_many([engramdb.Draft(t) for t in texts])]
        mem.remember_many([engramdb.Draft(t) for t in DISTRACTORS])
        for gold, (q_en, q_zh) in zip(ids, QUESTIONS, strict=True):
            hits = mem.recall(q_en if asked == "en" else q_zh, k=1, track=False)
            assert gold in [h.memory.id for h in hits], (stored, asked, q_en)

"""The re-ranker reads meaning as well as words (recall/rerank.py): in a small personal store the
memory that answers by meaning is lifted like one holding the question's words, over memories
that share only an incidental word with it (the pet's name in every memory about the pet).
English and Chinese, the default embedder, real SQLite files."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Draft
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock
from engramdb.text import is_cjk
from life_store import LIFE

LIFE_EN = [
    "Biscuit had two molars pulled at the Elm Road clinic; she's on soft food for a week.",
    "Biscuit sleeps on the radiator shelf all afternoon.",
    "Biscuit eats Orijen kibble twice a day.",
    "We adopted Biscuit from the shelter in 2021.",
    "Biscuit hates the car and cries the whole way.",
    "My dentist is Dr. Feld on Bloor Street.",
    "Our plumber found old lead pipes under the kitchen sink.",
    *(text for text in LIFE if not is_cjk(text)),
]
LIFE_ZH = [
    "芝麻上周拔了两颗坏掉的牙，这几天只能吃湿粮。",
    "芝麻每天下午在阳台上晒太阳。",
    "芝麻吃的是渴望的猫粮，一天两顿。",
    "芝麻是前年从救助站领养的。",
    "芝麻坐车的时候会一直叫。",
    "我开一辆白色的比亚迪宋。",
    "周末我喜欢去望江楼公园散步。",
    "我的牙医是华西口腔的刘医生。",
    "我在成都七中教初二语文。",
    "房贷每个月还六千二。",
    "我弟弟在北京读博，研究机器人。",
    "家里的热水器下个月要换。",
    "我每周二和周四晚上去游泳。",
    "我最喜欢的作家是汪曾祺。",
    *(text for text in LIFE if is_cjk(text)),
]



def opened(path: Path, model: Any, lines: list[str]) -> Any:
    clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    mem = engramdb.open(path, embedder=model, clock=clock)
    mem.remember_many([Draft(text, kind="fact") for text in lines])
    return mem


@pytest.mark.parametrize(("lines", "question", "answer"), [
    (LIFE_EN, "How did Biscuit's dental appointment go?", LIFE_EN[0]),
    (LIFE_ZH, "芝麻看牙医的情况怎么样？", LIFE_ZH[0]),
])
def test_the_memory_that_answers_by_meaning_outranks_ones_sharing_the_name(
        model: Any, tmp_path: Path, lines: list[str], question: str, answer: str) -> None:
    with opened(tmp_path / "m.db", model, lines) as mem:
        hits = mem.recall(question, k=3, track=False)
        found = {h.memory.content: h for h in hits}
        assert answer in found, [h.memory.content for h in hits]
        # the pet's name is in five memories: words alone cannot tell them apart
        same_name = [h for h in hits if h.memory.content != answer
                     and h.memory.content in lines[1:5]]
        got = found[answer].explanation.terms
        assert got["meaning"] > got["coverage"]
        assert all(got["rerank_factor"] > h.explanation.terms["rerank_factor"]
                   for h in same_name)


def test_a_scope_of_a_few_memories_is_ranked_by_words_alone(model: Any,
                                                            tmp_path: Path) -> None:
    """Under 20 memories nothing can stand out from a background: no meaning is read."""
    with opened(tmp_path / "m.db", model, LIFE_EN[:5] + LIFE_ZH[:5]) as mem:
        for question in ("How did Biscuit's dental appointment go?", "芝麻看牙医的情况怎么样？"):
            hits = mem.recall(question, k=3, track=False)
            assert hits and all("meaning" not in h.explanation.terms for h in hits)
            assert all("coverage" in h.explanation.terms for h in hits)


def test_hashed_words_read_no_meaning(tmp_path: Path) -> None:
    with opened(tmp_path / "m.db", make_embedder("hashing"), LIFE_EN + LIFE_ZH) as mem:
        for question in ("How did Biscuit's dental appointment go?", "芝麻看牙医的情况怎么样？"):
            hits = mem.recall(question, k=3, track=False, relevance_floor=0)
            assert hits and all("meaning" not in h.explanation.terms for h in hits)

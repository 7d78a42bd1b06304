"""A long memory's passages, each its own vector (store/passages.py, postgres/passages.py): the
dense search scores a long memory by its best passage, so a detail deep inside it is found
where its pooled vector alone loses to short memories. The passages follow the memory through
update, forget (soft, hard), forget_scope, export/import, snapshot/restore and deferred
vectors. On SQLite and PostgreSQL, with the hashing embedder (deterministic)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engramdb
from engramdb import Invalid
from engramdb.embed.hashing import HashingEmbedder
from engramdb.model import Layer
from engramdb.text.passages import passages

BACKENDS = ("sqlite", "postgres")

FILLER_EN = ["The weekly report covered sales in the northern region.",
             "Our team reviewed the budget for the next quarter.",
             "Several invoices were delayed because of the holiday.",
             "The server logs showed normal traffic all week.",
             "We discussed hiring plans with the recruiting partner.",
             "Marketing wants a new landing page before the launch."]
FILLER_ZH = ["周报总结了北方区域的销售情况。", "团队评审了下个季度的预算。",
             "几张发票因为假期延迟了。", "服务器日志显示这周流量正常。",
             "我们和招聘伙伴讨论了招人计划。", "市场部希望发布前做好新的落地页。"]
CASES = [  # (filler, detail, question, distractors sharing some of the question's words)
    (FILLER_EN, "The spare key for the boathouse is taped under the third drawer of the walnut "
     "desk.", "where is the spare boathouse key taped",
     ["I keep my desk drawer tidy.", "The key to success is patience.",
      "We taped the poster to the wall.", "The boathouse needs new paint."]),
    (FILLER_ZH, "船屋的备用钥匙用胶带贴在胡桃木书桌第三个抽屉下面。", "船屋备用钥匙贴在哪里",
     ["我的书桌抽屉很整齐。", "成功的钥匙是耐心。", "我们把海报贴在墙上。", "船屋需要重新刷漆。"]),
]


@pytest.fixture
def target(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> str:
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "memory.db")


def opened(target: str, clock: Any, embed: str = "sync") -> Any:
    return engramdb.open(target, embedder=HashingEmbedder(), clock=clock, embed=embed)


def long_text(filler: list[str], detail: str, seed: int) -> str:
    rng = random.Random(seed)
    sep = "" if filler is FILLER_ZH else " "
    body = [rng.choice(filler) for _ in range(70)]
    body.insert(52, detail)   # in the later half
    return sep.join(body)


def ranked(mem: Any, question: str, preset: str | None = "dense") -> list[str]:
    return [h.memory.id for h in mem.recall(question, k=5, preset=preset, track=False)]


def dense_score(mem: Any, question: str, memory_id: str) -> float:
    query = mem.embedder.embed_batch([question], query=True)[0]
    found = dict(mem.store.search_vector(mem.default_scope, query, 10, list(Layer)))
    return found.get(memory_id, -1.0)


def stored_parts(mem: Any, memory_id: str) -> np.ndarray | None:
    return mem.store.passages(mem.default_scope, [memory_id]).get(memory_id)


@pytest.mark.parametrize("case", CASES, ids=["en", "zh"])
def test_a_detail_deep_in_a_long_memory_is_found(target: str, clock: Any,
                                                 case: tuple[Any, ...]) -> None:
    filler, detail, question, distractors = case
    text = long_text(filler, detail, 1)
    model = HashingEmbedder()
    with opened(target, clock) as mem:
        long = mem.remember(text, kind="event").memory
        for other in distractors:
            mem.remember(other, kind="fact")
        parts = stored_parts(mem, long.id)
        assert parts is not None and np.allclose(parts, model.embed_batch(passages(text)))
        # the pooled vector alone ranks the long memory under the short ones ...
        query = model.embed_batch([question], query=True)[0]
        pooled = mem.store.vectors(mem.default_scope, [long.id])[long.id]
        rivals = [model.embed_batch([d])[0] @ query for d in distractors]
        assert float(pooled @ query) < max(rivals)
        # ... its best passage puts it first
        assert ranked(mem, question)[0] == long.id
        assert ranked(mem, question, None)[0] == long.id
        assert stored_parts(mem, mem.remember(distractors[0] + " Again.",
                                              kind="fact").memory.id) is None


def test_update_forget_and_forget_scope(target: str, clock: Any) -> None:
    filler, detail, question, _ = CASES[0]
    with opened(target, clock) as mem:
        long = mem.remember(long_text(filler, detail, 2), kind="event").memory
        other = mem.remember(long_text(FILLER_ZH, CASES[1][1], 3), kind="event").memory
        before, score = stored_parts(mem, long.id), dense_score(mem, question, long.id)
        mem.update(long.id, importance=0.9)                         # no new text: kept
        assert np.array_equal(stored_parts(mem, long.id), before)
        new_text = long_text(filler, "The canoe paddles hang in the shed.", 4)
        mem.update(long.id, content=new_text)                       # re-embedded
        assert np.allclose(stored_parts(mem, long.id),
                           HashingEmbedder().embed_batch(passages(new_text)))
        assert dense_score(mem, question, long.id) < score - 0.1     # the detail is gone
        mem.update(long.id, content="Short now.")                   # one passage: none kept
        assert stored_parts(mem, long.id) is None
        mem.update(long.id, content=long_text(filler, detail, 2))
        mem.forget(long.id)                                         # soft: kept, not found
        assert stored_parts(mem, long.id) is not None
        assert long.id not in ranked(mem, question)
        mem.restore(long.id)
        assert ranked(mem, question)[0] == long.id
        mem.forget(long.id, hard=True)                              # hard: gone
        assert stored_parts(mem, long.id) is None
        assert long.id not in ranked(mem, question)
        assert stored_parts(mem, other.id) is not None
        mem.forget_scope()
        assert mem.store.passages(mem.default_scope, [long.id, other.id]) == {}


def test_export_import_snapshot_restore(target: str, clock: Any, tmp_path: Path) -> None:
    filler, detail, question, _ = CASES[1]
    with opened(target, clock) as mem:
        long = mem.remember(long_text(filler, detail, 5), kind="event").memory
        before = stored_parts(mem, long.id)
        exported = io.StringIO()
        mem.export(exported)
        snap = tmp_path / "snap.jsonl"
        mem.snapshot(snap)
        mem.forget_scope()
        mem.restore_snapshot(snap)
        assert np.array_equal(stored_parts(mem, long.id), before)
        assert ranked(mem, question)[0] == long.id
    lines = [json.loads(line) for line in exported.getvalue().splitlines()]
    assert len(next(x for x in lines if x["type"] == "memory")["passages"]) == len(before)
    with engramdb.open(str(tmp_path / "copy.db"), embedder=HashingEmbedder(),
                       clock=clock) as copy:
        copy.import_(io.StringIO(exported.getvalue()))
        assert np.array_equal(stored_parts(copy, long.id), before)
        assert ranked(copy, question)[0] == long.id
        bad = [dict(x, passages=["not base64!"]) if x["type"] == "memory" else x for x in lines]
        with pytest.raises(Invalid, match="bad passages"):
            copy.import_(io.StringIO("\n".join(json.dumps(x) for x in bad)))


def test_deferred_vectors_bring_their_passages(target: str, clock: Any) -> None:
    filler, detail, question, _ = CASES[0]
    with opened(target, clock, embed="deferred") as mem:
        mem._later.close()   # the worker stays idle: flush() computes them on this thread
        long = mem.remember(long_text(filler, detail, 6), kind="event").memory
        assert stored_parts(mem, long.id) is None
        mem.flush()
        assert stored_parts(mem, long.id) is not None
        assert ranked(mem, question)[0] == long.id

"""Long memory texts cut into passages for the embedder (text/passages.py) and pooled into the
memory's one vector (embed/pooled.py): the splitting in English, Chinese and text with no
boundary; short texts keep exactly the vector the embedder gives them; every write path that
embeds a memory's text (remember, update, deferred vectors, import) pools the same way."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import numpy as np
import pytest

import engramdb
from engramdb import Config
from engramdb.embed.hashing import HashingEmbedder
from engramdb.embed.pooled import embed_passages, mean_unit
from engramdb.embed.routed import RoutedEmbedder
from engramdb.model import Scope
from engramdb.text.passages import LIMIT, passages, units

EN_SENTENCES = [
    "The staging cluster ran out of disk at noon.", "Maya moved the backups to cold storage!",
    "Did anyone check the rotation policy?", "We agreed to keep thirty days of logs; older "
    "ones go to the archive.", "Jonas wrote the runbook for the failover drill.",
    "Nobody remembered the password for the old router.", "The invoice batch failed twice.",
]
ZH_SENTENCES = ["周一上午测试环境的磁盘满了。", "王芳把备份挪到了冷存储！",
                "有人检查过轮换策略吗？",
                "我们约定日志保留三十天；更早的归档。", "张伟写好了故障切换演练的手册。",
                "没人记得旧路由器的密码。", "发票批处理失败了两次。"]


def _text(sentences: list[str], n: int, seed: int, sep: str) -> str:
    rng = random.Random(seed)
    return sep.join(rng.choice(sentences) for _ in range(n))


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _check_cover(text: str, parts: list[str], limit: int = LIMIT) -> None:
    assert len(parts) > 1
    assert all(p and p == p.strip() and units(p) <= limit for p in parts)
    assert _squash("".join(parts)) == _squash(text)   # nothing lost, nothing repeated


def test_short_text_is_one_passage_unchanged() -> None:
    for text in ["  a short note with spaces  \n", "我住在杭州。", "x" * LIMIT, "中" * (LIMIT // 2),
                 "   "]:
        assert passages(text) == [text]


def test_english_cut_on_sentence_ends() -> None:
    text = _text(EN_SENTENCES, 60, 1, " ")
    parts = passages(text)
    _check_cover(text, parts)
    assert all(p[-1] in ".!?;" for p in parts)
    pairs = zip(parts, parts[1:], strict=False)
    assert all(p[0].isupper() or before[-1] == ";" for before, p in pairs)


def test_chinese_cut_on_sentence_ends_and_counts_wider() -> None:
    text = _text(ZH_SENTENCES, 60, 2, "")
    parts = passages(text)
    _check_cover(text, parts)
    assert all(p[-1] in "。！？；" for p in parts)
    assert max(len(p) for p in parts) <= LIMIT * 0.6  # a CJK character counts two units


def test_log_and_code_cut_on_lines() -> None:
    log = "\n".join(f"2024-05-{d % 28 + 1:02d}T10:{d % 60:02d}:00Z INFO [api] request "
                    f"path=/v1/orders/{d * 37} status=200 latency_ms={d * 3}" for d in range(40))
    code = "```python\n" + "\n".join(f"    total_{i} = sum(r.get('amount_{i}', 0) for r in rows)"
                                     for i in range(30)) + "\n```"
    for text in (log, code):
        parts = passages(text)
        _check_cover(text, parts)
        lines = {line.strip() for line in text.splitlines()}
        for part in parts:   # every passage is whole lines
            assert all(line.strip() in lines for line in part.splitlines())


def test_no_boundary_falls_back_to_spaces_then_hard_cuts() -> None:
    words = " ".join(f"token{i}" for i in range(300))           # no sentence end, no line
    parts = passages(words)
    _check_cover(words, parts)
    assert all(re.fullmatch(r"(token\d+ ?)+", p) for p in parts)  # cut between words
    blob = "".join(chr(ord("a") + i % 26) for i in range(1700))  # one run: base64, a hash
    parts = passages(blob)
    assert "".join(parts) == blob and [len(p) for p in parts] == [500, 500, 500, 200]
    han = "的" * 700                                             # Chinese with no stop
    parts = passages(han)
    assert "".join(parts) == han and [len(p) for p in parts] == [250, 250, 200]
    with pytest.raises(ValueError):
        passages("abc", limit=1)


def _store_vector(mem: engramdb.Memory, memory_id: str) -> np.ndarray:
    return mem.store.vectors(mem.default_scope, [memory_id])[memory_id]


def _long(seed: int) -> str:
    return _text(EN_SENTENCES, 50, seed, " ") + "\n" + _text(ZH_SENTENCES, 30, seed, "")


def test_memory_vectors_short_exact_long_pooled(tmp_path: Path) -> None:
    model = HashingEmbedder()
    with engramdb.open(str(tmp_path / "m.db"), embedder=model) as mem:
        short = "Maya moved the backups to cold storage on Friday."
        long = _long(3)
        a = mem.remember(short, kind="fact").memory
        b = mem.remember(long, kind="fact").memory
        got_short, got_long = _store_vector(mem, a.id), _store_vector(mem, b.id)
    assert np.array_equal(got_short, model.embed_batch([short])[0])   # bit for bit
    parts = passages(long)
    expected = mean_unit(model.embed_batch(parts),
                         np.array([units(p) for p in parts], dtype=np.float32))
    assert np.allclose(got_long, expected, atol=1e-6)
    assert not np.allclose(got_long, model.embed_batch([long])[0], atol=1e-3)
    assert abs(float(np.linalg.norm(got_long)) - 1.0) < 1e-5


def test_mixed_batch_keeps_short_vectors_and_one_call_per_kind() -> None:
    calls: list[int] = []

    class Counting(HashingEmbedder):
        def embed_batch(self, texts, *, query=False):  # type: ignore[no-untyped-def]
            calls.append(len(texts))
            return super().embed_batch(texts, query=query)

    model = Counting()
    texts = ["short one", _long(4), "short two", _long(5)]
    got = embed_passages(model, texts)
    n_parts = len(passages(texts[1])) + len(passages(texts[3]))
    assert calls == [2, n_parts]          # the short texts together, the passages together
    assert np.array_equal(got.vectors[0], HashingEmbedder().embed_batch(["short one"])[0])
    assert got.parts[0] is None and got.parts[1] is not None
    assert got.pieces[3] == passages(texts[3])


def test_routed_pool_keeps_each_half_a_unit_model_vector() -> None:
    model = RoutedEmbedder(HashingEmbedder(64), HashingEmbedder(96))
    vector = embed_passages(model, [_long(6)]).vectors[0]
    for half in (vector[:64], vector[64:]):
        assert abs(float(np.linalg.norm(half)) - 1 / np.sqrt(2)) < 1e-5


def test_update_deferred_and_import_pool_alike(tmp_path: Path) -> None:
    model = HashingEmbedder()
    long_a, long_b = _long(7), _long(8)
    with engramdb.open(str(tmp_path / "sync.db"), embedder=model) as mem:
        rec = mem.remember("Short at first.", kind="fact").memory
        mem.update(rec.id, content=long_a)                       # update re-embeds, pooled
        updated = _store_vector(mem, rec.id)
        expected_b = embed_passages(model, [long_b]).vectors[0]
        exported = io.StringIO()
        mem.remember(long_b, kind="fact")
        mem.export(exported)
    assert np.allclose(updated, embed_passages(model, [long_a]).vectors[0], atol=1e-6)
    with engramdb.open(str(tmp_path / "later.db"), embedder=model,
                       config=Config(embed="deferred")) as mem:
        rec = mem.remember(long_b, kind="fact").memory
        mem.flush()
        assert np.allclose(_store_vector(mem, rec.id), expected_b, atol=1e-6)
    other = HashingEmbedder(256)                                 # another model: re-embedded
    with engramdb.open(str(tmp_path / "import.db"), embedder=other) as mem:
        mem.import_(io.StringIO(exported.getvalue()))
        found = [r for r in mem.list() if r.content == long_b]
        vec = mem.store.vectors(Scope(mem.default_scope.user, mem.default_scope.agent),
                                [found[0].id])[found[0].id]
    assert np.allclose(vec, embed_passages(other, [long_b]).vectors[0], atol=1e-6)


def test_memo_of_passages_pops_and_drops_the_oldest_past_its_bound() -> None:
    from engramdb.store.passages import PendingPassages

    memo = PendingPassages(rows=5)
    vecs = [np.full(4, i, dtype=np.float32) for i in range(4)]
    for i, vec in enumerate(vecs):
        memo.add(vec, np.ones((2, 4), dtype=np.float32) * i)   # 8 rows: the oldest two go
    assert memo.take(vecs[0]) is None and memo.take(vecs[1]) is None
    got = memo.take(vecs[3])
    assert got is not None and got.shape == (2, 4) and float(got[0, 0]) == 3.0
    assert memo.take(vecs[3]) is None                           # taken once
    assert memo.take(vecs[2]) is not None

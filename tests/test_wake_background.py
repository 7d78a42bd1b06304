"""Waking by meaning against the scope's own background (recall/background.py): a faded episode,
stored with no anchors, wakes from a paraphrase or the other language, in English and Chinese,
with the default embedder (e5 and USE); a question on something else wakes nothing; a weak wake
is returned and not promoted, a strong one (the episode's words and its meaning) is."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

import engramdb
from engramdb.model import Scope
from engramdb.recall.background import MIN_BACKGROUND, Backgrounds, ModelBackground, mean_spread
from engramdb.recall.wakemeaning import wake_at
from engramdb.testing import FrozenClock
from engramdb.text.lang import EN, ZH

FACTS = ["I work at Acme as an engineer", "My manager asked for the budget slides",
         "The team moved to the new office", "I play five-a-side football on Tuesdays",
         "My sister lives in Leeds", "I prefer tea to coffee", "Our landlord raised the rent",
         "I am reading a novel about whales", "I take the bus to work", "My phone is new",
         "我每天早上跑步", "我喜欢吃辣", "我妹妹在上海读书", "周末常去图书馆", "我在学日语",
         "公司搬到了新大楼", "我对猫毛过敏", "家里的洗衣机是新买的", "我习惯晚上写日记",
         "我们组下个月团建"]
EPISODES = {
    "pipe": "Our kitchen pipe burst at three in the morning and soaked the hallway carpet",
    "trip": "Drove up to the Scottish Highlands with Wang and camped beside a loch for a week",
    "hike": "去年夏天和小王去云南徒步，在玉龙雪山脚下迷路了一整天",
}



@pytest.fixture(scope="module")
def faded(tmp_path_factory, model):  # type: ignore[no-untyped-def]
    """The episodes archived among the facts (the background), in one file; (path, clock,
    the episodes' ids by name, the model). Faded by moving the clock and sleeping."""
    path = tmp_path_factory.mktemp("wb") / "m.db"
    clock = FrozenClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    with engramdb.open(path, embedder=model, clock=clock) as mem:
        ids = {name: mem.remember(text, kind="event").memory.id
               for name, text in EPISODES.items()}
        for text in FACTS:
            mem.remember(text, kind="fact", priority="P0")
        clock.advance(days=120)
        mem.sleep()
        assert {mem.get(i).layer.value for i in ids.values()} == {"archived"}
    return path, clock, ids, model


def woken(faded, path: Path, cue: str, track: bool = False):  # type: ignore[no-untyped-def]
    """The woken hits of a recall of ``cue`` at ``path``, and the layer of every hit after it."""
    _, clock, _, model = faded
    with engramdb.open(path, embedder=model, clock=clock) as mem:
        hits = mem.recall(cue, k=3, track=track)
        return [h for h in hits if h.woken], {h.memory.id: mem.get(h.memory.id).layer.value
                                              for h in hits}


def copied(faded, tmp_path: Path) -> Path:
    copy = tmp_path / "m.db"
    copy.write_bytes(faded[0].read_bytes())
    return copy


@pytest.mark.parametrize(("name", "cue"), [
    ("pipe", "the night the plumbing leaked all over the floor"),   # paraphrase
    ("pipe", "厨房水管半夜爆了那次"),                                  # the other language
    ("hike", "那次在丽江爬山找不到路"),                                # paraphrase
    ("hike", "the hiking trip in Yunnan where we got lost"),        # the other language
    ("trip", "that trip with Wang"),                                # vague, no anchors kept
    ("hike", "那次和小王的旅行"),
])
def test_a_cue_that_means_it_wakes_it_weakly(faded, tmp_path, name, cue):  # type: ignore[no-untyped-def]
    found, layers = woken(faded, copied(faded, tmp_path), cue, track=True)
    assert found and found[0].memory.id == faded[2][name]
    assert "meaning stands out by" in found[0].explanation.notes[0]
    for hit in found:   # returned, and not promoted by a tracked recall
        assert hit.explanation.terms["strong_cue"] == 0.0
        assert layers[hit.memory.id] == "archived"


@pytest.mark.parametrize("cue", ["how do I bake sourdough bread", "推荐一部好看的电影",
                                 "What's the time difference between London and Tokyo?",
                                 "怎么申请公积金贷款？"])
def test_a_cue_about_something_else_wakes_nothing(faded, cue):  # type: ignore[no-untyped-def]
    assert woken(faded, faded[0], cue)[0] == []


def test_its_words_and_its_meaning_wake_it_strongly_and_promote_it(faded, tmp_path):  # type: ignore[no-untyped-def]
    found, layers = woken(faded, copied(faded, tmp_path), "kitchen pipe burst hallway carpet",
                          track=True)
    assert [h.memory.id for h in found] == [faded[2]["pipe"]]
    assert found[0].explanation.terms["strong_cue"] == 1.0
    assert layers[faded[2]["pipe"]] == "core"


def test_the_wake_threshold_grows_with_the_scope() -> None:
    # above the best of n memories by chance: higher for a larger scope
    assert wake_at(12) < wake_at(100) < wake_at(1000)
    assert 1.5 < wake_at(12) < 2.5 and wake_at(1000) > 3.0


def test_the_background_is_kept_and_redone_when_the_scope_grows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "h.db", embedder="hashing") as mem:
        ids = [mem.remember(f"note number {i} about topic {i * 7}").memory.id for i in range(20)]
        scope = Scope()   # the unscoped verbs' scope
        backgrounds = Backgrounds(mem.store)
        query = np.ones(384, dtype=np.float32)
        langs = {EN: set(ids), ZH: set()}
        first = backgrounds.of(scope, query, langs)
        assert first is not None and len(first.ids[EN]) == 20
        assert backgrounds.of(scope, query, langs) is first          # kept
        assert backgrounds.of(scope, query, {EN: set(ids[:MIN_BACKGROUND - 1]),
                                             ZH: set()}) is None  # too few to tell
        grown = ids + [mem.remember(f"another note {i}").memory.id for i in range(5)]
        again = backgrounds.of(scope, query, {EN: set(grown), ZH: set()})
        assert again is not None and len(again.ids[EN]) == 25     # redone


def test_only_the_most_recently_used_backgrounds_are_kept(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("engramdb.recall.background.KEPT", 1)
    with engramdb.open(tmp_path / "k.db", embedder="hashing") as mem:
        langs, scopes = {}, {}
        for user in ("ann", "bob"):
            me = mem.scope(user=user)
            records = [me.remember(f"{user} wrote note {i} about topic {i * 7}").memory
                       for i in range(10)]
            langs[user], scopes[user] = {EN: {r.id for r in records}, ZH: set()}, records[0].scope
        backgrounds = Backgrounds(mem.store)
        query = np.ones(384, dtype=np.float32)
        first = backgrounds.of(scopes["ann"], query, langs["ann"])
        assert first is not None and len(first.ids[EN]) == 10
        assert backgrounds.of(scopes["ann"], query, langs["ann"]) is first
        backgrounds.of(scopes["bob"], query, langs["bob"])       # ann's is dropped for bob's
        assert backgrounds.of(scopes["ann"], query, langs["ann"]) is not first


def _model(vectors: np.ndarray, start: int) -> ModelBackground:
    """One model's background over ``vectors`` (unit rows), as its positions from ``start``."""
    ids = {EN: {f"m{i}": i for i in range(len(vectors))}, ZH: {}}
    dims = np.arange(start, start + vectors.shape[1])
    return ModelBackground(dims, {EN: vectors, ZH: np.zeros((0, vectors.shape[1]))}, ids,
                           {(EN, EN): 0.1}, {EN: len(vectors), ZH: 0})


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_two_models_mean_is_rescaled_by_how_far_they_agree_by_chance() -> None:
    # the mean of two standings spreads by sqrt((1 + r) / 2) of one: r = 1 (one model twice)
    # leaves it as it is; two models that agree on nothing make it sqrt(1/2)
    rng = np.random.default_rng(7)
    a = _unit(rng.normal(size=(60, 32)))
    same = _model(a, 0), _model(a, 32)
    apart = _model(a, 0), _model(_unit(rng.normal(size=(60, 32))), 32)
    assert mean_spread(same, EN) == pytest.approx(1.0, abs=1e-6)
    assert mean_spread(apart, EN) == pytest.approx(np.sqrt(0.5), abs=0.05)
    assert mean_spread(apart[:1], EN) == 1.0                 # one model: nothing to rescale
    assert mean_spread(apart, ZH) == 1.0                     # no sample of the language
    assert apart[0].agreement(apart[1], EN) == apart[0].agreed[(32, 32, EN)]   # kept

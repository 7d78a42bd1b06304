"""Recall loads its candidates best-fused first and stops once k of them beat what any other
could still reach (recall/rank.py ``best_candidates``): the k best must be exactly those of
scoring every candidate. The bound counts the anchor factor only for the memories whose
indexed anchors hold a word of the query (``SQLiteStore.anchor_holders``): every memory an
anchor cue lifts must be among them, in English and Chinese."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import engramdb
from engramdb import Draft
from engramdb.dynamics.strength import DEFAULT_PARAMS
from engramdb.model import Scope
from engramdb.recall.fuse import rrf
from engramdb.recall.legs import run_legs
from engramdb.recall.plan import choose_preset, plan_query
from engramdb.recall.rank import allowed, anchor_cues, best_candidates, blend, holders
from engramdb.store.sqlite.search import scope_token
from engramdb.testing import FrozenClock

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ANN = Scope("ann", "default")
NAMES = ["Maria Lopez", "Tom Berg", "王伟", "李娜", "Anna Smith"]
PLACES = ["Lisbon", "Berlin", "北京", "上海", "Porto"]
WORDS = "budget meeting flight dinner contract move review 会议 预算 旅行 生日 蛋糕".split()
QUERIES = ["Maria Lopez budget meeting", "dinner in Lisbon", "王伟 北京 会议", "李娜的生日蛋糕",
           "Tom flight to Berlin", "contract review", "上海 旅行 预算", "Anna"]


class NoIndex:
    """The store without its anchor index: every candidate may take the anchor factor."""

    def __init__(self, store: object) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name == "anchor_holders":
            raise AttributeError(name)
        return getattr(self._store, name)


@pytest.fixture(scope="module")
def mem():  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    drafts = []
    for n in range(400):
        words = " ".join(rng.sample(WORDS, 3))
        people = rng.sample(NAMES, rng.randint(0, 2))
        places = rng.sample(PLACES, rng.randint(0, 1))
        drafts.append(Draft(content=f"{words} {rng.choice(PLACES)} #{n}", people=people or None,
                            places=places or None))
    with engramdb.open(":memory:", embedder="hashing", clock=FrozenClock(NOW)) as m:
        m.remember_many(drafts, user="ann")
        yield m


@pytest.mark.parametrize("query", QUERIES)
def test_the_best_k_are_those_of_scoring_every_candidate(mem, query):  # type: ignore[no-untyped-def]
    store = mem.store
    plan = plan_query(query, (), NOW)
    preset = choose_preset(plan, None, "default", 2)
    ranked = run_legs(store, mem._embed_query, ANN, plan, preset)
    fused, seen = rrf(ranked, preset)
    wanted = frozenset(plan.tokens)
    records = store.get_many(ANN, list(fused))
    every = sorted((blend(records[m], fused[m], seen[m], plan, preset, NOW, DEFAULT_PARAMS, wanted)
                    for m in fused if allowed(records[m], plan, NOW, [])),
                   key=lambda h: (-h.score, h.memory.id))
    lifted = {h.memory.id for h in every if anchor_cues(h.memory, plan, wanted)}
    held = holders(store, ANN, plan, wanted)
    assert held is not None and all(mid in held for mid in lifted)
    phrase = " OR ".join(f'"{t}"' for t in sorted(wanted))
    named = {r[0] for r in store._db.execute(   # FTS5's own answer: anchors holding a word
        "SELECT m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
        "WHERE memories_fts MATCH ?", (f'scope : "{scope_token(ANN)}" AND anchors : ({phrase})',))}
    assert {mid for mid in records if mid in held} == {mid for mid in records if mid in named}
    for k in (5, 20, 60):
        for reader in (store, NoIndex(store)):
            found = best_candidates(reader, DEFAULT_PARAMS, ANN, plan, preset, k, NOW, fused,
                                    seen, [], [])
            found.sort(key=lambda h: (-h.score, h.memory.id))
            assert [(h.memory.id, h.score) for h in found[:k]] == [
                (h.memory.id, h.score) for h in every[:k]]

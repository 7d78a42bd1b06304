"""Sleep runs by itself once the importance written since the last sleep reaches
``Config.auto_sleep_importance`` (7.5 by default; 0 turns it off). The write that sets it off
carries the sleep's summary in ``evidence["auto_sleep"]``; the report is ``last_auto_sleep``."""

from __future__ import annotations

import engramdb
from engramdb import Draft


def test_the_fifteenth_half_important_write_sleeps(mem, clock):  # type: ignore[no-untyped-def]
    results = [mem.remember(f"Note number {i} about the garden", importance=0.5)
               for i in range(14)]  # 14 x 0.5 = 7.0 < 7.5
    assert all("auto_sleep" not in r.evidence for r in results)
    assert mem.last_auto_sleep is None
    fifteenth = mem.remember("Note number 14 about the garden", importance=0.5)
    summary = fifteenth.evidence["auto_sleep"]
    assert summary["importance_written"] == 7.5 and summary["threshold"] == 7.5
    assert summary["mode"] == "full" and summary["visited"] == 15 and summary["changes"] == 0
    assert mem.last_auto_sleep is not None and mem.last_auto_sleep.at == clock.now()
    assert mem.store.sleep_state(fifteenth.memory.scope).importance == 0.0  # counting restarts
    assert "auto_sleep" not in mem.remember("One more note, on roses", importance=0.5).evidence


def test_the_auto_sleep_is_the_same_sleep(mem, clock):  # type: ignore[no-untyped-def]
    trip = [mem.remember(t, kind="event", people=["小王"], places=["哈尔滨"], importance=0.5)
            for t in ("和小王去哈尔滨看冰雕。", "小王订了3晚的酒店。", "和小王吃饺子。")]
    clock.advance(days=15)  # the three episodes settled; 1.5 written so far
    drafts = [Draft(f"Reading list item {i}: a book on birds", importance=1.0) for i in range(6)]
    results = mem.remember_many(drafts)  # 1.5 + 6.0 = 7.5: one sleep, after the batch
    assert [("auto_sleep" in r.evidence) for r in results] == [False] * 5 + [True]
    summary = results[-1].evidence["auto_sleep"]
    assert summary["counts"]["consolidate"] == {"gist_created": 1, "consolidated": 3}
    (gist,) = mem.list(kind="gist")
    assert set(gist.derived_from) == {w.memory.id for w in trip}
    assert mem.history(trip[0].memory.id)[-1].actor == "sleep"


def test_what_counts_is_what_was_stored(mem):  # type: ignore[no-untyped-def]
    for _ in range(20):  # the same words again: an exact duplicate, nothing stored
        mem.remember("The office is on the fourth floor", importance=1.0)
    assert mem.last_auto_sleep is None
    scope = mem.default_scope
    assert mem.store.sleep_state(scope).importance == 1.0


def test_zero_turns_it_off(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       auto_sleep_importance=0) as mem:
        for i in range(30):
            assert "auto_sleep" not in mem.remember(f"Fact {i} on birds", importance=1.0).evidence
        assert mem.last_auto_sleep is None
        assert mem.store.sleep_state(mem.default_scope).last_at is None


def test_a_manual_sleep_restarts_the_count(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       auto_sleep_importance=2) as mem:
        mem.remember("Fact one on birds", importance=1.0)
        mem.sleep()
        assert "auto_sleep" not in mem.remember("Fact two on bees", importance=1.0).evidence
        assert "auto_sleep" in mem.remember("Fact three on ants", importance=1.0).evidence
        other = mem.scope(user="bob")  # counted per scope
        assert "auto_sleep" not in other.remember("Fact four on owls", importance=1.0).evidence

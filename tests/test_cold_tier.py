"""The cold tier (issue 31; dynamics/cold.py, store/cold.py): a sleep moves memories archived
and idle for ``cold_after`` out of the hot store's search structures; a default recall does not
search them, ``include_cold=True`` does and wakes them as archived ones wake (a strong cue
brings them back to core); get, history, list, stats, export, forget and restore still reach
them. Time moves with the FrozenClock. Both stores, English and Chinese, and the doors."""

from __future__ import annotations

import io
import json

import anyio
import httpx
import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import ConfigError, Invalid
from engramdb.cli import app
from live_server import auth, new_key, thread_server

BACKENDS = ("sqlite", "postgres")  # every test using `cold` runs on both stores

WORK = ["The quarterly report is due on Friday", "My manager asked for the budget slides",
        "I work at Acme as an engineer", "The team moved to the new office"]
EN = ("went to Harbin with Wang to see the ice sculptures", ["Wang"], ["Harbin"],
      ["ice sculptures"], "that trip with Wang to Harbin")
ZH = ("和小王去哈尔滨看冰雕", ["小王"], ["哈尔滨"], ["冰雕"], "那次和小王去哈尔滨的旅行")


@pytest.fixture
def cold(tmp_path, clock, backend, request):  # type: ignore[no-untyped-def]
    target = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "m.db"
    with engramdb.open(target, embedder="hashing", clock=clock, cold_after="180d") as m:
        yield m.scope(user="alice", agent="noah")


def ids(hits):  # type: ignore[no-untyped-def]
    return [h.memory.id for h in hits]


def frozen_trip(me, clock, case=EN):  # type: ignore[no-untyped-def]
    """The trip and a few work memories; 120 days and a sleep archive the trip, 200 more days
    and a sleep move it to the cold tier."""
    content, people, places, topics, _ = case
    trip = me.remember(content, kind="event", people=people, places=places,
                       topics=topics).memory
    for text in WORK:
        me.remember(text)
    clock.advance(days=120)
    assert me.sleep().phase("decay").ids("archived") == [trip.id]
    clock.advance(days=200)
    assert me.sleep().phase("decay").ids("moved_cold") == [trip.id]
    return trip


@pytest.mark.parametrize("case", [EN, ZH], ids=["en", "zh"])
def test_cold_is_searched_on_demand_and_a_strong_cue_brings_it_back(cold, clock, case):  # type: ignore[no-untyped-def]
    trip = frozen_trip(cold, clock, case)
    cue = case[4]
    rec = cold.get(trip.id)
    assert rec.layer.value == "cold" and rec.content == case[0]     # nothing lost
    assert [e.op for e in cold.history(trip.id)][-2:] == ["archive", "freeze"]
    assert cold.stats().by_layer["cold"] == 1
    assert [r.id for r in cold.list(layer="cold")] == [trip.id]
    assert trip.id not in ids(cold.recall(cue, k=10))                # default: hot store only
    hits = cold.recall(cue, k=5, include_cold=True)
    assert hits[0].memory.id == trip.id and hits[0].woken
    assert hits[0].explanation.notes[0].startswith("woken from the cold tier")
    assert hits[0].explanation.notes[-1] == "promoted to core"
    assert "cold tier" in hits[0].why
    assert cold.get(trip.id).layer.value == "core"
    assert cold.history(trip.id)[-1].op == "wake"
    again = cold.recall(cue, k=5)                                    # hot again
    assert again[0].memory.id == trip.id and not again[0].woken


def test_a_weak_cue_shows_a_cold_memory_and_leaves_it_cold(cold, clock):  # type: ignore[no-untyped-def]
    trip = frozen_trip(cold, clock)
    before = cold.history(trip.id)
    (hit,) = [h for h in cold.recall("Wang and the ice", k=5, include_cold=True, track=False)
              if h.woken]
    assert hit.memory.id == trip.id and hit.explanation.terms["strong_cue"] == 0.0
    assert cold.history(trip.id) == before                           # a pure read
    cold.recall("Wang and the ice", k=5, include_cold=True)
    assert cold.get(trip.id).layer.value == "cold"                   # shown, not promoted
    assert trip.id not in ids(cold.recall("that trip with Wang to Harbin", k=10))


def test_only_a_long_idle_archive_moves(cold, clock):  # type: ignore[no-untyped-def]
    trip = cold.remember("去哈尔滨看冰雕", kind="event", places=["哈尔滨"]).memory
    clock.advance(days=120)
    assert cold.sleep().phase("decay").ids("archived") == [trip.id]
    clock.advance(days=179)
    assert cold.sleep(full=True).phase("decay").ids("moved_cold") == []   # not yet
    cold.update(trip.id, content="去哈尔滨看冰雕和雪景")                   # a change: idle anew
    clock.advance(days=2)
    assert cold.sleep().phase("decay").ids("moved_cold") == []
    clock.advance(days=180)
    assert cold.sleep().phase("decay").ids("moved_cold") == [trip.id]
    assert cold.get(trip.id).content == "去哈尔滨看冰雕和雪景"


def test_off_keeps_the_archive_hot(mem, clock):  # type: ignore[no-untyped-def]
    trip = mem.remember("went to Harbin with Wang", kind="event", people=["Wang"]).memory
    clock.advance(days=120)
    mem.sleep()
    clock.advance(days=3000)
    assert mem.sleep().phase("decay").ids("moved_cold") == []
    assert mem.get(trip.id).layer.value == "archived"


def test_forget_restore_and_export_reach_cold_memories(cold, clock, tmp_path):  # type: ignore[no-untyped-def]
    trip = frozen_trip(cold, clock)
    out = io.StringIO()
    cold.export(out)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.import_(io.StringIO(out.getvalue()))
        me = copy.scope(user="alice", agent="noah")
        assert me.get(trip.id).layer.value == "cold"
        assert trip.id not in ids(me.recall("that trip with Wang to Harbin", k=10))
        assert ids(me.recall("that trip with Wang to Harbin", k=1, include_cold=True,
                             track=False)) == [trip.id]
    cold.forget(trip.id)
    assert cold.get(trip.id).layer.value == "deleted"
    assert cold.stats().by_layer["cold"] == 0
    cold.restore(trip.id)
    assert cold.get(trip.id).layer.value == "core"
    assert cold.recall("that trip with Wang to Harbin", k=1)[0].memory.id == trip.id


@pytest.mark.parametrize("value", ["soon", "-5d", "0.5s", "nan", "180 days", True])
def test_bad_cold_after_is_refused(value):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="cold_after"):
        engramdb.open(":memory:", embedder="hashing", cold_after=value)


def test_bad_cold_after_from_the_environment_names_it(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ENGRAMDB_COLD_AFTER", "later")
    with pytest.raises(ConfigError, match="ENGRAMDB_COLD_AFTER"):
        engramdb.open(":memory:", embedder="hashing")
    monkeypatch.setenv("ENGRAMDB_COLD_AFTER", "off")
    with engramdb.open(":memory:", embedder="hashing") as mem:
        assert mem.config.cold_after == "off"


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_bad_include_cold_is_refused(value):  # type: ignore[no-untyped-def]
    with engramdb.open(":memory:", embedder="hashing") as mem:
        mem.remember("I live in Berlin")
        with pytest.raises(Invalid, match="include_cold"):
            mem.recall("Berlin", include_cold=value)


def test_the_doors_pass_include_cold(tmp_path, clock):  # type: ignore[no-untyped-def]
    db = tmp_path / "doors.db"
    cue = "that trip with Wang to Harbin"
    with engramdb.open(db, embedder="hashing", clock=clock, cold_after="180d") as mem:
        trip = frozen_trip(mem.scope(user="alice", agent="noah"), clock)
        with thread_server(mem) as url:
            key = auth(new_key(mem, "read"))
            body = {"query": cue, "k": 3}
            plain = httpx.post(url + "/v1/recall", json=body, headers=key).json()
            assert trip.id not in [h["memory"]["id"] for h in plain["hits"]]
            found = httpx.post(url + "/v1/recall", json={**body, "include_cold": True},
                               headers=key).json()
            assert found["hits"][0]["memory"]["id"] == trip.id
            bad = httpx.post(url + "/v1/recall", json={**body, "include_cold": "maybe"},
                             headers=key)
            assert bad.status_code == 422
    run = CliRunner().invoke(app, ["--db", str(db), "--user", "alice", "--agent", "noah",
                                   "recall", cue, "--cold", "--no-track", "--json"],
                             env={"ENGRAMDB_EMBEDDER": "hashing"})
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["hits"][0]["memory"]["id"] == trip.id
    anyio.run(_mcp_recall, db, cue, trip.id)


async def _mcp_recall(db, cue, trip_id):  # type: ignore[no-untyped-def]
    from test_mcp import fails, ok, stdio

    async with stdio(db, "--user", "alice", "--agent", "noah") as c:
        plain = await ok(c, "recall", query=cue, track=False)
        assert trip_id not in [h["memory"]["id"] for h in plain["hits"]]
        found = await ok(c, "recall", query=cue, track=False, include_cold=True)
        assert found["hits"][0]["memory"]["id"] == trip_id
        assert "include_cold" in await fails(c, "recall", query=cue, include_cold="maybe")


def test_the_migrating_section_runs_as_written():  # type: ignore[no-untyped-def]
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "migrating.md").read_text("utf-8")
    start = text.index("## From the layered-memory topic: the cold tier")
    block = text[start:].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "migrating.md", "exec"), {})

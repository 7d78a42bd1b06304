"""The sleep cycle: decay archives the weak, tidy retires expired and overdue items, nothing is
deleted, forgotten memories stay forgotten; and the CLI doors `sleep` and `explain`."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Invalid
from engramdb.cli import app
from engramdb.dynamics.sleep import PHASES, SleepReport

ALL = ["core", "archived", "deleted"]


def layers(mem: engramdb.Memory) -> dict[str, int]:
    return mem.stats().by_layer


def test_decay_archives_the_weak_and_deletes_nothing(mem, clock):  # type: ignore[no-untyped-def]
    event = mem.remember("Coffee with Ines at the station", kind="event").memory
    fact = mem.remember("The office moved to the fourth floor").memory
    rule = mem.remember("Always cc the team lead", kind="rule").memory
    clock.advance(days=37)  # an unused event weighs 0.5 ** (37 / 14) = 0.16: stays
    assert mem.decay().phase("decay").ids("archived") == []
    clock.advance(days=2)   # 0.5 ** (39 / 14) = 0.145 < 0.15: archived
    report = mem.decay()
    assert report.phase("decay").ids("archived") == [event.id]
    assert report.phase("decay").examined == 3
    assert layers(mem) == {"core": 2, "archived": 1, "deleted": 0, "cold": 0}
    last = mem.history(event.id)[-1]
    assert (last.op, last.actor, last.memory.layer.value) == ("archive", "sleep", "archived")
    assert "weight 0.14" in last.reason and "0.15" in last.reason
    clock.advance(days=3650)  # ten years: the fact archives (floor 0.1), the rule never (0.3)
    mem.sleep()
    assert mem.get(fact.id).layer.value == "archived"
    assert mem.get(rule.id).layer.value == "core"
    assert mem.explain(rule.id).weight == pytest.approx(0.3)
    assert sum(layers(mem).values()) == 3


def test_archived_memories_leave_active_search(mem, clock):  # type: ignore[no-untyped-def]
    event = mem.remember("Coffee with Ines at the station", kind="event").memory
    mem.remember("The office moved to the fourth floor")
    clock.advance(days=60)
    mem.sleep()
    for query in ("Ines", "office floor"):
        assert event.id not in [h.memory.id for h in mem.recall(query, k=10)]
    # its own words still wake it (recall/wake.py): shown as woken, weakly, and left archived
    (hit,) = [h for h in mem.recall("coffee at the station", k=10) if h.memory.id == event.id]
    assert hit.woken and hit.explanation.terms["strong_cue"] == 0.0
    assert mem.get(event.id).layer.value == "archived"


def test_the_threshold_comes_from_config(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       archive_below=0) as mem:
        mem.remember("Coffee with Ines at the station", kind="event")
        clock.advance(days=3650)
        assert mem.sleep().changes == 0


def test_soft_forget_survives_ten_sleeps(mem, clock):  # type: ignore[no-untyped-def]
    gone = mem.remember("My old PIN was 4711", kind="event").memory
    kept = mem.remember("My name is Li", kind="identity").memory
    mem.forget(gone.id)
    events = len(mem.store.events(gone.scope, gone.id))
    for _ in range(10):
        clock.advance(days=30)
        mem.sleep()
    assert mem.get(gone.id).layer.value == "deleted"
    assert len(mem.store.events(gone.scope, gone.id)) == events  # no sleep touched it
    assert gone.id not in [h.memory.id for h in mem.recall("old PIN 4711", k=10)]
    assert mem.get(kept.id).layer.value == "core"


def test_a_second_sleep_right_after_changes_nothing(mem, clock):  # type: ignore[no-untyped-def]
    mem.remember("Coffee with Ines", kind="event")
    mem.remember("Send the slides", kind="pending", due_at=clock.now() + timedelta(days=1))
    mem.remember("Parking spot 42 today", expires_at=clock.now() + timedelta(hours=8))
    clock.advance(days=60)
    assert mem.sleep().changes == 3   # archived, marked overdue, expired
    assert mem.sleep().changes == 0


# ---------------------------------------------------------------- lifecycle


def test_temp_memories_retire_after_expiry(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("Parking spot 42 today", expires_at=clock.now() + timedelta(hours=8))
    rid = rec.memory.id
    assert rec.memory.lifecycle.value == "temp"
    clock.advance(hours=7)
    assert mem.sleep("tidy").phase("tidy").ids("expired") == []
    assert [h.memory.id for h in mem.recall("parking spot", k=3)] == [rid]
    clock.advance(hours=2)
    assert mem.recall("parking spot", k=3) == []  # expired: not returned, even before tidy
    assert mem.sleep("tidy").phase("tidy").ids("expired") == [rid]
    last = mem.history(rid)[-1]
    assert (last.op, last.memory.layer.value) == ("retire", "archived")
    assert last.reason.startswith("expired at")
    assert mem.restore(rid).layer.value == "core"


def test_overdue_items_are_marked_then_retired(mem, clock):  # type: ignore[no-untyped-def]
    due = clock.now() + timedelta(days=2)
    rec = mem.remember("Send the tax form to Anna", kind="pending", due_at=due).memory
    later = mem.remember("Book the dentist", kind="pending",
                         due_at=clock.now() + timedelta(days=30)).memory
    clock.advance(days=3)
    first = mem.sleep().phase("tidy")
    assert first.ids("marked_overdue") == [rec.id]
    marked = mem.get(rec.id)
    assert marked.overdue_since == clock.now() and marked.layer.value == "core"
    assert mem.history(rec.id)[-1].op == "overdue"
    clock.advance(days=1)
    second = mem.sleep().phase("tidy")
    assert second.ids("retired_overdue") == [rec.id]
    retired = mem.history(rec.id)[-1]
    assert (retired.op, retired.actor, retired.memory.layer.value) == (
        "retire", "sleep", "archived")
    assert "overdue since" in retired.reason
    assert mem.get(later.id).overdue_since is None and mem.get(later.id).layer.value == "core"
    back = mem.restore(rec.id)
    assert (back.layer.value, back.overdue_since) == ("core", None)
    assert mem.sleep().phase("tidy").ids("marked_overdue") == [rec.id]  # a new period


def test_a_restored_archived_memory_is_not_archived_again_at_once(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("Coffee with Ines at the station", kind="event").memory
    clock.advance(days=60)
    mem.sleep()
    assert mem.get(rec.id).layer.value == "archived"
    assert mem.restore(rec.id).use_count == 1  # a restore is a use
    assert mem.sleep().changes == 0
    assert mem.get(rec.id).layer.value == "core"


# ---------------------------------------------------------------- phases and report


def test_phases_run_in_order_and_report(mem, clock):  # type: ignore[no-untyped-def]
    ids = [mem.remember(f"Meeting number {i} with Ines", kind="event").memory.id
           for i in range(3)]
    clock.advance(days=60)
    report = mem.sleep()
    assert isinstance(report, SleepReport)
    assert [p.phase for p in report.phases] == list(PHASES) == [
        "sync", "decay", "tidy", "lessons", "consolidate", "govern"]
    assert report.skipped == {}
    assert sorted(report.phase("decay").ids("archived")) == sorted(ids)
    assert report.phase("decay").counts() == {"archived": 3}
    assert report.phase("govern").note and report.phase("sync").note
    data = json.loads(json.dumps(report.to_dict()))
    assert data["phases"][1]["counts"] == {"archived": 3}
    assert [p.phase for p in mem.sleep("govern").phases] == ["govern"]


@pytest.mark.parametrize("phase", ["dream", "", 3])
def test_unknown_or_unbuilt_phases_are_invalid(mem, phase):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="phase"):
        mem.sleep(phase)


def test_sleep_is_scoped(mem, clock):  # type: ignore[no-untyped-def]
    alice, bob = mem.scope(user="alice"), mem.scope(user="bob")
    a = alice.remember("Coffee with Ines", kind="event").memory
    b = bob.remember("Coffee with Ines", kind="event").memory
    clock.advance(days=60)
    assert alice.sleep().phase("decay").ids("archived") == [a.id]
    assert bob.get(b.id).layer.value == "core"


# ---------------------------------------------------------------- CLI doors


def test_cli_sleep_and_explain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the CLI reads the system clock: held still, so no wall time passes between its commands
    still = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    monkeypatch.setattr("engramdb.clock.SystemClock.now", lambda self: still)
    db = str(tmp_path / "m.db")
    env = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["--db", db, "--create", *args], env=env)
        assert result.exit_code == code, (result.stdout, result.stderr)
        return result.stdout if code == 0 else result.stderr

    mid = json.loads(run("remember", "Coffee with Ines", "--kind", "event", "--json"))[
        "memory"]["id"]
    explained = json.loads(run("explain", mid, "--json"))
    assert (explained["layer"], explained["priority"], explained["weight"]) == ("core", "P3", 1.0)
    assert "half-life" in run("explain", mid)
    report = json.loads(run("sleep", "--json"))
    assert [p["phase"] for p in report["phases"]] == list(PHASES)
    assert "decay" in run("sleep", "--phase", "decay")
    assert run("explain", "01NOSUCHMEMORY0000000000000", code=3).startswith("error: ")
    assert "phase" in run("sleep", "--phase", "dream", code=4)


def test_govern_prunes_weak_excess_and_dangling_links(mem, clock):  # type: ignore[no-untyped-def]
    from engramdb import Link
    from engramdb.dynamics.sleep import EDGES_PER_MEMORY

    hub = mem.remember("The hub note about the release").memory
    others = [mem.remember(f"Note {i} about topic {i}").memory for i in range(EDGES_PER_MEMORY + 3)]
    scope = mem._scope(None, None)
    # association edges from the hub: one weak, the rest strong with distinct weights
    mem.store.strengthen_links(scope, [(hub.id, others[0].id)], "associated", 0.04, 1.0,
                               clock.now(), 0)
    for i, other in enumerate(others[1:]):
        mem.store.strengthen_links(scope, [(hub.id, other.id)], "associated",
                                   0.1 + 0.01 * i, 1.0, clock.now(), 0)
    mem.link(hub.id, others[0].id, "caused", 0.01)      # a user's link: kept however weak
    # a link whose other end is not there (a hard forget drops its own links; an import or an
    # older file may still carry one)
    mem.store.put_link(Link(hub.id, "01JMISSINGMEMORY000000000", "related", 0.9, clock.now(),
                            clock.now(), scope.user, scope.agent))
    report = mem.sleep(phase="govern").phase("govern")
    assert report.counts() == {"pruned_weak": 1, "pruned_dangling": 1, "pruned_excess": 2}
    kept = [link for link in mem.links(hub.id) if link.relation == "associated"]
    assert len(kept) == EDGES_PER_MEMORY
    assert min(link.weight for link in kept) > 0.1  # the two weakest strong ones went
    assert {(link.relation, link.target) for link in mem.links(hub.id)
            if link.relation == "caused"} == {("caused", others[0].id)}
    assert mem.sleep(phase="govern").phase("govern").counts() == {}  # nothing left to prune


def test_an_incremental_sleep_prunes_what_a_full_one_would(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Links set since the last sleep are governed by an incremental sleep too; links it does
    not read are as the last sleep left them."""
    from engramdb import Link
    from engramdb.dynamics.sleep import EDGES_PER_MEMORY

    ends, examined = [], []
    for full in (False, True):
        with engramdb.open(tmp_path / f"{full}.db", embedder="hashing", clock=clock,
                           auto_sleep_importance=0) as mem:
            scope = mem._scope(None, None)
            hub = mem.remember("The hub note about the release").memory
            others = [mem.remember(f"Note {i} about topic {i}").memory
                      for i in range(EDGES_PER_MEMORY + 3)]
            quiet = [mem.remember(f"安静的笔记 {i}").memory for i in range(30)]
            for a, b in zip(quiet, quiet[1:], strict=False):
                mem.link(a.id, b.id, "related", 0.5)
            clock.advance(minutes=5)
            assert mem.sleep().mode == "full"   # the first sleep
            clock.advance(hours=1)
            mem.store.strengthen_links(scope, [(hub.id, others[0].id)], "associated", 0.04,
                                       1.0, clock.now(), 0)
            for i, other in enumerate(others[1:]):
                mem.store.strengthen_links(scope, [(hub.id, other.id)], "associated",
                                           0.1 + 0.01 * i, 1.0, clock.now(), 0)
            mem.store.put_link(Link(quiet[0].id, "01JMISSINGMEMORY000000000", "related", 0.9,
                                    clock.now(), clock.now(), scope.user, scope.agent))
            clock.advance(hours=1)
            report = mem.sleep(full=full)
            assert report.mode == ("full" if full else "incremental")
            govern = report.phase("govern")
            examined.append(govern.examined)
            name = {r.id: r.content for r in mem.list()}
            ends.append((govern.counts(), sorted(
                (name[x.source], name.get(x.target, x.target), x.relation, x.weight)
                for x in mem.store.list_links(scope))))
    assert ends[0] == ends[1]
    assert ends[0][0] == {"pruned_weak": 1, "pruned_dangling": 1, "pruned_excess": 2}
    assert examined[0] < examined[1]

"""Snapshots: a whole scope to a file and back; restoring replaces the scope, all or nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Conflict, Invalid, Scope
from engramdb.testing import HashingEmbedder

ALL_LAYERS = ["core", "archived", "deleted"]
QUERIES = ["Berlin", "tea", "Anna", "violin"]


def state(mem: engramdb.Memory, user: str, agent: str) -> Any:
    """What a user of the scope can see: every record, every history, what recall returns (in
    order: scores follow the clock, which moves)."""
    records = list(mem.list(layer=ALL_LAYERS, user=user, agent=agent))
    histories = [mem.history(r.id, user=user, agent=agent) for r in records]
    hits = [[h.memory.id for h in mem.recall(q, k=10, track=False, user=user, agent=agent)]
            for q in QUERIES]
    return records, histories, hits


def fill(mem: engramdb.Memory, clock: Any) -> tuple[Any, list[str]]:
    me = mem.scope(user="alice", agent="noah")
    ids = [me.remember("I moved to Berlin", people=["Anna"]).memory.id,
           me.remember("I drink green tea", kind="preference").memory.id,
           me.remember("My sister plays the violin").memory.id,
           me.remember("My name is Li", uri="core://user/name").memory.id]
    me.forget(ids[2])
    me.recall("Berlin")
    mem.scope(user="bob", agent="noah").remember("Bob lives in Berlin too")
    clock.advance(hours=1)
    return me, ids


def test_snapshot_then_restore_gives_the_scope_back(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    me, ids = fill(mem, clock)
    snap = tmp_path / "alice.snapshot.jsonl"
    assert me.snapshot(snap) == 4
    before = state(mem, "alice", "noah")
    bob_before = state(mem, "bob", "noah")
    # what happens after the snapshot: new, changed, restored, forgotten
    me.remember("I adopted a cat")
    me.update(ids[0], content="I moved to Oslo")
    me.restore(ids[2])
    me.forget(ids[1])
    clock.advance(hours=1)
    assert me.restore_snapshot(snap) == {"removed": 5, "restored": 4, "reembedded": 0}
    assert state(mem, "alice", "noah") == before
    assert state(mem, "bob", "noah") == bob_before
    assert me.remember("I moved to Berlin").action == engramdb.Action.NOOP
    (audit,) = mem.store.events(Scope("alice", "noah"), "*")
    assert audit.op == "restore_snapshot" and "snapshot taken at" in audit.reason


def test_an_erasure_outlives_a_restore(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    me, ids = fill(mem, clock)
    snap = tmp_path / "alice.jsonl"
    me.snapshot(snap)
    later = me.remember("I adopted a cat").memory
    me.forget(ids[1], hard=True)
    me.forget(later.id, hard=True)
    tombs = [me.get(ids[1]), me.get(later.id)]
    logs = [me.history(t.id) for t in tombs]
    assert me.restore_snapshot(snap)["restored"] == 5  # 4 from the file, with 1 tombstone, + 1
    assert [me.get(t.id) for t in tombs] == tombs
    assert [me.history(t.id) for t in tombs] == logs
    assert "green tea" not in str(me.recall("green tea", k=10, track=False).to_dict())
    assert me.get(ids[0]).content == "I moved to Berlin"


def test_snapshot_header_names_the_scope(mem, clock):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    out = io.StringIO()
    me.snapshot(out)
    header = json.loads(out.getvalue().splitlines()[0])
    assert header["snapshot"] == {"user": "alice", "agent": "noah",
                                  "at": clock.now().isoformat()}
    assert header["format"] == "engramdb-jsonl/1"  # still an export: `import` reads it


def test_restore_of_an_empty_snapshot_empties_the_scope(mem, clock):  # type: ignore[no-untyped-def]
    empty = io.StringIO()
    mem.snapshot(empty, user="alice", agent="noah")
    me, _ = fill(mem, clock)
    result = me.restore_snapshot(io.StringIO(empty.getvalue()))
    assert result == {"removed": 4, "restored": 0, "reembedded": 0}
    assert me.count(layer=ALL_LAYERS) == 0
    assert mem.count(user="bob", agent="noah") == 1


def test_restore_with_another_embedder_reembeds(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "a.db", embedder="hashing", clock=clock) as source:
        fill(source, clock)
        snap = io.StringIO()
        source.snapshot(snap, user="alice", agent="noah")
    small = HashingEmbedder(dimensions=64)
    with engramdb.open(tmp_path / "b.db", embedder=small, clock=clock) as target:
        result = target.restore_snapshot(io.StringIO(snap.getvalue()), user="alice",
                                         agent="noah")
        assert result == {"removed": 0, "restored": 4, "reembedded": 4}
        me = target.scope(user="alice", agent="noah")
        assert me.recall("green tea", k=1, preset="dense")[0].memory.content == (
            "I drink green tea")


def test_a_snapshot_of_another_scope_is_refused(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    snap = tmp_path / "alice.jsonl"
    me.snapshot(snap)
    bob_before = state(mem, "bob", "noah")
    with pytest.raises(Invalid, match="snapshot is of user=alice agent=noah, not of user=bob"):
        mem.restore_snapshot(snap, user="bob", agent="noah")
    assert state(mem, "bob", "noah") == bob_before


def test_a_plain_export_of_the_scope_is_accepted_but_not_an_empty_one(mem, clock):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    before = state(mem, "alice", "noah")
    plain = io.StringIO()
    mem.export(plain, user="alice", agent="noah")
    assert me.restore_snapshot(io.StringIO(plain.getvalue()))["restored"] == 4
    assert state(mem, "alice", "noah") == before
    mixed = io.StringIO()
    mem.export(mixed, all_scopes=True)
    with pytest.raises(Invalid, match="not only of user=alice"):
        me.restore_snapshot(io.StringIO(mixed.getvalue()))
    empty = io.StringIO()
    mem.export(empty, user="nobody")
    with pytest.raises(Invalid, match="names no scope"):
        me.restore_snapshot(io.StringIO(empty.getvalue()))
    assert state(mem, "alice", "noah") == before


@pytest.mark.parametrize("text", ["", "not json\n", '{"type": "memory"}\n'])
def test_what_is_not_a_snapshot_is_invalid(mem, clock, text):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    before = state(mem, "alice", "noah")
    with pytest.raises(Invalid):
        me.restore_snapshot(io.StringIO(text))
    assert state(mem, "alice", "noah") == before


def test_a_missing_file_is_invalid(mem, tmp_path):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="cannot read the snapshot"):
        mem.restore_snapshot(tmp_path / "nope.jsonl")
    with pytest.raises(Invalid, match="cannot write the snapshot"):
        mem.snapshot(tmp_path / "no" / "dir" / "snap.jsonl")


def test_restore_is_all_or_nothing(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    """A record whose id another scope holds makes the restore fail after the scope was
    dropped: the transaction takes it all back."""
    me, ids = fill(mem, clock)
    snap = io.StringIO()
    me.snapshot(snap)
    lines = snap.getvalue().splitlines()
    bob_id = next(mem.list(user="bob", agent="noah")).id
    forged = [line.replace(ids[0], bob_id) for line in lines]
    before = state(mem, "alice", "noah")
    with pytest.raises(Conflict):
        me.restore_snapshot(io.StringIO("\n".join(forged)))
    assert state(mem, "alice", "noah") == before
    assert mem.store.events(Scope("alice", "noah"), "*") == []


def test_snapshot_to_a_path_is_atomic(mem, clock, tmp_path: Path):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    snap = tmp_path / "snap.jsonl"
    snap.write_text("an older snapshot\n", encoding="utf-8")
    me.snapshot(snap)
    assert snap.read_text(encoding="utf-8").startswith('{"type": "header"')
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".snap")) == []


def test_a_restore_brings_back_the_goal_stack(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    me, _ = fill(mem, clock)
    trip = me.goal_start("Plan the Lisbon trip", open_loops=["book the flight"])
    snap = tmp_path / "alice.snapshot.jsonl"
    me.snapshot(snap)
    goals = me.goals()
    me.goal_done(evidence=["booked TP 1234"])
    me.goal_start("整理照片")
    bob = mem.scope(user="bob", agent="noah").goal_start("Bob's own goal")
    me.restore_snapshot(snap)
    assert me.goals() == goals and me.active_goal() == trip
    assert mem.scope(user="bob", agent="noah").goals() == [bob]

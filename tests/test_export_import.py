"""JSONL export and import: lossless between files, re-embedding across models, all or nothing."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engramdb
from engramdb import Invalid
from engramdb.testing import FrozenClock, HashingEmbedder

WHEN = datetime(2025, 6, 1, 9, 30, tzinfo=UTC)
QUERIES = ["Berlin", "where do I live?", "火锅", "Anna swimming", "tea", "violin sister"]
ALL_LAYERS = ["core", "archived", "deleted"]


def fill(mem: engramdb.Memory, clock: Any) -> list[str]:
    """A small but varied store: two scopes, URIs, events, updates, a forgotten memory, uses."""
    me = mem.scope(user="alice", agent="noah")
    ids = [r.memory.id for r in me.remember_many([
        engramdb.Draft("I moved to Berlin in March", kind="fact", metadata={"src": "chat"}),
        engramdb.Draft("我周末喜欢去吃火锅", kind="preference", topics=["food"]),
        engramdb.Draft("Went swimming with Anna", kind="event", at=WHEN, people=["Anna"]),
        engramdb.Draft("My sister plays the violin", kind="fact"),
        engramdb.Draft("My name is Li", uri="core://user/name"),
        engramdb.Draft("I drink green tea every morning", kind="preference"),
    ])]
    clock.advance(hours=3)
    me.recall("Berlin", k=2)
    me.remember("My name is Li Wei", uri="core://user/name")
    me.update(ids[3], content="My sister plays the cello and the violin")
    clock.advance(days=2)
    me.forget(ids[5])
    me.recall("swimming", k=1)
    mem.scope(user="bob").remember("Bob lives in Berlin too")
    clock.advance(days=1)
    return ids


def export_text(mem: engramdb.Memory, **kwargs: Any) -> str:
    out = io.StringIO()
    mem.export(out, **kwargs)
    return out.getvalue()


def recall_view(mem: engramdb.Memory, user: str, agent: str) -> list[Any]:
    return [[(h.memory.id, h.score, h.explanation.to_dict())
             for h in mem.recall(q, k=10, track=False, user=user, agent=agent)]
            for q in QUERIES]


def test_export_import_gives_identical_recall_and_history(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    ids = fill(mem, clock)
    text = export_text(mem, all_scopes=True)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        counts = copy.import_(io.StringIO(text))
        assert counts == {"imported": 7, "skipped": 0, "goals": 0, "reembedded": 0}
        for user, agent in [("alice", "noah"), ("bob", "default")]:
            assert recall_view(copy, user, agent) == recall_view(mem, user, agent)
            original = list(mem.list(layer=ALL_LAYERS, user=user, agent=agent))
            assert list(copy.list(layer=ALL_LAYERS, user=user, agent=agent)) == original
            assert copy.stats(user=user, agent=agent).events == mem.stats(
                user=user, agent=agent).events
        for mid in ids:
            assert copy.history(mid, user="alice", agent="noah") == mem.history(
                mid, user="alice", agent="noah")
        assert export_text(copy, all_scopes=True) == text


def test_export_counts_and_header(mem, clock):  # type: ignore[no-untyped-def]
    fill(mem, clock)
    out = io.StringIO()
    assert mem.export(out, user="alice", agent="noah") == 6
    header = json.loads(out.getvalue().splitlines()[0])
    assert header["type"] == "header"
    assert header["embedder"] == mem.embedder.model_id
    assert header["dimensions"] == mem.embedder.dimensions


def test_import_with_another_embedder_reembeds(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "a.db", embedder="hashing", clock=clock) as source:
        fill(source, clock)
        text = export_text(source, all_scopes=True)
    small = HashingEmbedder(dimensions=64)
    with engramdb.open(tmp_path / "b.db", embedder=small, clock=clock) as target:
        counts = target.import_(io.StringIO(text))
        assert counts == {"imported": 7, "skipped": 0, "goals": 0, "reembedded": 7}
        assert target.stats(user="alice", agent="noah").dimensions == 64
        me = target.scope(user="alice", agent="noah")
        assert me.recall("火锅", k=1)[0].memory.content == "我周末喜欢去吃火锅"
        assert me.recall("moved to Berlin", k=1)[0].memory.content == "I moved to Berlin in March"
        assert len(me.recall("anything at all", k=10, preset="dense")) == 5  # every live memory
        assert me.remember("I moved to Berlin in March").action == engramdb.Action.NOOP


def test_import_twice_skips_what_is_there(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    fill(mem, clock)
    text = export_text(mem, all_scopes=True)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.import_(io.StringIO(text))
        events = copy.stats(user="alice", agent="noah").events
        counts = copy.import_(io.StringIO(text))
        assert counts == {"imported": 0, "skipped": 7, "goals": 0, "reembedded": 0}
        assert copy.stats(user="alice", agent="noah").events == events


def test_import_reports_progress(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    fill(mem, clock)
    text = export_text(mem, all_scopes=True)
    seen: list[tuple[int, int]] = []
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.import_(io.StringIO(text), progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7)


def _lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _join(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def _spoil_memory(text: str, **changes: Any) -> str:
    items = _lines(text)
    last = max(i for i, item in enumerate(items) if item["type"] == "memory")
    items[last]["memory"].update(changes)
    return _join(items)


def _spoil_event(text: str) -> str:
    items = _lines(text)
    last = max(i for i, item in enumerate(items) if item["type"] == "event")
    del items[last]["op"]
    return _join(items)


def _spoil_vector(text: str) -> str:
    items = _lines(text)
    last = max(i for i, item in enumerate(items) if item["type"] == "memory")
    items[last]["vector"] = base64.b64encode(b"\0" * 40).decode()
    return _join(items)


GARBAGE: dict[str, Callable[[str], str]] = {
    "plain text": lambda t: "hello, this is not an export\n",
    "empty": lambda t: "",
    "a number": lambda t: "42\n",
    "a list": lambda t: "[1, 2, 3]\n",
    "other format": lambda t: '{"type": "header", "format": "other/1"}\n' + t.split("\n", 1)[1],
    "no header": lambda t: t.split("\n", 1)[1],
    "truncated": lambda t: t[: len(t) - 40],
    "memory without record": lambda t: t + '{"type": "memory"}\n',
    "unknown line type": lambda t: t + '{"type": "bogus"}\n',
    "a number after the header": lambda t: t + "7\n",
    "event before any memory": lambda t: (
        t.split("\n", 1)[0] + '\n{"type": "event", "memory_id": "x", "op": "create"}\n'),
    "unknown kind": lambda t: _spoil_memory(t, kind="gossip"),
    "bad timestamp": lambda t: _spoil_memory(t, at="yesterday"),
    "missing timestamp": lambda t: _spoil_memory(t, at=None),
    "empty content": lambda t: _spoil_memory(t, content=""),
    "bad data": lambda t: _spoil_memory(t, data="{not json"),
    "event without op": _spoil_event,
    "vector of the wrong size": _spoil_vector,
    "goal without title": lambda t: t + json.dumps({"type": "goal", "goal": {
        "id": "g1", "user": "alice", "agent": "noah", "status": "active",
        "created_at": "2026-01-01T00:00:00+00:00", "updated_at": "2026-01-01T00:00:00+00:00"}})
    + "\n",
    "goal of an unknown status": lambda t: t + json.dumps({"type": "goal", "goal": {
        "id": "g1", "user": "alice", "agent": "noah", "title": "x", "status": "dreaming",
        "created_at": "2026-01-01T00:00:00+00:00", "updated_at": "2026-01-01T00:00:00+00:00"}})
    + "\n",
}


@pytest.fixture(scope="module")
def valid_export(tmp_path_factory):  # type: ignore[no-untyped-def]
    clock = FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    path = tmp_path_factory.mktemp("source") / "source.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as source:
        fill(source, clock)
        return export_text(source, all_scopes=True)


@pytest.mark.parametrize("name", list(GARBAGE))
def test_garbage_file_is_invalid_and_writes_nothing(mem, valid_export, name):  # type: ignore[no-untyped-def]
    text = GARBAGE[name](valid_export)
    kept = mem.remember("Something already here", user="alice", agent="noah").memory
    with pytest.raises(Invalid):
        mem.import_(io.StringIO(text))
    assert [s.user for s in mem.scopes()] == ["alice"]
    assert list(mem.list(layer=ALL_LAYERS, user="alice", agent="noah")) == [kept]
    assert mem.stats(user="alice", agent="noah").events == 1
    mem.remember("Still writable afterwards", user="alice", agent="noah")
    assert mem.recall("Berlin", k=5, user="alice", agent="noah")


def test_the_valid_export_imports(mem, valid_export):  # type: ignore[no-untyped-def]
    assert mem.import_(io.StringIO(valid_export))["imported"] == 7


def test_failed_import_rolls_back_earlier_records(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    """A clash found while writing (a URI taken in the target) undoes the whole import."""
    fill(mem, clock)
    text = export_text(mem, all_scopes=True)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.remember("Another name", uri="core://user/name", user="alice", agent="noah")
        with pytest.raises(engramdb.EngramError):
            copy.import_(io.StringIO(text))
        assert copy.count(layer=ALL_LAYERS, user="alice", agent="noah") == 1
        assert copy.count(user="bob") == 0
        clock.advance(days=1)
        assert copy.recall("Berlin", k=5, user="alice", agent="noah")[0].memory.content == (
            "Another name")


def test_import_keeps_timestamps_and_uses(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    fill(mem, clock)
    text = export_text(mem, user="alice", agent="noah")
    clock.advance(days=30)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.import_(io.StringIO(text))
        for rec in mem.list(layer=ALL_LAYERS, user="alice", agent="noah"):
            got = copy.get(rec.id, user="alice", agent="noah")
            assert (got.at, got.recorded_at, got.use_count, got.last_uses) == (
                rec.at, rec.recorded_at, rec.use_count, rec.last_uses)
        assert got.recorded_at < clock.now() - timedelta(days=29)


def test_goals_travel_with_the_export(mem, clock, tmp_path):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    me.remember("I moved to Berlin in March")
    trip = me.goal_start("Plan the Lisbon trip", constraints=["budget 800 EUR"],
                         open_loops=["book the flight"])
    me.goal_note(evidence=["hotel near Alfama found"])
    clock.advance(hours=1)
    visa = me.goal_start("办好签证", open_loops=["预约面谈"])   # the trip goal is paused under it
    text = export_text(mem, all_scopes=True)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        counts = copy.import_(io.StringIO(text))
        assert counts["goals"] == 2
        assert copy.goals(user="alice", agent="noah") == me.goals()
        assert copy.active_goal(user="alice", agent="noah") == visa
        assert copy.import_(io.StringIO(text))["goals"] == 0   # already there
    with engramdb.open(tmp_path / "busy.db", embedder="hashing", clock=clock) as busy:
        own = busy.goal_start("Ship the release", user="alice", agent="noah")
        assert busy.import_(io.StringIO(text))["goals"] == 2
        assert busy.active_goal(user="alice", agent="noah") == own   # one active goal a scope
        came = {g.id: g for g in busy.goals(user="alice", agent="noah")}
        assert came[visa.id].status.value == "paused" and came[trip.id] == me.goals()[0]


def test_exported_vectors_are_the_stored_bytes(mem):  # type: ignore[no-untyped-def]
    """The SQLite store exports each vector's stored float32 bytes as they are (read without
    numpy); they decode to exactly the vectors the store reads, a long memory's passages too."""
    import numpy as np

    me = mem.scope(user="alice", agent="noah")
    long = " ".join(f"Note {i}: the bees in the garden swarmed again near the old pear tree."
                    for i in range(80))
    ids = [me.remember("I moved to Berlin in March").memory.id,
           me.remember(long, kind="fact").memory.id,
           me.remember("我周末喜欢去吃火锅").memory.id]
    lines = [json.loads(line) for line in export_text(mem, user="alice", agent="noah").splitlines()]
    exported = {line["memory"]["id"]: line for line in lines if line["type"] == "memory"}
    scope = engramdb.Scope("alice", "noah")
    stored, parts = mem.store.vectors(scope, ids), mem.store.passages(scope, ids)
    assert set(parts) == {ids[1]}   # the long one is cut into passages
    for mid in ids:
        got = np.frombuffer(base64.b64decode(exported[mid]["vector"]), dtype=np.float32)
        assert got.tobytes() == np.asarray(stored[mid], dtype=np.float32).tobytes()
    rows = [np.frombuffer(base64.b64decode(row), dtype=np.float32)
            for row in exported[ids[1]]["passages"]]
    assert np.array_equal(np.vstack(rows), parts[ids[1]])
    assert "passages" not in exported[ids[0]]

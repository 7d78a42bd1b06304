"""Incremental sleep: after a scope's first sleep, a sleep visits only the memories that changed
since the last one and those whose due time has come; it ends exactly where a full sleep would."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb.dynamics.incremental import crossing, due_time
from engramdb.dynamics.strength import DEFAULT_PARAMS, weight
from engramdb.testing import FrozenClock

NO_AUTO = {"auto_sleep_importance": 0}


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO) as m:
        yield m
PEOPLE = ["Wang", "Li", "Ana", "小王", "老张"]
TOPICS = ["budget", "garden", "冰雕", "hiring"]


def script(mem: engramdb.Memory, clock: FrozenClock, full: bool, seed: int = 3) -> None:
    """Four months of a mixed life, a sleep every few days, driven by a seeded RNG."""
    rng = random.Random(seed)
    written = []
    for day in range(120):
        for n in range(rng.randint(0, 4)):
            kind = rng.choice(["event", "event", "event", "fact", "pending", "temp"])
            extra: dict[str, object] = {}
            if kind == "pending":
                extra["due_at"] = clock.now() + timedelta(days=rng.uniform(1, 20))
            if kind == "temp":
                kind, extra["expires_at"] = "fact", clock.now() + timedelta(days=rng.uniform(1, 9))
            person, topic = rng.choice(PEOPLE), rng.choice(TOPICS)
            text = f"Day {day} note {n}: {person} and the {topic}"
            written.append(mem.remember(text, kind=kind, people=[person], topics=[topic],
                                        importance=round(rng.uniform(0.2, 0.9), 2),
                                        **extra).memory.id)  # type: ignore[arg-type]
        if written and rng.random() < 0.3:
            used = rng.sample(written, min(3, len(written)))
            mem.store.record_uses(mem.default_scope, used, clock.now(), 60)
        if day % rng.choice([1, 3, 5]) == 0:
            mem.sleep(full=full)
        clock.advance(hours=rng.choice([20, 24, 30]))


def state(mem: engramdb.Memory) -> list[tuple[object, ...]]:
    layers = ["core", "archived", "deleted"]
    out = []
    for rec in mem.list(layer=layers, kind=None):
        out.append((rec.content, rec.kind.value, rec.layer.value, rec.version,
                    rec.overdue_since, len(rec.derived_from),
                    rec.metadata.get("support"), rec.metadata.get("theme")))
    return sorted(out, key=repr)


def test_incremental_sleeps_end_where_full_ones_do(tmp_path):  # type: ignore[no-untyped-def]
    ends = []
    for full in (False, True):
        clock = FrozenClock(datetime(2026, 3, 1, tzinfo=UTC))
        with engramdb.open(tmp_path / f"{full}.db", embedder="hashing", clock=clock,
                           **NO_AUTO) as mem:
            script(mem, clock, full)
            ends.append(state(mem))
            by_layer = mem.stats().by_layer
    assert ends[0] == ends[1]
    kinds = {row[1] for row in ends[0]}
    assert "gist" in kinds and by_layer["archived"] > 50 and by_layer["core"] > 20


def test_a_sleep_visits_what_changed_and_what_is_due(mem, clock):  # type: ignore[no-untyped-def]
    for i in range(50):
        mem.remember(f"Fact {i} about the garden", importance=0.5)
    first = mem.sleep()
    assert (first.mode, first.visited) == ("full", 50)
    assert (mem.sleep().mode, mem.sleep().visited) == ("incremental", 0)
    new = mem.remember("Coffee with Ana", kind="event").memory
    clock.advance(hours=1)
    report = mem.sleep()
    assert (report.mode, report.visited) == ("incremental", 1)
    assert report.phase("decay").examined == 1
    due = due_time(new, clock.now(), mem.decay_params)  # settles after one half-life
    assert due == new.recorded_at + timedelta(days=14)
    clock.advance(days=14)
    assert mem.sleep().visited == 1
    archive = new.recorded_at + timedelta(days=14 * math.log2(1 / 0.15))  # 38.32 days
    assert mem.store.due(new.scope, archive - timedelta(minutes=1)) == []
    assert mem.store.due(new.scope, archive) == [new.id]
    clock.set(archive - timedelta(minutes=1))
    assert mem.sleep().visited == 0
    clock.set(archive + timedelta(minutes=1))
    report = mem.sleep()
    assert report.phase("decay").ids("archived") == [new.id]


def test_the_due_time_never_comes_after_the_change(clock):  # type: ignore[no-untyped-def]
    """For used memories the due time is found by bisection: at most an hour early."""
    from engramdb.model import Kind, Layer, Lifecycle, Priority, Record

    now = clock.now()
    rec = Record(id="x", user="u", agent="a", content="c", kind=Kind.EVENT, uri=None,
                 priority=Priority.P3, lifecycle=Lifecycle.LOG, importance=0.5, at=now,
                 recorded_at=now, updated_at=now, layer=Layer.CORE, use_count=3,
                 last_uses=[now + timedelta(days=d) for d in (2, 9, 20)])
    later = now + timedelta(days=20)
    due = crossing(rec, 0.15, lambda w: w < 0.15, later, DEFAULT_PARAMS)
    assert due is not None
    assert weight(rec, due, DEFAULT_PARAMS) >= 0.15
    assert weight(rec, due + timedelta(hours=1), DEFAULT_PARAMS) < 0.15
    unused = rec.replace(use_count=0, last_uses=[])
    assert due > crossing(unused, 0.15, lambda w: w < 0.15, later, DEFAULT_PARAMS)  # type: ignore[operator]
    p0 = rec.replace(priority=Priority.P0)
    assert crossing(p0, 0.15, lambda w: w < 0.15, later, DEFAULT_PARAMS) is None
    p1 = rec.replace(priority=Priority.P1)  # its floor 0.3 keeps it above 0.15 for ever
    assert crossing(p1, 0.15, lambda w: w < 0.15, later, DEFAULT_PARAMS) is None


def test_changed_settings_make_the_next_sleep_full(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock, **NO_AUTO) as mem:
        mem.remember("Coffee with Ana", kind="event")
        mem.sleep()
        assert mem.sleep().mode == "incremental"
    with engramdb.open(path, embedder="hashing", clock=clock, half_life_p3_days=7,
                       **NO_AUTO) as mem:
        clock.advance(days=20)  # 0.5 ** (20 / 7) = 0.14: archived under the new half-life
        report = mem.sleep()
        assert report.mode == "full" and report.phase("decay").counts() == {"archived": 1}


def test_restore_edit_and_forget_are_seen(mem, clock):  # type: ignore[no-untyped-def]
    a = mem.remember("Coffee with Ana", kind="event").memory
    b = mem.remember("Lunch with Li", kind="event").memory
    clock.advance(days=40)
    assert sorted(mem.sleep().phase("decay").ids("archived")) == sorted([a.id, b.id])
    mem.restore(a.id)  # back in core (a restore is a use): the next sleep looks at it
    mem.forget(b.id)
    mem.update(a.id, importance=0.9)
    report = mem.sleep()
    assert report.visited == 1 and report.changes == 0
    assert mem.sleep(full=True).changes == 0  # a full sleep agrees
    assert mem.get(b.id).layer.value == "deleted"
    assert mem.store.due(a.scope, clock.now() + timedelta(days=3650)) == [a.id]


@pytest.mark.parametrize("full", [True, False])
def test_a_dropped_scope_starts_afresh(mem, full):  # type: ignore[no-untyped-def]
    mem.remember("Coffee with Ana", kind="event")
    mem.sleep(full=full)
    mem.forget_scope()
    assert mem.store.sleep_state(mem.default_scope).last_at is None
    assert mem.store.due(mem.default_scope, mem.clock.now() + timedelta(days=999)) == []


def test_the_guards_hints_spare_the_sleep_a_search(tmp_path, clock):  # type: ignore[no-untyped-def]
    """A sleep right after writes takes what the write guard found near each memory instead
    of searching again; a memory written past the guard (an import) is searched. The same end
    as a sleep in a new process, which has no hints."""
    from engramdb import Draft
    from engramdb.ids import new_id
    from engramdb.write.prepare import build_record, embed_text, index_text

    animals = ["bees", "goats", "hens", "cats", "ducks", "snails", "owls", "crabs"]
    ends, searched = [], []
    for reopen in (False, True):
        path = tmp_path / f"{reopen}.db"
        writer = engramdb.open(path, embedder="hashing", clock=clock, **NO_AUTO)
        me = writer.scope(user="u")
        me.remember("The garden gate is green", kind="fact")
        writer.sleep(user="u")   # the first sleep is full; the next ones are incremental
        me.remember_many([Draft(f"Wang keeps {a} in the garden shed", kind="fact",
                                people=["Wang"]) for a in animals])
        twin = build_record(Draft("Wang keeps bees in the garden shed!", kind="fact",
                                  people=["Wang"]), writer._scope("u", None),
                            new_id(clock.now()), clock.now(), 65536)
        writer.store.insert(twin, index_text(twin), writer._embed([embed_text(twin)])[0])
        if reopen:   # a new process has no hints; the writer has
            writer.close()
            writer = engramdb.open(path, embedder="hashing", clock=clock, **NO_AUTO)
        rows: list[int] = []
        search = writer.store.search_vector_many

        def counted(scope, vectors, *args, _search=search, _rows=rows):  # type: ignore[no-untyped-def]
            _rows.append(len(vectors))
            return _search(scope, vectors, *args)

        writer.store.search_vector_many = counted  # type: ignore[method-assign]
        assert writer.sleep(user="u").mode == "incremental"
        searched.append(sum(rows))
        ends.append(sorted((r.content, r.layer.value, r.version)
                           for r in writer.list(layer=["core", "archived"], user="u")))
        writer.close()
    assert ends[0] == ends[1]
    assert ("Wang keeps bees in the garden shed!", "archived", 2) in ends[0]   # merged
    assert searched == [1, len(animals) + 1]

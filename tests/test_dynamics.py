"""Strength: half-lives, floors, P0, importance, spacing, Petrov's approximation, explain()."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

import engramdb
from engramdb import ConfigError, NotFound
from engramdb.dynamics.strength import (
    KEPT_USES,
    Strength,
    activation,
    activation_exact,
    association_factor,
    decay_rate,
    half_life,
    weight,
)
from engramdb.model import Kind, Lifecycle, Priority, Record

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def record(kind: Kind = Kind.EVENT, priority: Priority = Priority.P3,
           uses: list[datetime] | None = None, **changes: object) -> Record:
    """A record as the store keeps it: the last 8 use times and a count."""
    uses = sorted(uses or [])
    rec = Record(id="m1", user="u", agent="a", content="x", kind=kind, uri=None,
                 priority=priority, lifecycle=Lifecycle.LOG, importance=0.5, at=T0,
                 recorded_at=T0, updated_at=T0, use_count=len(uses),
                 last_uses=uses[-KEPT_USES:])
    return rec.replace(**changes)


# ---------------------------------------------------------------- half-lives and floors


@pytest.mark.parametrize(("kind", "priority", "days", "floor"), [
    ("emotion", "P1", 365, 0.3), ("fact", "P2", 90, 0.1), ("event", "P3", 14, 0.0),
])
def test_unused_strength_halves_in_its_half_life(mem, clock, kind, priority, days, floor):  # type: ignore[no-untyped-def]
    rec = mem.remember(f"a {kind} to keep", kind=kind, importance=0.5).memory  # no surprise gate
    assert rec.priority.value == priority
    assert mem.explain(rec.id).weight == 1.0
    clock.advance(days=days)
    first = mem.explain(rec.id)
    assert first.weight == pytest.approx(0.5, rel=0.01)
    assert first.half_life_days == days and first.floor == floor
    clock.advance(days=days)
    assert mem.explain(rec.id).weight == pytest.approx(max(0.25, floor), rel=0.01)
    clock.advance(days=8 * days)  # ten half-lives: down to the floor, never below it
    assert mem.explain(rec.id).weight == pytest.approx(max(2 ** -10, floor), rel=0.01)


def test_half_lives_come_from_config(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       half_life_p3_days=7, archive_below=0.05) as mem:
        rec = mem.remember("a short-lived event", kind="event").memory
        clock.advance(days=7)
        strength = mem.explain(rec.id)
        assert strength.weight == pytest.approx(0.5, rel=0.01)
        assert strength.archive_below == 0.05


def test_p0_never_fades(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("My name is Li", kind="identity").memory
    assert rec.priority == Priority.P0
    for _ in range(10):
        clock.advance(days=365)
        mem.sleep()
    strength = mem.explain(rec.id)
    assert (strength.weight, strength.retention, strength.layer) == (1.0, 1.0, "core")
    assert strength.half_life_days is None and not strength.archivable
    assert mem.get(rec.id) == rec  # not touched by ten years of sleeps


def test_importance_and_emotion_slow_decay_without_a_floor() -> None:
    plain = record()
    important = record(importance=1.0)
    moved = record(intensity=1.0)
    trivial = record(importance=0.0)
    assert half_life(plain) == 14
    assert half_life(important) == pytest.approx(21) and half_life(moved) == pytest.approx(21)
    assert half_life(trivial) == pytest.approx(7)
    at = T0 + timedelta(days=21)
    assert weight(important, at) == pytest.approx(0.5)
    assert weight(trivial, at) < weight(plain, at) < weight(important, at)
    later = T0 + timedelta(days=3650)  # no permanent floor: all of them fade out
    both = record(importance=1.0, intensity=1.0)
    assert weight(both, later) < 1e-20


def test_association_slows_decay_by_at_most_ten_percent() -> None:
    assert association_factor(0) == 1.0
    assert 1.0 < association_factor(1) < association_factor(100) <= 1.1
    at = T0 + timedelta(days=14)
    assert weight(record(), at, links=1000) == pytest.approx(0.5 ** (1 / 1.1))


# ---------------------------------------------------------------- use, spacing, activation


def test_spaced_reviews_beat_massed_ones_sixty_days_later(mem, clock):  # type: ignore[no-untyped-def]
    massed = mem.remember("the harbour walk with Oskar", kind="event").memory
    spaced = mem.remember("the violin lesson with Priya", kind="event").memory
    start = clock.now()
    for _ in range(4):  # four reviews two minutes apart
        clock.advance(minutes=2)
        assert mem.recall("harbour walk Oskar", k=1)[0].memory.id == massed.id
    for day in (12, 24, 36, 48):  # four reviews twelve days apart
        clock.set(start + timedelta(days=day))
        assert mem.recall("violin lesson Priya", k=1)[0].memory.id == spaced.id
    clock.set(start + timedelta(days=60))  # 60 days after the start
    at_day_60 = mem.explain(massed.id), mem.explain(spaced.id)
    clock.set(start + timedelta(days=108))  # 60 days after the last spaced review
    spaced_after = mem.explain(spaced.id)
    assert at_day_60[0].uses == at_day_60[1].uses == 4
    assert at_day_60[0].weight < at_day_60[1].weight
    # each measured 60 days after its own last review: massed 0.34, spaced 0.73
    massed_after = weight(mem.get(massed.id), start + timedelta(minutes=8, days=60),
                          mem.decay_params)
    assert massed_after == pytest.approx(0.34, abs=0.01)
    assert spaced_after.weight == pytest.approx(0.73, abs=0.01)


def test_a_use_strengthens_and_a_confirmation_is_a_use(mem, clock):  # type: ignore[no-untyped-def]
    used = mem.remember("Dinner at the ramen bar with Kenji", kind="event").memory
    twin = mem.remember("Lunch at the taco stand with Lena", kind="event").memory
    clock.advance(days=10)
    mem.recall("ramen bar Kenji", k=1)
    clock.advance(days=14)
    assert mem.explain(used.id).weight > mem.explain(twin.id).weight
    fact = mem.remember("I take the 8:15 train").memory
    clock.advance(days=30)
    assert mem.remember("I take the 8:15 train").action == engramdb.Action.NOOP
    assert mem.explain(fact.id).uses == 1


def test_uses_within_a_minute_count_once(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("the spare key is under the blue pot").memory
    for _ in range(5):
        mem.recall("spare key blue pot", k=1)
        clock.advance(seconds=10)
    assert mem.explain(rec.id).uses == 1


def test_exact_for_the_last_eight_uses() -> None:
    uses = [T0 + timedelta(days=d) for d in (1, 3, 7, 8, 20, 21, 40, 41)]
    now = T0 + timedelta(days=60)
    rec = record(uses=uses)
    assert activation(rec, now) == pytest.approx(activation_exact([T0, *uses], now, 0.6))


def _histories() -> dict[str, list[datetime]]:
    rnd = random.Random(7)
    days = {
        "every 3 days x50": [3.0 * i for i in range(1, 51)],
        "daily x200": [float(i) for i in range(1, 201)],
        "weekly bursts of 5": [7.0 * w + k * 2 / 1440 for w in range(1, 11) for k in range(5)],
        "40 within an hour": [k * 2 / 1440 for k in range(1, 41)],
        "100 at random in a year": sorted(rnd.uniform(0, 365) for _ in range(100)),
    }
    return {name: [T0 + timedelta(days=d) for d in ds] for name, ds in days.items()}


@pytest.mark.parametrize("name", list(_histories()))
@pytest.mark.parametrize("kind", [Kind.PROCEDURE, Kind.FACT, Kind.EVENT])
def test_petrov_stays_within_half_a_unit_of_the_exact_sum(name, kind):  # type: ignore[no-untyped-def]
    uses = _histories()[name]
    rec = record(kind=kind, uses=uses)
    assert rec.use_count == len(uses) > KEPT_USES
    for later in (0.5, 30, 180):
        now = uses[-1] + timedelta(days=later)
        exact = activation_exact([T0, *uses], now, decay_rate(kind))
        assert abs(activation(rec, now) - exact) < 0.5, (name, later)


# ---------------------------------------------------------------- explain and bad input


def test_explain_shows_every_term(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("went to the Tate with Ravi", kind="event", importance=0.8).memory
    clock.advance(days=20)
    got = mem.explain(rec.id)
    assert isinstance(got, Strength)
    assert (got.layer, got.priority, got.kind, got.decay_rate) == ("core", "P3", "event", 0.6)
    assert got.effective_age_days == pytest.approx(20)
    assert got.effective_half_life_days == pytest.approx(
        got.half_life_days * got.importance_factor * got.emotion_factor
        * got.association_factor)
    assert got.curve == pytest.approx(0.5 ** (20 / got.effective_half_life_days))
    assert got.weight == max(got.floor, got.curve)
    assert 0 < got.retention < 1
    assert set(got.to_dict()) >= {"layer", "retention", "decay_rate", "priority",
                                  "half_life_days", "weight", "floor", "activation"}
    assert "weight" in str(got)
    assert mem.scope(user="default").explain(rec.id) == got


def test_explain_an_unknown_id_is_not_found(mem):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound):
        mem.explain("01NOSUCHMEMORY0000000000000")


@pytest.mark.parametrize("setting", [
    {"half_life_p3_days": -1}, {"half_life_p2_days": 0}, {"half_life_p1_days": 1e9},
    {"half_life_p1_days": float("nan")}, {"half_life_p2_days": "ninety"},
    {"archive_below": -0.1}, {"archive_below": 1.5}, {"archive_below": float("inf")},
])
def test_absurd_decay_settings_are_config_errors(tmp_path, setting):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError):
        engramdb.open(tmp_path / "m.db", embedder="hashing", **setting)


def test_absurd_decay_settings_from_the_environment(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ENGRAMDB_HALF_LIFE_P2_DAYS", "-5")
    with pytest.raises(ConfigError, match="half_life_p2_days"):
        engramdb.open(tmp_path / "m.db", embedder="hashing")


def test_links_slow_decay_by_at_most_a_tenth(mem, clock):  # type: ignore[no-untyped-def]
    plain = mem.remember("Lunch at the canal cafe", kind="event").memory
    linked = mem.remember("Dinner at the harbour", kind="event").memory
    friends = [mem.remember(f"Friend note {i}", kind="fact").memory for i in range(3)]
    for friend in friends:
        mem.link(linked.id, friend.id, "related", 1.0)
    a, b = mem.explain(plain.id), mem.explain(linked.id)
    assert a.association_factor == 1.0 and 1.09 < b.association_factor <= 1.1
    assert abs(b.effective_half_life_days / a.effective_half_life_days
               - b.association_factor) < 1e-9
    for _ in range(120):  # find a day where only the unlinked one is below the threshold
        clock.advance(days=1)
        if mem.explain(plain.id).weight < 0.15 <= mem.explain(linked.id).weight:
            break
    else:
        raise AssertionError("the link never made a difference")
    report = mem.sleep(phase="decay").phase("decay")
    assert report.ids("archived") == [plain.id]

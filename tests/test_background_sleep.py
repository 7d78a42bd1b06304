"""Sleep off the writer's path (issue 31): with ``sleep_in_background`` (on in `serve` and
`mcp`) the write that reaches the importance threshold marks its scope and returns, and the
Memory's sleeper thread sleeps it; with ``sleep_every`` every scope with activity sleeps once a
period of the Memory's clock. Rounds are driven by ``tick()`` after moving the clock."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb.config import Config, parse_every, server_settings
from engramdb.errors import ConfigError


def open_(path: Path, clock, **settings):  # type: ignore[no-untyped-def]
    return engramdb.open(path, embedder="hashing", clock=clock, **settings)


def test_the_write_marks_and_the_thread_sleeps(tmp_path, clock):  # type: ignore[no-untyped-def]
    with open_(tmp_path / "m.db", clock, sleep_in_background=True,
               auto_sleep_importance=2) as mem:
        ran_on: list[str] = []
        real = mem.sleeper._sleep

        def watched(scope):  # type: ignore[no-untyped-def]
            ran_on.append(threading.current_thread().name)
            return real(scope)

        mem.sleeper._sleep = watched
        first = mem.remember("Anna likes green tea", importance=1.0)
        second = mem.remember("小王喜欢乌龙茶", importance=1.0)
        assert "auto_sleep" not in first.evidence
        assert second.evidence["auto_sleep"] == {"importance_written": 2.0, "threshold": 2,
                                                 "scheduled": "background"}
        assert mem.sleeper.idle(timeout=60)
        assert ran_on == ["engramdb-sleep"]           # not the writer's thread
        state = mem.store.sleep_state(mem.default_scope)
        assert state.last_at == clock.now() and state.importance == 0.0
        assert mem.last_auto_sleep is not None and mem.last_auto_sleep.visited == 2


def test_without_the_setting_the_write_sleeps_inline(tmp_path, clock):  # type: ignore[no-untyped-def]
    with open_(tmp_path / "m.db", clock, auto_sleep_importance=1) as mem:
        result = mem.remember("Li moved to Hangzhou", importance=1.0)
        assert result.evidence["auto_sleep"]["mode"] == "full"
        assert not mem.sleeper.running   # no thread in a plain library process


def test_a_scope_left_due_is_slept_by_the_next_process(tmp_path, clock):  # type: ignore[no-untyped-def]
    db = tmp_path / "m.db"
    with open_(db, clock, sleep_in_background=True, auto_sleep_importance=2) as mem:
        mem.sleeper.close()   # the process stops before its thread gets to the scope
        mem.remember("Fact one on birds", importance=1.0)
        assert mem.remember("关于蜜蜂的第二条", importance=1.0).evidence["auto_sleep"]
        scope = mem.default_scope
    clock.advance(minutes=5)
    with open_(db, clock, sleep_in_background=True, auto_sleep_importance=2) as mem:
        assert mem.store.sleep_state(scope).last_at is None
        mem.sleeper.tick()   # the first round finds what the last process left due
        assert mem.store.sleep_state(scope).last_at == clock.now()


def test_every_scope_with_activity_sleeps_once_a_period(tmp_path, clock):  # type: ignore[no-untyped-def]
    with open_(tmp_path / "m.db", clock, sleep_every="6h") as mem:
        assert mem.sleeper.running
        mem.sleeper.close()   # the test drives the rounds itself
        alice, bob = mem.scope(user="alice"), mem.scope(user="bob")
        alice.remember("Alice plays chess on Sundays")
        bob.remember("鲍勃周末下围棋")
        slept = lambda s: mem.store.sleep_state(mem._scope(s.user, s.agent)).last_at  # noqa: E731

        assert mem.sleeper.tick() == []          # the period has not come round
        clock.advance(hours=6)
        done = mem.sleeper.tick()
        assert {(r.user, r.mode) for r in done} == {("alice", "full"), ("bob", "full")}
        assert slept(alice) == slept(bob) == clock.now()
        assert mem.sleeper.tick() == []          # once a period
        clock.advance(hours=6)
        assert mem.sleeper.tick() == []          # nothing happened since: nothing to do
        alice.remember("Alice started learning Go", kind="event")
        clock.advance(hours=6)
        (only,) = mem.sleeper.tick()
        assert (only.user, only.mode) == ("alice", "incremental")
        assert slept(alice) == clock.now() and slept(bob) < clock.now()


def test_a_due_memory_counts_as_activity(tmp_path, clock):  # type: ignore[no-untyped-def]
    with open_(tmp_path / "m.db", clock, sleep_every="1h") as mem:
        mem.sleeper.close()
        mem.remember("Parking spot B12 today, 今天的车位", kind="event",
                     expires_at=clock.now() + timedelta(minutes=150))
        clock.advance(hours=1)
        assert len(mem.sleeper.tick()) == 1      # written since: sleeps
        clock.advance(hours=1)
        assert mem.sleeper.tick() == []          # nothing changed, nothing due yet
        clock.advance(hours=1)                   # past its expiry: due
        (report,) = mem.sleeper.tick()
        assert report.phase("tidy").counts()


@pytest.mark.parametrize(("text", "seconds"), [("off", 0.0), ("", 0.0), ("0", 0.0),
                                               ("90s", 90.0), ("30m", 1800.0), ("6h", 21600.0),
                                               ("1d", 86400.0), ("3600", 3600.0),
                                               (" 2H ", 7200.0)])
def test_periods(text, seconds):  # type: ignore[no-untyped-def]
    assert parse_every(text) == seconds


@pytest.mark.parametrize("bad", ["soon", "10s", "-1h", "1w", "nanh", "infh", "六小时"])
def test_bad_periods_are_config_errors(bad, monkeypatch):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="sleep_every"):
        Config(sleep_every=bad)
    monkeypatch.setenv("ENGRAMDB_SLEEP_EVERY", bad)
    with pytest.raises(ConfigError, match="sleep_every"):
        engramdb.open(":memory:", embedder="hashing")


def test_a_bad_period_type_and_flag(monkeypatch):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="sleep_every"):
        Config(sleep_every=6)  # type: ignore[arg-type]
    monkeypatch.setenv("ENGRAMDB_SLEEP_IN_BACKGROUND", "sometimes")
    with pytest.raises(ConfigError, match="yes/no"):
        Config.load()


def test_servers_sleep_in_the_background_unless_told_not_to(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    from engramdb.mcp.door import Door, Options

    monkeypatch.delenv("ENGRAMDB_SLEEP_IN_BACKGROUND", raising=False)
    assert server_settings() == {"sleep_in_background": True}
    door = Door(Options(db=str(tmp_path / "m.db"), embedder="hashing"))
    try:
        assert door.memory().config.sleep_in_background is True
    finally:
        door.close()
    from engramdb.server.app import app_from_env

    monkeypatch.setenv("ENGRAMDB_URL", str(tmp_path / "m.db"))
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    monkeypatch.setenv("ENGRAMDB_SLEEP_EVERY", "6h")
    served = app_from_env().state.engram.memory   # what each `engramdb serve` worker opens
    try:
        assert served.config.sleep_in_background is True and served.sleeper.running
        assert served.sleeper.every == timedelta(hours=6)
    finally:
        served.close()
    monkeypatch.setenv("ENGRAMDB_SLEEP_IN_BACKGROUND", "0")
    assert server_settings() == {}
    assert Config.load(**server_settings()).sleep_in_background is False


def test_serve_refuses_a_bad_period_before_starting(tmp_path):  # type: ignore[no-untyped-def]
    from engramdb.cli import app

    got = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "m.db"), "--create",
                                   "--embedder", "hashing", "--sleep-every", "often"])
    assert got.exit_code == 6 and "sleep_every" in got.output
    assert "Traceback" not in got.output

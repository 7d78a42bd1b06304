"""Prefetch (attention/prefetch.py): pending items due and memories dated within
Config.coming_up_days, and the active goal's topics, warmed into context()'s "Coming up"
section before anyone asks, by the injectable clock; 即将到来 in a scope written in Chinese.
Through a real `engramdb serve` process too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

import engramdb
from engramdb import Config, ConfigError
from live_server import auth, new_key, serve_process

QUIET = "what should I cook tonight?"   # asks about none of it


def section(ctx, name):  # type: ignore[no-untyped-def]
    return next((s for s in ctx.sections if s.name == name), None)


def test_pending_items_come_up_as_their_due_date_nears(me, clock):  # type: ignore[no-untyped-def]
    # the clock starts at 2026-03-01 12:00
    me.remember("Renew the passport", kind="pending", due_at="2026-03-12T00:00:00Z")
    me.remember("Call mom tomorrow", kind="pending")   # due by the end of 03-02 (03-03 00:00)
    me.remember("Send the tax return", kind="pending")          # no due date: never here
    ctx = me.context(QUIET, budget=800, track=False)
    assert section(ctx, "coming_up").lines == ["- [due 2026-03-03] Call mom tomorrow"]
    assert "## Coming up\n- [due 2026-03-03] Call mom tomorrow" in ctx.text
    clock.advance(days=5)
    lines = section(me.context(QUIET, budget=800, track=False), "coming_up").lines
    assert lines == ["- [overdue, due 2026-03-03] Call mom tomorrow",
                     "- [due 2026-03-12] Renew the passport"]
    assert all("tax" not in line for line in lines)


def test_dated_memories_ahead_come_up_and_past_ones_do_not(me, clock):  # type: ignore[no-untyped-def]
    now = clock.now()
    me.remember("Dentist appointment at 3 pm", kind="event", at=now + timedelta(days=2))
    me.remember("Anna's wedding in Porto", kind="event", at=now + timedelta(days=20))
    me.remember("We hiked the Brocken", kind="event", at=now - timedelta(days=2))
    lines = section(me.context(QUIET, budget=800, track=False), "coming_up").lines
    assert lines == ["- [2026-03-03] Dentist appointment at 3 pm"]
    clock.advance(days=14)
    lines = section(me.context(QUIET, budget=800, track=False), "coming_up").lines
    assert lines == ["- [2026-03-21] Anna's wedding in Porto"]
    clock.advance(days=10)
    assert section(me.context(QUIET, budget=800, track=False), "coming_up") is None


def test_the_active_goals_topics_are_warmed(me):  # type: ignore[no-untyped-def]
    me.remember("The Lisbon flat has a balcony facing the river", kind="fact")
    me.remember("Lisbon trams stop running at midnight", kind="fact")
    me.remember("My cat is called Tilly", kind="fact")
    assert section(me.context(QUIET, budget=800, track=False), "coming_up") is None
    me.goal_start("Plan the Lisbon trip")
    ctx = me.context(QUIET, budget=800, track=False)
    lines = section(ctx, "coming_up").lines
    assert sorted(lines[:2]) == [            # what the goal is about first (recall's order)
        "- [goal: Plan the Lisbon trip] Lisbon trams stop running at midnight",
        "- [goal: Plan the Lisbon trip] The Lisbon flat has a balcony facing the river"]
    assert ctx.text.count("Lisbon trams") == 1     # not again among the relevant memories
    me.goal_done()
    assert section(me.context(QUIET, budget=800, track=False), "coming_up") is None


def test_in_chinese_and_within_the_budget(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        li = mem.scope(user="li")
        li.remember("明天给妈妈打电话", kind="pending")
        li.remember("我住在北京", kind="fact")
        li.remember("北京的公寓有一个朝南的阳台", kind="fact")
        li.goal_start("北京的公寓")
        ctx = li.context("今晚吃什么？", budget=800, track=False)
        s = section(ctx, "coming_up")
        assert s.title == "即将到来" and "## 即将到来\n" in ctx.text
        assert s.lines[0] == "- [截止 2026-03-03] 明天给妈妈打电话"
        assert any(line.startswith("- [目标：北京的公寓] ") for line in s.lines[1:])
        small = li.context("今晚吃什么？", budget=80, track=False)
        assert "明天给妈妈打电话" in small.text               # the first item coming up stays
        assert small.cut and small.tokens <= 80


def test_off_and_bad_settings(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       config=Config(coming_up_days=0)) as mem:
        mem.remember("Call mom tomorrow", kind="pending")
        assert "Coming up" not in mem.context(QUIET, track=False).text
    for bad in (-1, float("inf"), float("nan"), "7", True, None):
        with pytest.raises(ConfigError, match="coming_up_days"):
            Config(coming_up_days=bad)


def test_served_context_has_the_coming_up_section(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "m.db"
    soon = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0)
    with engramdb.open(db, embedder="hashing") as mem:
        mem.remember("Renew the passport", kind="pending", due_at=soon)
        key = new_key(mem, "write", user="default", agent="default")
    with serve_process(db) as url, httpx.Client(base_url=url, headers=auth(key)) as http:
        r = http.post("/v1/context", json={"query": QUIET, "budget": 400, "track": False})
        assert r.status_code == 200
        got = {s["name"]: s for s in r.json()["sections"]}
        assert got["coming_up"]["lines"] == [f"- [due {soon.date()}] Renew the passport"]
        assert got["coming_up"]["title"] == "Coming up"

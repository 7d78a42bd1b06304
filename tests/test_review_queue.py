"""The "still true?" queue (dynamics/stilltrue.py): facts and preferences gone unconfirmed past
a period that grows with their priority and importance are queued; stating one again, a
tracked recall and a confirmation take it off until the period passes again. Shown in boot
and context under a heading in the scope's language, and reached from the CLI, a real
`engramdb serve` process, a real MCP stdio server and the web page (real Chromium)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Config, ConfigError, Conflict, Invalid, NotFound
from engramdb.cli import app
from engramdb.dynamics.stilltrue import period_days
from engramdb.testing import FrozenClock
from live_server import auth, new_key, serve_process, thread_server
from test_web import ARGS, CHROMIUM, WAIT_MS
from test_web import pytestmark as web

BASE = 180.0   # Config.still_true_days' default


def ids(queue):  # type: ignore[no-untyped-def]
    return [s.memory.id for s in queue]


def test_only_old_unconfirmed_facts_and_preferences_are_queued(me, clock):  # type: ignore[no-untyped-def]
    fact = me.remember("I live in Berlin", kind="fact", importance=0.5).memory
    pref = me.remember("我喜欢喝绿茶", kind="preference", importance=0.5).memory
    me.remember("We went hiking on the Brocken", kind="event", importance=0.5)
    me.remember("Renew the passport", kind="pending", importance=0.5)
    assert period_days(fact, BASE) == pytest.approx(BASE)   # P2 at importance 0.5
    clock.advance(days=BASE - 1)
    assert me.review_queue() == []
    clock.advance(days=2)
    queue = me.review_queue()
    assert sorted(ids(queue)) == sorted([fact.id, pref.id])    # no event, no pending item
    assert all(s.queued and 0.5 <= s.doubt < 0.51 for s in queue)
    assert me.review_queue(k=1) == queue[:1]


def test_the_period_grows_with_priority_and_importance(me, clock):  # type: ignore[no-untyped-def]
    low = me.remember("My desk is by the window", kind="fact", importance=0.2).memory
    mid = me.remember("I work at Tyrell", kind="fact", importance=0.5).memory
    high = me.remember("I am allergic to penicillin", kind="fact", importance=1.0).memory
    core = me.remember("My blood type is A", kind="fact", importance=0.6, priority="P1").memory
    periods = [period_days(r, BASE) for r in (low, mid, high, core)]
    assert periods[0] < periods[1] < periods[2] and periods[1] < periods[3]
    clock.advance(days=200)
    assert ids(me.review_queue()) == [low.id, mid.id]     # the longest overdue first
    clock.advance(days=400)
    assert ids(me.review_queue()) == [low.id, mid.id, high.id, core.id]


def test_confirm_restating_and_a_tracked_recall_take_a_fact_off(me, clock):  # type: ignore[no-untyped-def]
    city = me.remember("I live in Berlin", kind="fact", importance=0.5).memory
    job = me.remember("I work at Tyrell", kind="fact", importance=0.5).memory
    tea = me.remember("I prefer green tea", kind="preference", importance=0.5).memory
    clock.advance(days=200)
    assert sorted(ids(me.review_queue())) == sorted([city.id, job.id, tea.id])
    me.recall("where do I work?", k=1, track=False)            # only looking: still queued
    assert len(me.review_queue()) == 3
    done = me.confirm(city.id)
    assert done.last_confirmed == clock.now() and not done.queued and done.doubt == 0
    assert [v.op for v in me.history(city.id)] == ["create", "confirm"]
    me.remember("I work at Tyrell", kind="fact")               # stated again
    me.recall("green tea", k=1)                                # recalled and used
    assert me.review_queue() == []
    clock.advance(days=BASE + 1)                               # the period passes again
    assert sorted(ids(me.review_queue())) == sorted([city.id, job.id, tea.id])


def test_confirm_with_new_words_updates_then_confirms(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("The standup is at 9:15", kind="fact").memory
    clock.advance(days=400)
    done = me.confirm(rec.id[:12], content="The standup is at 9:30")
    assert done.memory.content == "The standup is at 9:30" and not done.queued
    assert [v.op for v in me.history(rec.id)] == ["create", "update", "confirm"]
    assert me.get(rec.id).content == "The standup is at 9:30"


def test_two_memories_on_one_file_see_each_others_confirmations(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Each Memory keeps the scope's facts in step with the event log, not with itself."""
    path = tmp_path / "shared.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as one, \
            engramdb.open(path, embedder="hashing", clock=clock) as two:
        rec = one.remember("I live in Berlin", kind="fact").memory
        clock.advance(days=400)
        assert ids(one.review_queue()) == ids(two.review_queue()) == [rec.id]
        two.confirm(rec.id)
        assert one.review_queue() == [] and one.boot().still_true == []
        two.forget(rec.id)
        clock.advance(days=400)
        assert one.review_queue() == []


def test_bad_input(me, clock, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin", kind="fact").memory
    for k in (0, -1, 1001, "3", True, 2.5, None):
        with pytest.raises(Invalid, match="k must be"):
            me.review_queue(k=k)
    with pytest.raises(NotFound):
        me.confirm("01NOSUCHMEMORY0000000000000")
    with pytest.raises(Invalid):
        me.confirm("")
    for content in ("", "   ", 5):
        with pytest.raises(Invalid):
            me.confirm(rec.id, content=content)
    assert [v.op for v in me.history(rec.id)] == ["create"]    # nothing half-written
    assert me.get(rec.id).content == "I live in Berlin"
    moved = me.remember("I moved to Oslo", kind="fact")
    assert moved.action.value == "supersede" and me.get(rec.id).invalid_at is not None
    with pytest.raises(Conflict, match="superseded"):            # confirm the new value
        me.confirm(rec.id)
    newer = moved.memory
    me.forget(newer.id)
    with pytest.raises(Conflict, match="forgotten"):
        me.confirm(newer.id)
    for bad in ({"still_true_days": -1}, {"still_true_days": float("nan")},
                {"still_true_days": "90"}, {"still_true_shown": 101},
                {"still_true_shown": True}, {"coming_up_days": -0.5}):
        with pytest.raises(ConfigError):
            Config(**bad)
    monkeypatch.setenv("ENGRAMDB_STILL_TRUE_DAYS", "soon")
    with pytest.raises(ConfigError, match="ENGRAMDB_STILL_TRUE_DAYS"):
        Config.load()


def test_boot_and_context_ask_in_the_scope_language(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        en, zh = mem.scope(user="ann"), mem.scope(user="li")
        city = en.remember("I live in Berlin", kind="fact").memory
        zcity = zh.remember("我住在北京", kind="fact").memory
        zh.remember("我喜欢喝绿茶", kind="preference")
        zh.remember("I like jazz", kind="preference")
        assert en.boot().still_true == [] and "Still true" not in en.context("hi").text
        clock.advance(days=400)
        boot = en.boot()
        assert [r.id for r in boot.still_true] == [city.id]
        assert boot.still_true_title == "Still true?"
        ctx = en.context("what about the weekend?", budget=800, track=False)
        assert f"## Still true?\n- I live in Berlin (last confirmed 2026-03-01; id {city.id})" \
            in ctx.text
        zboot = zh.boot()
        assert zboot.still_true_title == "仍然属实吗？" and len(zboot.still_true) == 3
        zctx = zh.context("周末做什么？", budget=800, track=False)
        assert "## 仍然属实吗？\n" in zctx.text
        assert f"- 我住在北京（上次确认 2026-03-01；id {zcity.id}）" in zctx.text
        section = next(s for s in zctx.sections if s.name == "still_true")
        assert section.title == "仍然属实吗？" and len(section.lines) == 3
        assert zh.boot(budget=8).still_true == []               # the budget decides
    for off in ({"still_true_shown": 0}, {"still_true_days": 0}):
        with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                           config=Config(**off)) as mem:
            assert mem.scope(user="ann").boot().still_true == []
            assert "Still true" not in mem.scope(user="ann").context("hi", track=False).text


def old_store(path: Path) -> tuple[str, str]:
    """A file with one fact stated in 2020 and one stated now; returns their ids."""
    with engramdb.open(path, embedder="hashing") as mem:
        old = mem.remember("I live in Berlin", kind="fact", at="2020-01-01").memory.id
        new = mem.remember("I prefer green tea", kind="preference").memory.id
    return old, new


def test_cli_review_still_true_and_confirm(tmp_path):  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    old, _ = old_store(Path(db))
    env = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}
    run = CliRunner()

    def cli(*args: str, code: int = 0):  # type: ignore[no-untyped-def]
        r = run.invoke(app, ["--db", db, *args], env=env)
        assert r.exit_code == code, (r.stdout, r.stderr)
        return r

    queue = json.loads(cli("review", "--still-true", "--json").stdout)
    assert [x["id"] for x in queue] == [old] and queue[0]["queued"] is True
    assert "I live in Berlin" in cli("review", "--still-true").stdout
    done = json.loads(cli("confirm", old, "--json").stdout)
    assert done["id"] == old and done["queued"] is False
    assert "nothing to ask about" in cli("review", "--still-true").stderr
    assert json.loads(cli("review", "--still-true", "--json").stdout) == []
    assert "error:" in cli("review", "--still-true", "-k", "0", code=4).stderr
    assert "error:" in cli("confirm", old, "--content", "", code=4).stderr
    assert "error:" in cli("confirm", "01NOSUCHMEMORY0000000000000", code=3).stderr


def test_http_still_true_and_confirm_on_a_served_file(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "m.db"
    old, _ = old_store(db)
    with engramdb.open(db, embedder="hashing") as mem:
        key = new_key(mem, "write", user="default", agent="default")
    with serve_process(db) as url, httpx.Client(base_url=url, headers=auth(key)) as http:
        r = http.get("/v1/review/still-true")
        assert r.status_code == 200 and [x["id"] for x in r.json()["queue"]] == [old]
        for k in ("0", "1001", "x"):
            assert http.get("/v1/review/still-true", params={"k": k}).status_code in (400, 422)
        assert http.post(f"/v1/memories/{old}/confirm", json={"content": 5}).status_code == 422
        assert http.post(f"/v1/memories/{old}/confirm", json={"other": 1}).status_code == 422
        assert http.post(f"/v1/memories/{old}/confirm", json={"content": ""}).status_code \
            in (400, 422)
        assert http.post("/v1/memories/01NOSUCHMEMORY0000000000000/confirm").status_code == 404
        r = http.post(f"/v1/memories/{old}/confirm", json={"content": "I live in Potsdam"})
        assert r.status_code == 200 and r.json()["content"] == "I live in Potsdam"
        assert http.get("/v1/review/still-true").json()["queue"] == []
        boot = http.get("/v1/boot").json()
        assert boot["still_true"] == [] and boot["still_true_title"] == "Still true?"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_review_queue_and_confirm(tmp_path):  # type: ignore[no-untyped-def]
    from test_mcp import fails, ok, stdio

    db = tmp_path / "m.db"
    old, _ = old_store(db)
    async with stdio(db) as c:
        queue = await ok(c, "review_queue")
        assert [x["id"] for x in queue["queue"]] == [old]
        assert "I live in Berlin" in queue["_text"]
        assert "k" in await fails(c, "review_queue", k=0)
        await fails(c, "confirm", id="01NOSUCHMEMORY0000000000000")
        await fails(c, "confirm", id=old, content="")
        done = await ok(c, "confirm", id=old)
        assert done["id"] == old and done["queued"] is False
        assert (await ok(c, "review_queue"))["queue"] == []
        boot = await ok(c, "boot")
        assert boot["still_true"] == []


@web
def test_the_web_page_confirms_updates_and_forgets(tmp_path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    clock = FrozenClock(datetime(2026, 3, 1, tzinfo=UTC))
    mem = engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock)
    me = mem.scope(user="alice", agent="noah")
    city = me.remember("I live in Berlin", kind="fact").memory
    tea = me.remember("我喜欢喝绿茶", kind="preference").memory
    job = me.remember("I work at Tyrell", kind="fact").memory
    clock.advance(days=400)
    secret = new_key(mem, "write")
    try:
        with thread_server(mem) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(WAIT_MS)
            problems: list[str] = []
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(url + "/")
            page.fill("#key", secret)
            page.press("#key", "Enter")
            page.wait_for_selector("#app:not([hidden])")
            page.click("button[data-view=review]")
            page.locator("#r-list li.still-true").nth(2).wait_for()
            assert "我喜欢喝绿茶" in page.inner_text("#r-list")
            row = page.locator(f"li[data-id='{city.id}']")
            row.locator(".r-confirm").click()
            page.locator("#r-done", has_text="Confirmed: I live in Berlin").wait_for()
            row = page.locator(f"li[data-id='{job.id}']")
            row.locator(".r-update").click()
            row.locator("textarea").fill("I work at Wallace Corp")
            row.locator(".r-update").click()
            page.locator("#r-done", has_text="Updated: I work at Wallace Corp").wait_for()
            page.locator(f"li[data-id='{tea.id}'] .r-forget").click()
            page.locator("#r-list .empty").wait_for()
            browser.close()
            assert problems == []
        assert me.review_queue() == []
        assert [v.op for v in me.history(city.id)] == ["create", "confirm"]
        assert me.get(job.id).content == "I work at Wallace Corp"
        assert me.get(tea.id).layer.value == "deleted"
    finally:
        mem.close()

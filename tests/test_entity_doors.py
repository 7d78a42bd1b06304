"""The entity page through every door: `engramdb entity NAME` (typer's CliRunner, fixtures
from test_cli.py), GET /v1/entity on the real HTTP server, the MCP `entity` tool through the
SDK's own client over stdio, and the web page's Entities view in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

import test_cli
from live_server import auth, new_key, thread_server
from test_cli import remember
from test_http import error
from test_mcp import fails, ok, stdio
from test_web import CHROMIUM, browser, login  # noqa: F401 - the browser fixture

clean_env, db, cli, cli_json = test_cli.clean_env, test_cli.db, test_cli.cli, test_cli.cli_json


def test_cli_shows_the_page_and_bad_names_exit_non_zero(cli, cli_json):  # type: ignore[no-untyped-def]
    remember(cli_json, "Ines Duarte lives in Lisbon", "--kind", "fact", "--people", "Ines Duarte")
    remember(cli_json, "Ines Duarte lives in Madrid", "--kind", "fact")
    remember(cli_json, "伊内斯又名小伊", "--kind", "fact")
    page = cli_json("entity", "Ines Duarte")
    assert page["kinds"] == ["person"] and page["memories"] == 2
    assert [m["content"] for m in page["facts"]] == ["Ines Duarte lives in Madrid"]
    assert [[m["content"] for m in c] for c in page["history"]] == [
        ["Ines Duarte lives in Lisbon", "Ines Duarte lives in Madrid"]]
    shown = cli("entity", "ines duarte").stdout
    assert "Ines Duarte (person)" in shown and "changed: Ines Duarte lives in Lisbon" in shown
    assert "(ines duarte) -[live in]-> (Madrid)" in shown
    assert [(t["object"], t["current"]) for t in page["triples"]] == [("Madrid", True)]
    found = cli_json("triples", "--subject", "Ines Duarte", "--all")["triples"]
    assert [(t["object"], t["current"]) for t in found] == [("Madrid", True), ("Lisbon", False)]
    assert "(no longer holds)" in cli("triples", "--all").stdout
    assert "limit must be" in cli("triples", "--limit", "0", code=4).stderr
    assert "小伊" in cli("entity", "伊内斯").stdout
    assert "no memory names" in cli("entity", "Nobody Here", code=3).stderr
    assert "name must be" in cli("entity", " ", code=4).stderr


def test_http_route(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    me.remember("The Atlas project ships in June", kind="fact", topics=["Atlas"])
    me.remember("Atlas 项目的负责人是陈静", kind="fact")
    key = new_key(mem, "read")
    with thread_server(mem) as base, httpx.Client(base_url=base, headers=auth(key),
                                                  timeout=30) as api:
        page = api.get("/v1/entity", params={"name": "atlas"}).json()
        assert page["kinds"] == ["topic"] and page["memories"] == 2
        assert {m["content"] for m in page["facts"]} == {
            "The Atlas project ships in June", "Atlas 项目的负责人是陈静"}
        error(api.get("/v1/entity", params={"name": "Zephyr"}), 404, "not_found")
        error(api.get("/v1/entity"), 422, "invalid")
        error(api.get("/v1/entity", params={"name": "x" * 300}), 422, "invalid")


@pytest.mark.anyio
async def test_mcp_tool(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice", "--agent", "noah") as c:
        await ok(c, "remember", content="Kenji Sato moved to Osaka", kind="fact",
                 people=["Kenji Sato"])
        await ok(c, "remember", content="Kenji Sato, also known as Ken, plays bass", kind="fact")
        page = await ok(c, "entity", name="Kenji Sato")
        assert page["aliases"] == ["Ken"] and page["kinds"] == ["person"]
        assert "Kenji Sato moved to Osaka" in page["_text"]
        assert "(kenji sato) moved to -> Osaka" in page["_text"]
        assert "no memory names" in await fails(c, "entity", name="Nobody")
        await fails(c, "entity", name="")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} missing")
def test_web_page_entity_view(mem, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    from playwright.sync_api import expect

    me = mem.scope(user="alice", agent="noah")
    me.remember("Sofia Reyes lives in Quito", kind="fact", people=["Sofia Reyes"])
    me.remember("Sofia Reyes lives in Lima", kind="fact", people=["Sofia Reyes"])
    me.remember("Sofia Reyes, also known as Sofi, sent the slides", kind="event")
    with thread_server(mem) as url:
        page = browser.new_page()
        page.set_default_timeout(20000)
        try:
            login(page, url, new_key(mem, "read"))
            page.click("button[data-view=entity]")
            page.fill("#e-name", "Sofia Reyes")
            page.click("#entity-open")
            page.wait_for_selector("#e-page:not([hidden])")
            assert page.inner_text("#e-title") == "Sofia Reyes"
            assert "Sofi" in page.inner_text("#e-aliases")
            assert "Sofia Reyes lives in Lima" in page.inner_text("#e-facts")
            assert "slides" in page.inner_text("#e-episodes")
            assert "Lima" in page.inner_text("#e-triples")
            chain = page.locator("#e-history .chain-link")
            assert chain.count() == 2 and "superseded" in chain.nth(0).inner_text()
            page.locator("#e-aliases a", has_text="Sofi").click()   # an alias is a page too
            expect(page.locator("#e-title")).to_have_text("Sofi")
            page.goto(url + "/#/entity/" + "%E5%8D%97%E4%BA%AC")     # 南京: nothing named
            page.locator("#error", has_text="404").wait_for()
        finally:
            page.close()



@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} missing")
def test_web_page_a_late_entity_list_never_hides_the_page_asked(mem, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    """The tab opens the entity view (its list, and an empty page); a name asked at once shows
    its page, and the list answering after it changes nothing: the requests for the list are
    held until the page is shown, then let through."""
    mem.scope(user="alice", agent="noah").remember("Sofia Reyes lives in Lima", kind="fact",
                                                   people=["Sofia Reyes"])
    held = []
    with thread_server(mem) as url:
        page = browser.new_page()
        page.set_default_timeout(20000)
        try:
            login(page, url, new_key(mem, "read"))
            page.route("**/v1/entities?*", lambda route: held.append(route))
            page.click("button[data-view=entity]")
            page.fill("#e-name", "Sofia Reyes")
            page.click("#entity-open")
            page.wait_for_selector("#e-page:not([hidden])")
            assert held   # the list was asked and is not answered yet
            for request in held:
                request.continue_()
            page.locator("#e-list a", has_text="Sofia Reyes").wait_for()
            assert page.is_visible("#e-page")
            assert page.inner_text("#e-title") == "Sofia Reyes"
        finally:
            page.close()

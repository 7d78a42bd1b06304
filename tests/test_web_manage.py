"""Managing memory from the web page (issue 30) in a real headless Chromium (Debian's
/usr/bin/chromium through Playwright) against a real uvicorn server over a seeded store: add
a memory (English and Chinese), browse by text, bulk forget and bulk hard delete (asked first,
and a "Cancel" deletes nothing), hard delete from the memory page, the entities list, the
scope switcher of an admin key, the sessions, goals, boot and context views, the docs page's
Markdown and try-it-out, and an edit of a memory's kind. Searching and building the context
block from the page only look: no memory's uses change. At 390 px, the timeline's labels do
not overlap and the history table fits the screen."""

from __future__ import annotations

import pytest

from engramdb import Draft
from engramdb.model import Layer
from live_server import new_key, thread_server
from test_web import pytestmark  # noqa: F401 - the same skip
from test_web_pages import SHOTS, browser, close, go, open_page, shoot  # noqa: F401 - a fixture
from web_seed import seed


@pytest.fixture(scope="module")
def site(tmp_path_factory):  # type: ignore[no-untyped-def]
    s = seed(tmp_path_factory.mktemp("manage") / "memory.db")
    s.me.remember_many([Draft(f"Monthly review {n + 1}", kind="event",   # 2 years of months
                              at=f"{2024 + (n // 12)}-{n % 12 + 1:02d}-15") for n in range(18)])
    chat = s.me.session("chat-1")
    chat.add("user", "I am planning a trip to 北京 next week")
    chat.add("assistant", "Noted: a trip to Beijing.")
    s.me.goal_start("Find a flat in Berlin", constraints=["under 1500 EUR"])
    s.mem.scope(user="bob", agent="noah").remember("Bob plays chess on Sundays", kind="fact")
    with thread_server(s.mem) as url:
        yield s, url
    s.mem.close()


def uses(s):  # type: ignore[no-untyped-def]
    """Every memory's use count and last uses: what a tracked recall would change."""
    return {r.id: (r.use_count, tuple(r.last_uses))
            for r in s.me.list(layer=[Layer.CORE.value, Layer.ARCHIVED.value])}


def test_manage_memory_from_the_page(site, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    s, url = site
    page, problems = open_page(browser, url, new_key(s.mem, "admin"), 1280)

    # looking changes nothing: a search, boot and the context block count no use
    before = uses(s)
    page.fill("#q", "where do I live")
    page.press("#q", "Enter")
    page.locator("#results .hit-head", has_text="I live in Berlin now.").wait_for()
    go(page, "#/context", "#boot li")
    assert "Ada" in page.inner_text("#boot")
    page.fill("#c-query", "where do I live")
    page.click("#c-show")
    page.wait_for_selector("#c-block:not([hidden])")
    assert "I live in Berlin now." in page.inner_text("#c-block")
    assert "Find a flat in Berlin" in page.inner_text("#c-block")  # the active goal
    shoot(page, "context", 1280)
    assert uses(s) == before

    # add, in both languages: the page says what the write did
    go(page, "#/add", "#add-view:not([hidden])")
    for text in ("我下周去北京出差", "Temp note one", "Temp note two"):
        page.fill("#a-content", text)
        page.click("#a-save")
        page.locator("#add-result a.open", has_text=text).wait_for()
        assert "Remembered" in page.inner_text("#add-result")

    # browse by text, then forget both notes at once
    go(page, "#/browse", "#browse-view:not([hidden])")
    page.fill("#b-text", "temp NOTE")
    page.click("#browse")
    page.locator("#b-count", has_text="2 memories match").wait_for()
    page.check("#b-all")
    assert page.inner_text("#b-selected") == "2 selected"
    page.click("#b-forget")
    page.locator("#b-done", has_text="2 forgotten").wait_for()
    page.locator("#b-count", has_text="0 memories match").wait_for()
    notes = [r for r in s.me.list(layer="deleted") if r.content.startswith("Temp note")]
    assert len(notes) == 2
    # among the forgotten: delete one for good; "Cancel" first deletes nothing
    page.select_option("#b-layer", "deleted")
    page.click("#browse")
    page.locator("#b-count", has_text="2 memories match").wait_for()
    page.locator("#list tr", has_text="Temp note one").locator(".pick").check()
    page.click("#b-erase")
    page.wait_for_selector("#confirm[open]")
    assert "cannot be undone" in page.inner_text("#confirm-text")
    page.click("#confirm button[value=no]")
    page.locator("#confirm").wait_for(state="hidden")
    assert {s.me.get(r.id).content for r in notes} == {"Temp note one", "Temp note two"}
    page.click("#b-erase")
    page.click("#confirm-yes")
    page.locator("#b-done", has_text="1 deleted for good").wait_for()
    assert sorted(s.me.get(r.id).content for r in notes) == ["", "Temp note two"]

    # the memory page: delete for good, confirmed
    page.select_option("#b-layer", "core")
    page.fill("#b-text", "北京")
    page.click("#browse")
    page.locator("#b-count", has_text="1 memory matches").wait_for()
    page.locator("#list a.open", has_text="我下周去北京出差").click()
    page.wait_for_selector("#detail:not([hidden])")
    trip = page.evaluate("location.hash").rsplit("/", 1)[1]
    page.select_option("#edit-kind", "lesson")   # edit: the kind, as a new version
    page.click("#save")
    page.locator("#history tr.version.current", has_text="update").wait_for()
    assert s.me.get(trip).kind.value == "lesson" and s.me.get(trip).version == 2
    page.click("#erase")
    page.click("#confirm-yes")
    page.locator("#history tr.version", has_text="erase").wait_for()
    assert page.inner_text("#d-content") == "(erased)" and page.is_hidden("#erase")
    assert s.me.get(trip).content == ""

    # the entities to start from
    go(page, "#/entity", "#e-list a.entity")
    page.locator("#e-list a.entity.person", has_text="Wang").click()
    page.locator("#e-title", has_text="Wang").wait_for()

    # sessions and goals
    go(page, "#/sessions", "#s-list a")
    page.click("#s-list a:text('chat-1')")
    page.locator("#s-turns", has_text="I am planning a trip to 北京").wait_for()
    assert "2 turns" in page.inner_text("#s-facts")
    shoot(page, "sessions", 1280)
    go(page, "#/goals", "#goals tbody tr")
    assert "Find a flat in Berlin" in page.inner_text("#g-active")
    assert "under 1500 EUR" in page.inner_text("#goals")

    # an admin key switches scope: the page then shows bob's memories
    assert page.is_visible("#scope-switch")
    page.select_option("#scope", label="bob / noah")
    page.locator("#who", has_text="bob / noah").wait_for()
    go(page, "#/browse", "#browse-view:not([hidden])")
    page.fill("#b-text", "")
    page.click("#browse")
    page.locator("#list a.open", has_text="Bob plays chess on Sundays").wait_for()
    assert page.locator("#list tbody tr").count() == 1
    page.select_option("#scope", label="alice / noah")
    page.locator("#who", has_text="alice / noah").wait_for()

    # the docs page: Markdown rendered, and a request sent from it with this tab's key
    page.goto(url + "/docs")
    assert page.locator(".desc code", has_text="engramdb keys create").count() == 1
    assert "`" not in page.inner_text(".desc")
    stats = page.locator("section", has=page.locator("h2", has_text="/v1/stats"))
    stats.locator("summary", has_text="Try it").click()
    stats.locator("button", has_text="Send GET /v1/stats").click()
    stats.locator(".answer", has_text="200 OK").wait_for()
    assert '"user": "alice"' in stats.locator(".answer").inner_text()
    page.screenshot(path=str(SHOTS / "docs-1280.png"))   # the top: the whole page is long
    assert problems == []
    close(page)


def test_a_phone_screen(site, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    s, url = site
    page, problems = open_page(browser, url, new_key(s.mem, "write"), 390)
    assert page.is_hidden("#scope-switch")   # a key that is not admin acts on its own scope
    go(page, "#/timeline", "#timeline-svg .tick-label")
    boxes = page.evaluate("""[...document.querySelectorAll('#timeline-svg .tick-label')]
        .map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(boxes) >= 3 and page.locator("#timeline-svg .tick-label", has_text="2024-").count()
    for (_, right), (left, _) in zip(boxes, boxes[1:], strict=False):
        assert right < left, f"month labels overlap: {boxes}"
    shoot(page, "timeline-long", 390)

    go(page, f"#/memory/{s.berlin}", "#detail:not([hidden]) #history tr.version")
    cells = page.evaluate("""[...document.querySelectorAll('#history td')]
        .map((td) => td.getBoundingClientRect().right)""")
    width = page.evaluate("window.innerWidth")
    assert cells and max(cells) <= width, "the history table is cut off"
    assert page.locator("#history tr.version").count() >= 2
    shoot(page, "history", 390)
    go(page, "#/sessions/chat-1", "#s-turns td")
    shoot(page, "sessions", 390)   # the turns stack: nothing wider than the screen
    page.goto(url + "/docs")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert problems == []
    close(page)


def test_a_late_session_list_never_hides_the_session_asked(site, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    """The sessions tab asks for its list; a session opened before that list answers shows its
    page, and the first list answering after it changes nothing: the list's requests are held,
    the newer let through first."""
    s, url = site
    page, problems = open_page(browser, url, new_key(s.mem, "read"), 1280)
    held = []
    page.route("**/v1/sessions", lambda route: held.append(route))
    for hash_ in ("#/sessions", "#/sessions/chat-1"):
        with page.expect_request("**/v1/sessions"):
            page.evaluate(f"location.hash = {hash_!r}")
    for _ in range(1000):  # each call to the page lets its held requests reach the route
        if len(held) == 2:
            break
        page.evaluate("0")
    assert len(held) == 2
    with page.expect_response("**/v1/sessions/chat-1"):
        held[1].continue_()
    page.wait_for_selector("#s-page:not([hidden]) #s-turns td")
    with page.expect_response("**/v1/sessions"):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
    assert page.is_visible("#s-page") and page.inner_text("#s-title") == "chat-1"
    assert problems == []
    close(page)

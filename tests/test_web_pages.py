"""The web page's pictures in a real headless Chromium (Debian's /usr/bin/chromium through
Playwright) over a seeded store, under the strict Content-Security-Policy the server sends
(server/headers.py; checked on the page's answer, so an inline script or style would be
refused and fail the test): search with grouped duplicates, the plan and the abstained
state; the timeline and its zoom; a memory's strength curve, supersession chain, gist
sources and link graph; the sleep log. Each page is loaded at 1280 and 390 px wide and
saved as a PNG in bench/results/web/ (to look at, not compared pixel by pixel)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from engramdb.server.headers import CSP
from live_server import new_key, thread_server
from test_web import ARGS, CHROMIUM, WAIT_MS, pytestmark  # noqa: F401 - the same skip
from web_seed import seed

SHOTS = Path(__file__).resolve().parent.parent / "bench" / "results" / "web"
WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):  # type: ignore[no-untyped-def]
    s = seed(tmp_path_factory.mktemp("web") / "memory.db")
    with thread_server(s.mem) as url:
        yield s, url, new_key(s.mem, "write")
    s.mem.close()


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser, url: str, secret: str, width: int,  # type: ignore[no-untyped-def]
              scheme: str = "light"):
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))

    def outside_only(route):  # type: ignore[no-untyped-def]
        if urlparse(route.request.url).hostname != "127.0.0.1":
            problems.append("outside: " + route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", outside_only)
    answer = page.goto(url + "/")
    assert answer is not None
    assert answer.headers["content-security-policy"] == CSP
    page.fill("#key", secret)
    page.press("#key", "Enter")
    page.wait_for_selector("#app:not([hidden])")
    return page, problems


def close(page) -> None:  # type: ignore[no-untyped-def]
    """Close without a late request's route handler failing the next test's call."""
    page.unroute_all(behavior="ignoreErrors")
    page.close()


def shoot(page, name: str, width: int) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name} at {width} px is {overflow} px too wide"


def go(page, hash_: str, ready: str) -> None:  # type: ignore[no-untyped-def]
    page.evaluate(f"location.hash = {hash_!r}")
    page.wait_for_selector(ready)


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_every_page_shows_its_pictures(seeded, browser, width):  # type: ignore[no-untyped-def]
    s, url, secret = seeded
    page, problems = open_page(browser, url, secret, width)

    page.fill("#q", "饺子")
    page.press("#q", "Enter")
    first = page.locator("#results .hit").first
    first.wait_for()
    assert "我最喜欢的菜是饺子" in first.inner_text()
    assert first.locator(".chip.sources").inner_text() == "2 sources"  # turn + preference
    # one hit holds it (another hit's why may quote it: "linked to a top hit: '...'")
    assert page.locator("#results .hit .hit-head", has_text="我最喜欢的菜是饺子").count() == 1
    assert first.locator("svg.bar rect.bar-fill").count() == 1
    assert "best match" in first.locator(".rel-words").inner_text()
    assert page.locator("#plan li").count() >= 2  # routing and intent
    shoot(page, "search", width)

    go(page, "#/timeline", "#timeline-svg")
    svg = page.locator("#timeline-svg")
    assert svg.locator("a.mark.event circle.point").count() >= 5
    assert svg.locator("a.mark.fact rect.span").count() == 2
    assert svg.locator(f'a.mark.superseded[data-id="{s.lisbon}"] rect.span').count() == 1
    assert svg.locator(f'a.mark.archived[data-id="{s.archived}"]').count() == 1
    assert page.locator("#tl-label").inner_text() == "everything"
    shoot(page, "timeline", width)

    go(page, f"#/memory/{s.berlin}", "#detail:not([hidden]) #curve-svg")
    curve = page.locator("#curve-svg")
    assert curve.locator("polyline.curve.past").count() == 1
    assert curve.locator("polyline.curve.projected").count() == 1
    assert curve.locator("line.archive-line").count() == 1
    assert curve.locator("circle.use").count() == 3  # three tracked recalls (the search: none)
    chain = page.locator("#chain li.chain-link")
    assert chain.count() == 2
    assert "Lisbon" in chain.nth(0).inner_text() and "superseded" in chain.nth(0).inner_text()
    assert "holds now" in chain.nth(1).inner_text()
    graph = page.locator("#graph-svg")
    assert graph.locator("g.node.centre").count() == 1
    assert graph.locator(f'a.node[data-id="{s.archived}"]').count() == 1
    labels = graph.locator(".edge-label")
    assert {"related →", "caused ←", "reminds →"} <= {labels.nth(i).text_content()
                                                      for i in range(labels.count())}
    shoot(page, "memory", width)

    go(page, f"#/memory/{s.gist}", f'#detail:not([hidden]) #d-id:text("{s.gist}")')
    sources = page.locator("#lineage ol.sources li")
    assert sources.count() == 3 and "Harbin" in sources.nth(0).inner_text()
    assert page.locator("#graph-svg .edge-label", has_text="gist_of").count() == 3
    shoot(page, "gist", width)

    go(page, "#/sleep", "#sleep-log .sleep-run")
    run = page.locator("#sleep-log .sleep-run").first
    assert "decay: 5 archive" in run.inner_text() and "consolidate" in run.inner_text()
    assert "Last sleep: 2026-01-20" in page.inner_text("#sleep-last")
    shoot(page, "sleep", width)

    go(page, "#/browse", "#browse-view:not([hidden])")
    page.click("#browse")
    page.locator("#list tbody tr").first.wait_for()
    shoot(page, "browse", width)
    go(page, "#/stats", "#stats tr")
    shoot(page, "stats", width)
    assert problems == []
    close(page)


def test_zoom_abstain_keyboard_and_a_narrow_screen(seeded, browser):  # type: ignore[no-untyped-def]
    s, url, secret = seeded
    # a scope with nothing in it: recall abstains, and the page says so
    empty, _ = open_page(browser, url, new_key(s.mem, "write", user="nobody"), 320)
    empty.fill("#q", "what did I do in March 2019")
    empty.press("#q", "Enter")
    empty.wait_for_selector("#abstained:not([hidden])")
    assert "No confident answer" in empty.inner_text("#abstained")
    assert empty.locator("#results .hit").count() == 0
    shoot(empty, "abstained", 320)
    close(empty)

    page, problems = open_page(browser, url, secret, 320)
    page.fill("#q", "what did I do in March 2019")  # a window narrows, it does not erase
    page.press("#q", "Enter")
    page.locator("#plan", has_text="nothing remembered between 2019-03-01 and 2019-04-01"
                 ).wait_for()
    assert page.is_hidden("#abstained") and "window" in page.inner_text("#plan")
    assert page.locator(".hit").count() > 0   # the best matches outside it, weak or not

    page.fill("#q", "Berlin")
    page.press("#q", "Enter")
    page.locator("#results .hit").first.wait_for()
    page.focus("#q")
    page.keyboard.press("Tab")  # k
    page.keyboard.press("Tab")  # Search
    page.keyboard.press("Tab")  # the first hit
    assert page.evaluate("document.activeElement.classList.contains('open')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail:not([hidden]) #curve-svg")
    page.keyboard.press("Escape")
    page.wait_for_selector("#search-view:not([hidden])")
    assert page.is_hidden("#detail")

    go(page, "#/timeline", "#timeline-svg")
    page.click("button[data-zoom=year]")
    page.locator("#tl-label", has_text="2026").wait_for()
    page.click("#tl-prev")
    page.locator("#tl-label", has_text="2025").wait_for()
    page.locator("#timeline-svg a.mark", has_text="Kickoff").wait_for(state="attached")
    page.click("button[data-zoom=month]")
    page.locator("#tl-label", has_text="2025-").wait_for()
    page.click("button[data-zoom=day]")
    page.locator("#tl-label", has_text="2025-").wait_for()
    assert problems == []
    close(page)


def test_dark_pages_follow_the_system(seeded, browser):  # type: ignore[no-untyped-def]
    s, url, secret = seeded
    page, problems = open_page(browser, url, secret, 1280, "dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 23, 27)"  # --bg of the dark scheme
    go(page, "#/timeline", "#timeline-svg")
    shoot(page, "timeline-dark", 1280)
    go(page, f"#/memory/{s.berlin}", "#detail:not([hidden]) #graph-svg")
    shoot(page, "memory-dark", 1280)
    go(page, "#/stats", "#stats-layers tr")
    shoot(page, "stats-dark", 1280)
    assert problems == []
    close(page)


VIEWS = ("search", "add", "browse", "timeline", "entity", "sessions", "goals", "context",
         "review", "sleep", "stats")


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "light"), (1280, "dark")],
                         ids=["desktop", "phone", "dark"])
def test_every_view_has_its_picture(seeded, browser, width, scheme):  # type: ignore[no-untyped-def]
    """Each tab's view as a person first opens it (bench/results/web/view-*.png), light and
    dark, desktop and phone: nothing wider than the screen, no error in the console."""
    _, url, secret = seeded
    page, problems = open_page(browser, url, secret, width, scheme)
    tabs = page.locator("nav button[data-view]")
    assert tuple(tabs.nth(i).get_attribute("data-view") for i in range(tabs.count())) == VIEWS
    for view in VIEWS:
        go(page, f"#/{view}", f"#{view}-view:not([hidden])")
        page.wait_for_load_state("networkidle")
        shoot(page, f"view-{view}" + ("-dark" if scheme == "dark" else ""), width)
    assert problems == []
    close(page)

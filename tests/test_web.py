"""The web page in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright; no browser is downloaded): log in with a key, search, open, edit, forget, restore,
browse, sleep, stats, in Chinese and English, with every request kept on the loopback."""

from __future__ import annotations

import os
from urllib.parse import urlparse

import pytest

from live_server import new_key, thread_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 20000  # how long an element may take to appear (a wait, not a timing test)

pytestmark = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"),
                                reason=f"{CHROMIUM} missing: `make test` installs it "
                                       "(apt-get install chromium)")


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    """One Chromium for the module; each test's page has a browser context of its own (no
    cookie or stored key carries over from one test to the next)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def site(mem, browser):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    me.remember("I moved to Berlin in March", kind="fact")
    me.remember("我最喜欢的菜是饺子", kind="preference")
    me.remember("Ada", kind="identity", uri="core://user/name")
    with thread_server(mem) as url:
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        outside: list[str] = []

        def only_loopback(route):  # type: ignore[no-untyped-def]
            host = urlparse(route.request.url).hostname
            if host != "127.0.0.1":
                outside.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        page.route("**/*", only_loopback)
        yield page, url, new_key(mem, "write")
        assert outside == []  # the page works offline: it asked for nothing outside
        page.unroute_all(behavior="ignoreErrors")
        page.close()


def login(page, url: str, secret: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url + "/")
    page.fill("#key", secret)
    page.click("#login")
    page.wait_for_selector("#app:not([hidden])")


def test_log_in_search_edit_and_see_the_new_version(site):  # type: ignore[no-untyped-def]
    page, url, secret = site
    login(page, url, secret)
    assert "alice / noah (write" in page.inner_text("#who")
    page.fill("#q", "Berlin")
    page.click("#search")
    hit = page.locator("#results .hit").first
    hit.wait_for()
    assert "I moved to Berlin in March" in hit.inner_text()
    assert "the word 'Berlin'" in hit.locator(".why").inner_text()  # why, in one line
    assert "fused" not in hit.locator(".why").inner_text()
    hit.locator(".terms summary").click()  # the score's terms, behind a toggle
    assert "fused" in hit.locator(".terms").inner_text()
    hit.locator("a.open").click()
    page.wait_for_selector("#detail:not([hidden])")
    assert page.inner_text("#d-content") == "I moved to Berlin in March"
    page.fill("#edit-content", "I moved to Berlin in March 2026，住在克罗伊茨贝格")
    page.click("#save")
    current = page.locator("#history tr.version.current")
    current.filter(has_text="住在克罗伊茨贝格").wait_for()
    rows = page.locator("#history tr.version")
    assert rows.count() == 2
    assert "I moved to Berlin in March" in rows.nth(0).inner_text()
    assert "2 *" in current.inner_text() and "update" in current.inner_text()
    assert page.inner_text("#d-content") == "I moved to Berlin in March 2026，住在克罗伊茨贝格"
    assert page.inner_text("#strength")  # its strength is shown (Memory.explain)


def test_chinese_search_forget_restore_browse_sleep_stats(site):  # type: ignore[no-untyped-def]
    page, url, secret = site
    login(page, url, secret)
    page.fill("#q", "饺子")
    page.click("#search")
    hit = page.locator("#results .hit a.open").first
    hit.wait_for()
    assert hit.inner_text() == "我最喜欢的菜是饺子"
    hit.click()
    page.wait_for_selector("#detail:not([hidden])")
    assert page.inner_text("#d-content") == "我最喜欢的菜是饺子"
    page.click("#forget")
    page.locator("#history tr.version", has_text="forget").wait_for()
    page.wait_for_selector("#restore:not([hidden])")
    page.click("#restore")
    page.locator("#history tr.version", has_text="restore").wait_for()
    page.click("button[data-view=browse]")
    page.select_option("#b-kind", "identity")
    page.click("#browse")
    page.locator("#b-count", has_text="1 memory matches").wait_for()
    row = page.locator("#list tbody tr").first
    assert "core://user/name" in row.inner_text() and page.locator("#list tbody tr").count() == 1
    page.click("button[data-view=sleep]")
    page.click("#run-sleep")
    page.locator("#sleep-report table").wait_for()
    assert "decay" in page.inner_text("#sleep-report")
    page.click("button[data-view=stats]")
    page.locator("#stats-layers tr", has_text="total").wait_for()   # a table, not JSON
    assert "3" in page.locator("#stats-layers tr", has_text="total").inner_text()
    assert "hashing" in page.inner_text("#stats") and "{" not in page.inner_text("#stats-view")


def test_a_wrong_key_stays_logged_out(site):  # type: ignore[no-untyped-def]
    page, url, _ = site
    page.goto(url + "/")
    page.fill("#key", "edb_not-a-key")
    page.click("#login")
    page.locator("#who", has_text="401").wait_for()
    assert page.is_hidden("#app") and page.is_visible("#login-view")

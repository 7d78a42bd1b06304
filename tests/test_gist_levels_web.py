"""The web page over a gist of gists: the memory page lists its source gists and, a level
down, their episodes; the sleep log counts the fold of the source gists."""

from __future__ import annotations

import pytest

import engramdb
from live_server import new_key, thread_server
from test_gist_levels import EN, NO_AUTO, episode_gist, gists
from test_web import pytestmark  # noqa: F401 - the same skip
from test_web_pages import browser, close, go, open_page  # noqa: F401 - browser: a fixture


@pytest.fixture(scope="module")
def site(tmp_path_factory):  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    from engramdb.testing import FrozenClock

    clock = FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    mem = engramdb.open(tmp_path_factory.mktemp("lv") / "m.db", embedder="hashing",
                        clock=clock, **NO_AUTO)
    for person in EN["people"][:3]:
        episode_gist(mem, clock, EN, person, EN["topic"])
    (top,) = [g for g in gists(mem) if g.metadata.get("gist_level") == 2]
    with thread_server(mem) as url:
        yield top, url, new_key(mem, "write", "default", "default")
    mem.close()


def test_a_gist_of_gists_shows_both_levels(site, browser):  # type: ignore[no-untyped-def]  # noqa: F811
    top, url, secret = site
    page, problems = open_page(browser, url, secret, 1280)
    go(page, f"#/memory/{top.id}", f'#detail:not([hidden]) #d-id:text("{top.id}")')
    sources = page.locator("#lineage ol.sources li")
    assert sources.count() == 3 and "gist" in sources.nth(0).inner_text()
    below = page.locator("#lineage ol.sources-below li")
    assert below.count() == 9 and "event" in below.nth(0).inner_text()
    assert "2 levels down" in page.inner_text("#lineage")
    go(page, "#/sleep", "#sleep-log .sleep-run")
    run = page.locator("#sleep-log .sleep-run").first.inner_text()
    assert "3 fold" in run and "consolidate" in run
    close(page)
    assert problems == []

"""Issue 18, the HTTP door: security headers on every answer, and a body over the limit gets
a 413 in the error shape (the connection is not reset under the client), over a real uvicorn
server."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator

import httpx
import pytest

from engramdb.server.headers import CSP
from helpers import dump
from live_server import auth, new_key, thread_server


@pytest.fixture
def served(mem):  # type: ignore[no-untyped-def]
    key = new_key(mem, "write")
    with thread_server(mem) as base, httpx.Client(base_url=base, timeout=60) as client:
        yield client, key


def _secure(r: httpx.Response) -> None:
    h = r.headers
    assert h["content-security-policy"] == CSP, r.request.url
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
    assert "'unsafe-inline'" not in CSP
    assert h["x-content-type-options"] == "nosniff"
    assert h["x-frame-options"] == "DENY"
    assert h["referrer-policy"] == "no-referrer"


def test_every_kind_of_answer_carries_the_headers(served):  # type: ignore[no-untyped-def]
    client, key = served
    answers = [
        client.get("/"), client.get("/static/app.js"), client.get("/static/app.css"),
        client.get("/docs"), client.get("/openapi.json"),
        client.get("/v1/memories", headers=auth(key)),                       # 200
        client.post("/v1/memories", json={"content": "我住在柏林"}, headers=auth(key)),
        client.get("/v1/memories"),                                          # 401
        client.get("/v1/memories/01NOPE", headers=auth(key)),                # 404
        client.get("/no/such/route"),                                        # 404
        client.post("/v1/memories", json={"content": ""}, headers=auth(key)),  # 422
        client.post("/v1/memories", content=b"{oops", headers={**auth(key),
                    "content-type": "application/json"}),                    # 400
        client.delete("/"),                                                  # 405
        client.post("/v1/memories", content=b"x" * (2 * 1024 * 1024), headers=auth(key)),
    ]
    assert sorted({r.status_code for r in answers}) == [200, 400, 401, 404, 405, 413, 422]
    for r in answers:
        _secure(r)


@pytest.mark.parametrize("megabytes", [2, 10, 50])
def test_a_large_body_gets_413_in_the_error_shape(served, mem, megabytes):  # type: ignore[no-untyped-def]
    """urllib sends the whole body before it reads a byte: a server that answers and closes
    while the body still arrives resets the connection under it (what issue 18 saw)."""
    client, key = served
    before = dump(mem.store.location)
    request = urllib.request.Request(
        str(client.base_url) + "/v1/memories", method="POST",
        data=b'{"content": "' + b"x" * (megabytes * 1024 * 1024) + b'"}',
        headers={**auth(key), "Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=60)
    assert caught.value.code == 413
    assert json.loads(caught.value.read()) == {"error": {"code": "too_large", "message":
                                               "the request body is larger than 1048576 bytes"}}
    assert caught.value.headers["x-frame-options"] == "DENY"
    assert dump(mem.store.location) == before


def test_a_streamed_body_over_the_limit_too(served, mem):  # type: ignore[no-untyped-def]
    client, key = served
    before = dump(mem.store.location)

    def chunks() -> Iterator[bytes]:
        for _ in range(160):
            yield b"y" * 65536

    r = client.post("/v1/memories", content=chunks(), headers=auth(key))
    assert r.status_code == 413, r.text
    assert r.json()["error"]["code"] == "too_large"
    assert dump(mem.store.location) == before
    ok = client.post("/v1/memories", json={"content": "still serving"}, headers=auth(key))
    assert ok.status_code == 200, ok.text


def test_the_page_works_under_its_policy_with_no_violation(mem):  # type: ignore[no-untyped-def]
    """In Chromium: log in and search; the browser reports no Content-Security-Policy
    violation (an inline script or style, a request elsewhere) and the page did its work."""
    import test_web

    if not os.access(test_web.CHROMIUM, os.X_OK):
        pytest.skip(f"{test_web.CHROMIUM} missing")
    from playwright.sync_api import sync_playwright

    mem.scope(user="alice", agent="noah").remember("我最喜欢的菜是饺子", kind="preference")
    key = new_key(mem, "write")
    with thread_server(mem) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=test_web.CHROMIUM, args=test_web.ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(test_web.WAIT_MS)
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text))
            page.on("pageerror", lambda e: console.append(str(e)))
            test_web.login(page, url, key)
            page.fill("#q", "饺子")
            page.click("#search")
            page.wait_for_selector("text=饺子")
            framed = page.evaluate("() => document.styleSheets.length")
        finally:
            browser.close()
    assert framed >= 1   # the stylesheet loaded
    assert not [m for m in console if "Content Security Policy" in m], console

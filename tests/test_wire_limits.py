"""Issue 29: deep, huge or overflowing input on the HTTP doors, each started as a user starts
it (`engramdb serve`, `engramdb mcp --http`). Every such request gets a 4xx in the door's
error shape, in plain words, and the server answers the next request; nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp_types import LATEST_PROTOCOL_VERSION

import engramdb
from helpers import dump
from live_server import auth, mcp_http_process, new_key, raw_request, serve_process

BIG = str(2**63)   # one past SQLite's (and PostgreSQL's) largest integer


def long_url(path: str) -> bytes:
    return b"GET " + path.encode() + b"?q=" + b"x" * 200_000 + b" HTTP/1.1\r\nHost: a\r\n\r\n"


def big_headers(path: str) -> bytes:
    return (b"GET " + path.encode() + b" HTTP/1.1\r\nHost: a\r\nX-Big: " + b"y" * 200_000
            + b"\r\n\r\n")


def plain(message: str) -> None:
    """No validator's text or link reaches a model or a person."""
    assert message and "\n" not in message, message
    assert "pydantic" not in message and "http" not in message, message
    assert "validation error" not in message and "Input should" not in message, message


def deep(n: int) -> str:
    return "[" * n + "]" * n


def with_metadata(value: str) -> str:
    return '{"content": "I live in Oslo", "metadata": {"x": ' + value + "}}"


@pytest.fixture
def served(tmp_path: Path) -> Any:
    db = tmp_path / "api.db"
    with engramdb.open(db, embedder="hashing") as mem:
        key = new_key(mem, "write")
    with serve_process(db) as base, httpx.Client(base_url=base, headers=auth(key),
                                                  timeout=60) as client:
        yield client, base, db


def test_the_http_api_refuses_huge_integers_in_queries(served) -> None:  # type: ignore[no-untyped-def]
    client, _, _ = served
    mid = client.post("/v1/memories", json={"content": "I keep my bike in the shed"}).json()
    mid = mid["memory"]["id"]
    for path, field in [(f"/v1/memories?offset={BIG}", "offset"),
                        ("/v1/memories?offset=-1", "offset"),
                        (f"/v1/memories?limit={BIG}", "limit"),
                        (f"/v1/review?k={BIG}", "k"),
                        (f"/v1/timeline?limit={BIG}", "limit"),
                        (f"/v1/sleeps?limit={BIG}", "limit"),
                        (f"/v1/memories/{mid}/graph?limit={BIG}", "limit"),
                        (f"/v1/memories/{mid}/curve?points={BIG}", "points")]:
        r = client.get(path)
        assert r.status_code == 422, (path, r.text)
        error = r.json()["error"]
        assert error["code"] == "invalid" and error["message"].startswith(field), (path, error)
        assert "from" in error["message"], error   # the range it must be in
        plain(error["message"])
    page = client.get("/v1/memories?offset=0&limit=1").json()
    assert [m["id"] for m in page["items"]] == [mid]
    assert client.get(f"/v1/memories?offset={2**63 - 1}").json()["items"] == []


def test_the_http_api_refuses_deep_json(served) -> None:  # type: ignore[no-untyped-def]
    client, base, db = served
    before = dump(db)
    json_type = {"content-type": "application/json"}
    for depth in (1_000, 100_000):
        for route, body in [("/v1/memories", with_metadata(deep(depth))),
                            ("/v1/recall", '{"query": ' + deep(depth) + "}")]:
            r = client.post(route, content=body, headers=json_type)
            assert r.status_code == 400, (route, depth, r.text[:300])
            assert r.json()["error"]["code"] == "malformed_json"
            plain(r.json()["error"]["message"])
    for depth in (40, 600):   # JSON that parses, but metadata nested deeper than is kept
        r = client.post("/v1/memories", content=with_metadata(deep(depth)), headers=json_type)
        assert r.status_code == 422, r.text[:300]
        assert "metadata nests deeper than 32" in r.json()["error"]["message"]
    assert dump(db) == before
    ok = client.post("/v1/memories", json={"content": "I live in Oslo", "metadata": {
        "x": json.loads(deep(20))}})
    assert ok.status_code == 200 and ok.json()["action"] == "add", ok.text


def test_the_http_api_answers_long_urls_and_big_headers(served) -> None:  # type: ignore[no-untyped-def]
    client, base, _ = served
    status, body = raw_request(base, long_url("/v1/memories"))
    assert status == 414, body
    assert json.loads(body)["error"]["code"] == "uri_too_long"
    plain(json.loads(body)["error"]["message"])
    status, body = raw_request(base, big_headers("/v1/memories"))
    assert status == 431, body
    assert json.loads(body)["error"]["code"] == "headers_too_large"
    status, body = raw_request(base, b"\x00\x01 not http\r\n\r\n")
    assert status == 400 and json.loads(body)["error"]["code"] == "malformed_request"
    long_but_allowed = "/v1/memories?uri_prefix=core://user/" + "a" * 6000
    assert client.get(long_but_allowed).status_code == 200
    assert client.get("/v1/memories").status_code == 200   # still serving


def test_mcp_over_http_refuses_deep_huge_and_invalid_messages(tmp_path: Path) -> None:
    limit = 300_000
    with mcp_http_process(tmp_path / "mcp.db", "--create", "--user", "alice",
                          env={"ENGRAMDB_MCP_MAX_MESSAGE_BYTES": str(limit)}) as url, \
            httpx.Client(timeout=60, headers={"accept": "application/json, text/event-stream",
                                              "content-type": "application/json"}) as client:
        def post(body: bytes) -> httpx.Response:
            return client.post(url, content=body)

        def line(n: int) -> bytes:
            return (b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":'
                    + deep(n).encode() + b"}}")

        cases: list[tuple[bytes, int, int]] = [
            (line(1_000), 400, -32700), (line(100_000), 400, -32700), (line(70), 400, -32700),
            (b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"y":"' + b"z" * (2 * limit)
             + b'"}}', 413, -32600),
            (b'{"id": 9}', 400, -32600), (b'{"jsonrpc": "2.0", "id": 7, "method": 5}', 400, -32600),
            (b"{not json", 400, -32700),
        ]
        for body, status, code in cases:
            r = post(body)
            assert r.status_code == status, (body[:60], r.status_code, r.text[:300])
            error = r.json()["error"]
            assert error["code"] == code, (body[:60], r.text[:300])
            plain(error["message"])
        status, answer = raw_request(url, long_url("/mcp"))
        assert status == 414, answer
        status, answer = raw_request(url, big_headers("/mcp"))
        assert status == 431, answer
        hello = post(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}).encode())
        assert hello.status_code == 200, hello.text   # still serving
        assert "mcp-session-id" in hello.headers


def test_the_limits_are_settings(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from engramdb import ConfigError
    from engramdb.config import Config
    from engramdb.server.wire import refusal

    monkeypatch.setenv("ENGRAMDB_HTTP_MAX_URL_BYTES", "100")
    monkeypatch.setenv("ENGRAMDB_HTTP_MAX_HEADER_BYTES", "1000")
    monkeypatch.setenv("ENGRAMDB_MCP_MAX_MESSAGE_BYTES", "5000")
    config = Config.load()
    limits = config.http_max_url_bytes, config.http_max_header_bytes
    assert limits == (100, 1000) and config.mcp_max_message_bytes == 5000
    line = b"GET /v1/stats?q=" + b"x" * 60 + b" HTTP/1.1\r\n"
    assert refusal(line + b"Host: a\r\n\r\n", *limits) is None
    assert refusal(line.replace(b"x", b"xx") + b"Host: a\r\n\r\n", *limits)[0] == 414
    assert refusal(line.replace(b"x", b"xx")[:120], *limits)[0] == 414   # not all here yet
    assert refusal(line + b"X-A: " + b"y" * 1000 + b"\r\n\r\n", *limits)[0] == 431
    assert refusal(line + b"X-A: " + b"y" * 1000, *limits)[0] == 431
    body = b"z" * 100_000   # a body after the head is not the head's
    assert refusal(line + b"Host: a\r\n\r\n" + body, *limits) is None
    monkeypatch.setenv("ENGRAMDB_HTTP_MAX_URL_BYTES", "0")
    with pytest.raises(ConfigError, match="http_max_url_bytes"):
        Config.load()

"""The MCP door's SSE transport (`engramdb mcp --transport sse`, issue 31): a real server
subprocess, driven by the MCP SDK's own SSE client; the message checks of the other transports
(size, depth, JSON-RPC shape) apply to its POSTs whatever their content type; API keys work on
it as on streamable HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.sse import sse_client
from typer.testing import CliRunner

import engramdb
from live_server import mcp_process, new_key

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def ok(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    r = await client.call_tool(tool, args)
    assert not r.is_error, f"{tool}{args}: {r.content[0].text if r.content else ''}"
    assert isinstance(r.structured_content, dict)
    return r.structured_content


async def fails(client: Client, tool: str, **args: Any) -> str:
    r = await client.call_tool(tool, args)
    assert r.is_error, f"{tool}{args} did not fail"
    return str(r.content[0].text)


async def test_sse_round_trip_in_both_languages_with_recall_hints(tmp_path: Path) -> None:
    with mcp_process(tmp_path / "sse.db", "sse", "--create", "--user", "alice") as url:
        async with Client(sse_client(url), read_timeout_seconds=120) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert {"remember", "recall", "get", "forget"} <= names
            en = await ok(c, "remember", content="I moved to Oslo last spring", kind="fact")
            zh = await ok(c, "remember", content="上周和小李去香山爬山", kind="event",
                          at="2026-02-18")
            assert en["memory"]["user"] == "alice"
            got = await ok(c, "recall", query="Oslo")
            assert got["hits"][0]["memory"]["id"] == en["memory"]["id"]
            got = await ok(c, "recall", query="我做了什么", k=1, keywords=["香山"],
                           time_context={"start": "2026-02-16", "end": "2026-02-22"})
            assert got["hits"][0]["memory"]["id"] == zh["memory"]["id"]
            assert "names no time" in await fails(c, "recall", query="x",
                                                  time_context="whenever")
            assert "keywords" in await fails(c, "recall", query="x", keywords=7)
            assert "invalid: uri" in await fails(c, "remember", content="x y", uri="bad")
        await refusals(url)


async def refusals(url: str) -> None:
    """Bad messages POSTed into a live session are refused on their POST; the session goes
    on (the SDK's client holds it open and calls a tool after them)."""
    sessions: list[str] = []
    async with Client(sse_client(url, on_session_created=sessions.append),
                      read_timeout_seconds=120) as c, httpx.AsyncClient(timeout=60) as http:
        post = f"{url.removesuffix('/sse')}/messages/?session_id={sessions[0]}"
        deep = b"[" * 100 + b"]" * 100
        answer = await http.post(post, content=deep, headers={"content-type": "text/plain"})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == -32700
        assert "deeper than 64" in answer.json()["error"]["message"]
        big = b'{"jsonrpc": "2.0", "method": "ping", "id": 1, "x": "' + b"a" * 5_000_000
        answer = await http.post(post, content=big + b'"}',
                                 headers={"content-type": "application/json"})
        assert answer.status_code == 413 and answer.json()["error"]["code"] == -32600
        answer = await http.post(post, json={"jsonrpc": "2.0", "id": 3, "method": 5})
        assert answer.status_code == 400 and answer.json()["id"] == 3
        assert answer.json()["error"]["message"] == 'Invalid Request: "method" must be a string'
        answer = await http.post(post, content=b"\xff\xfe", headers={"content-type": "x/y"})
        assert answer.status_code == 400 and "not UTF-8" in answer.json()["error"]["message"]
        assert (await ok(c, "recall", query="Oslo"))["hits"]   # the session still serves


async def test_sse_with_keys(tmp_path: Path) -> None:
    db = tmp_path / "keys.db"
    with engramdb.open(db, embedder="hashing") as mem:
        secret = new_key(mem, "write", user="alice", agent="default")
    with mcp_process(db, "sse", "--keys") as url:
        assert httpx.get(url, timeout=30).status_code == 401
        async with Client(sse_client(url, headers={"Authorization": f"Bearer {secret}"}),
                          read_timeout_seconds=120) as c:
            wrote = await ok(c, "remember", content="我住在杭州", kind="fact")
            assert wrote["memory"]["user"] == "alice"


def test_the_transport_option_refuses_what_it_does_not_serve(tmp_path: Path) -> None:
    from engramdb.cli import app

    db = str(tmp_path / "m.db")
    for args in (["--transport", "pigeon"], ["--http", "--transport", "sse"]):
        got = CliRunner().invoke(app, ["mcp", "--db", db, "--create", *args])
        assert got.exit_code == 2 and "--transport" in got.output, got.output
    got = CliRunner().invoke(app, ["mcp", "--db", db, "--create", "--keys"])
    assert got.exit_code == 6 and "--keys is for the HTTP transports" in got.output

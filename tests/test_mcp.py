"""The MCP door through the SDK's own client: a real `engramdb mcp` subprocess over stdio, and
a real streamable HTTP server on a free loopback port. The client checks every successful
result's structured content against the tool's output schema, so a result that drifts from
its schema fails here."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from engramdb.dynamics.sleep import PHASES
from engramdb.mcp import VERBS
from helpers import plain

pytestmark = pytest.mark.anyio
TOOLS = {"remember", "remember_many", "recall", "get", "list", "update", "forget", "restore",
         "history", "rollback", "boot", "sleep", "status", "explain", "snapshot",
         "link", "unlink", "links", "related", "recall_path", "context", "ingest", "sources",
         "focus", "goal", "session", "procedure", "learn", "markdown", "reflect",
         "due_for_review", "profile_check", "feedback", "entity", "review_queue", "confirm"}
SRC = str(Path(__import__("engramdb").__file__).resolve().parent.parent)  # the code under test


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def command(db: Path, *extra: str) -> list[str]:
    """`engramdb mcp` on ``db``, made if new (--create: the tests start on fresh files)."""
    return [sys.executable, "-m", "engramdb.cli", "mcp", "--db", str(db), "--create",
            "--embedder", "hashing", *extra]


def server_env(**extra: str) -> dict[str, str]:
    """What a stdio server gets besides the SDK's safe defaults: the code under test (the SDK
    passes no PYTHONPATH) and every tool (the `all` profile) unless the test says otherwise."""
    return {"PYTHONPATH": SRC, "ENGRAMDB_MCP_TOOLS": "all", **extra}


def stdio(db: Path, *extra: str, env: dict[str, str] | None = None) -> Client:
    cmd = command(db, *extra)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=server_env(**(env or {})))
    return Client(params, read_timeout_seconds=120)


async def ok(client: Client, tool: str, *positional: str, **args: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured content (text checked too).
    Positional values (for task groups) are content, kind and user, in that order."""
    args |= dict(zip(("content", "kind", "user"), positional, strict=False))
    r = await client.call_tool(tool, args)
    text = r.content[0].text if r.content else ""
    assert not r.is_error, f"{tool}{args}: {text}"
    assert text, f"{tool} returned no readable text"
    assert isinstance(r.structured_content, dict)
    return r.structured_content | {"_text": text}


async def fails(client: Client, tool: str, **args: Any) -> str:
    """Call a tool that must fail as a tool error; return the error text."""
    r = await client.call_tool(tool, args)
    assert r.is_error, f"{tool}{args} did not fail: {r.structured_content}"
    return r.content[0].text


async def state(client: Client) -> tuple[int, int, list[tuple[str, int, str]]]:
    """What the scope holds: memory and event counts and every memory's id, version, content."""
    stats = await ok(client, "status")
    listed = await ok(client, "list", layer=["core", "archived", "deleted"], limit=1000)
    rows = [(m["id"], m["version"], m["content"]) for m in listed["memories"]]
    return stats["total"], stats["events"], rows


# ---------------------------------------------------------------- stdio


async def test_stdio_every_tool_round_trip(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice", "--agent", "noah") as c:
        moved = await ok(c, "remember", content="I moved to Berlin in 2024", kind="fact",
                         metadata={"source": "chat"}, at="2024-03-01")
        assert moved["action"] == "add" and moved["memory"]["metadata"] == {"source": "chat"}
        assert moved["memory"]["at"].startswith("2024-03-01T00:00:00")
        assert "I moved to Berlin" in moved["_text"]
        food = await ok(c, "remember", content="我周末喜欢去吃火锅", kind="preference",
                        uri="knowledge://user/food")
        await ok(c, "remember", content="Alice", kind="identity", uri="core://user/name")
        many = await ok(c, "remember_many", items=[
            {"content": "My sister Maria lives in Lisbon", "kind": "fact", "people": ["Maria"]},
            {"content": "我的猫叫小白", "kind": "fact"}])
        assert [r["action"] for r in many["results"]] == ["add", "add"]

        hits = await ok(c, "recall", query="where did I move?", k=3)
        assert hits["hits"][0]["memory"]["id"] == moved["memory"]["id"]
        assert hits["hits"][0]["explanation"]["legs"]
        zh = await ok(c, "recall", query="火锅", k=2)
        assert zh["hits"][0]["memory"]["content"] == "我周末喜欢去吃火锅"
        assert "我周末喜欢去吃火锅" in zh["_text"]
        within = await ok(c, "recall", query="火锅 Berlin", k=3, uri_prefix="knowledge://user/")
        assert [h["memory"]["id"] for h in within["hits"]] == [food["memory"]["id"]]

        mid = moved["memory"]["id"]
        assert (await ok(c, "get", id=mid))["content"] == "I moved to Berlin in 2024"
        assert (await ok(c, "get", id="knowledge://user/food"))["id"] == food["memory"]["id"]
        updated = await ok(c, "update", id=mid, content="I moved to Berlin in March 2024")
        assert updated["version"] == 2
        versions = (await ok(c, "history", id=mid))["versions"]
        assert [v["version"] for v in versions] == [1, 2] and versions[-1]["current"]
        back = await ok(c, "rollback", id=mid, version=1, reason="typo")
        assert back["content"] == "I moved to Berlin in 2024" and back["version"] == 3

        assert (await ok(c, "forget", id=mid))["layer"] == "deleted"
        assert mid not in [m["id"] for m in (await ok(c, "list"))["memories"]]
        assert (await ok(c, "restore", id=mid))["layer"] == "core"
        page = await ok(c, "list", limit=2, offset=0)
        assert len(page["memories"]) == 2 and page["total"] == 5

        boot = await ok(c, "boot")
        assert "Alice" in [m["content"] for m in boot["memories"]] and "Alice" in boot["_text"]
        assert (await ok(c, "explain", id="core://user/name"))["half_life_days"] is None
        sleep = await ok(c, "sleep")
        assert [p["phase"] for p in sleep["phases"]] == list(PHASES)
        assert (await ok(c, "sleep", phase="decay"))["phases"][0]["phase"] == "decay"
        stats = await ok(c, "status")
        assert (stats["user"], stats["agent"], stats["total"]) == ("alice", "noah", 5)


async def test_stdio_snapshot_take_list_restore(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice") as c:
        await ok(c, "remember", content="I live in Berlin", kind="fact")
        assert (await ok(c, "snapshot", action="list"))["snapshots"] == []
        taken = (await ok(c, "snapshot", action="take"))["snapshots"][0]
        assert taken["memories"] == 1 and taken["user"] == "alice"
        later = await ok(c, "remember", content="我养了一只狗", kind="fact")
        listed = (await ok(c, "snapshot"))["snapshots"]
        assert [s["name"] for s in listed] == [taken["name"]]
        restored = await ok(c, "snapshot", action="restore", name=taken["name"])
        assert restored["restored"] == {"removed": 2, "restored": 1, "reembedded": 0}
        assert "not_found" in await fails(c, "get", id=later["memory"]["id"])
        assert "invalid" in await fails(c, "snapshot", action="restore")
        assert "invalid" in await fails(c, "snapshot", action="restore", name="../m.db")
        assert "not_found" in await fails(c, "snapshot", action="restore",
                                          name="snap-" + "0" * 26)
    assert (tmp_path / "m.db.snapshots" / f"{taken['name']}.jsonl").is_file()


async def test_stdio_tool_schemas_and_lazy_open(tmp_path: Path) -> None:
    db = tmp_path / "lazy.db"
    async with stdio(db, "--user", "alice") as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert set(tools) == TOOLS == {v.name for v in VERBS}
        for t in tools.values():
            assert t.input_schema["additionalProperties"] is False, t.name
            assert t.output_schema and t.output_schema["type"] == "object", t.name
            assert t.description
        assert "user" not in tools["remember"].input_schema["properties"]
        assert tools["get"].annotations.read_only_hint
        assert tools["forget"].annotations.destructive_hint
        templates = {t.uri_template for t in (await c.list_resource_templates()).resource_templates}
        assert {"engramdb://memory/{id}", "core://{+path}", "knowledge://{+path}"} <= templates
        assert not db.exists()  # listing opens nothing
        await ok(c, "status")
        assert db.exists()


async def test_stdio_bad_input_is_a_tool_error_and_writes_nothing(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice") as c:
        meta = "'; DROP TABLE memories; -- \"quoted\" AND OR NOT * NEAR(a b) ^x col:val"
        kept = await ok(c, "remember", content=f"I like SQL puzzles {meta}", kind="preference")
        assert (await ok(c, "get", id=kept["memory"]["id"]))["content"].endswith(meta)
        await ok(c, "remember", content="我住在柏林", kind="fact")
        before = await state(c)

        bad: list[tuple[str, dict[str, Any], str]] = [
            ("remember", {}, "content"),                                  # missing field
            ("remember", {"content": 123}, "content must be text, not the number 123"),
            ("remember", {"content": "x y z", "kind": "gossip"}, "kind"),
            ("remember", {"content": "x y z", "metadata": "[]"}, "metadata must be an object"),
            ("remember", {"content": "x y z", "people": "Maria"}, "people must be a list"),
            ("remember", {"content": "x y z", "importance": 2}, "importance"),
            ("recall", {"query": "x", "k": "five"}, "k must be a whole number"),
            ("recall", {"query": "x", "k": 0}, "k is 0: it must be at least 1"),
            ("recall", {"query": {"q": 1}}, "query must be text, not an object"),
            ("recall", {"query": "x", "uri_prefix": "nowhere"}, "uri prefix"),
            ("remember", {"content": "x y z", "user": "bob"}, "user is not a known field"),
            ("status", {"verbose": True}, "verbose is not a known field"),
            ("remember", {"content": "a" * 65537}, "at most 65536 characters"),
            ("remember", {"content": "火" * 30000}, "invalid: content is 90000 bytes"),  # bytes
            ("remember", {"content": "x y z", "uri": "nope"}, "invalid: uri"),  # invalid URIs
            ("remember", {"content": "x y z", "uri": "http://example.com/a"}, "unknown domain"),
            ("remember", {"content": "x y z", "uri": "core://user/has space"}, "invalid: uri"),
            ("get", {"id": "bogus://x"}, "invalid: uri"),
            ("list", {"uri_prefix": "nope"}, "invalid: uri prefix"),
            ("remember", {"content": "x y z", "at": "yesterday-ish"}, "ISO 8601"),
            ("get", {"id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}, "not_found"),  # unknown ids
            ("forget", {"id": "no-such-id"}, "not_found"),
            ("update", {"id": "no-such-id", "content": "new words here"}, "not_found"),
            ("history", {"id": "core://user/nobody"}, "not_found"),
            ("rollback", {"id": kept["memory"]["id"], "version": 9}, "not_found"),
            ("update", {"id": kept["memory"]["id"]}, "nothing to update"),
            ("sleep", {"phase": "dream"}, "phase"),
            ("teleport", {"to": "mars"}, "Unknown tool"),                # unknown tool
        ]
        for tool, args, expected in bad:
            text = plain(await fails(c, tool, **args))
            assert expected in text, f"{tool}{args}: {text}"

        for query in (meta, '"', "*", "NEAR(", "a OR", "'; --", "）。《", "AND"):
            hits = await ok(c, "recall", query=query, track=False)   # a read, never an error
            assert isinstance(hits["hits"], list)
        for uri in ("foo://bar", "core://user/missing", "engramdb://memory/nope"):
            with pytest.raises(MCPError):
                await c.read_resource(uri)

        assert await state(c) == before                              # nothing was written
        assert (await ok(c, "recall", query="柏林"))["hits"][0]["memory"]["content"] == "我住在柏林"


async def test_stdio_scopes_pinned_and_per_call(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    async with stdio(db, "--user", "alice") as alice:
        secret = (await ok(alice, "remember", content="My PIN is 4321", kind="fact"))["memory"]
    async with stdio(db, "--user", "bob") as bob:
        miss = await fails(bob, "get", id=secret["id"])
        unknown = await fails(bob, "get", id="01ZZZZZZZZZZZZZZZZZZZZZZZZ")
        assert miss.replace(secret["id"], "X") == unknown.replace("01ZZZZZZZZZZZZZZZZZZZZZZZZ",
                                                                  "X")  # no existence leak
        for tool, args in (("forget", {"id": secret["id"]}), ("history", {"id": secret["id"]}),
                           ("update", {"id": secret["id"], "content": "My PIN is 0000"})):
            assert "not_found" in await fails(bob, tool, **args)
        assert (await ok(bob, "recall", query="PIN", track=False))["hits"] == []
        with pytest.raises(MCPError):
            await bob.read_resource(f"engramdb://memory/{secret['id']}")
    env = {"ENGRAMDB_MCP_SCOPE_PER_CALL": "1", "ENGRAMDB_USER": "alice"}
    async with stdio(db, env=env) as shared:
        tools = {t.name: t for t in (await shared.list_tools()).tools}
        assert {"user", "agent"} <= set(tools["recall"].input_schema["properties"])
        assert (await ok(shared, "get", id=secret["id"]))["content"] == "My PIN is 4321"
        assert "not_found" in await fails(shared, "get", id=secret["id"], user="bob")
        carol = await ok(shared, "remember", content="我叫卡罗尔", kind="identity",
                         uri="core://user/name", user="carol")
        assert carol["memory"]["user"] == "carol"
        assert (await ok(shared, "get", id="core://user/name", user="carol"))["content"] == \
            "我叫卡罗尔"
        assert "not_found" in await fails(shared, "get", id="core://user/name")  # alice's
        assert "user is empty: give at least one character" in await fails(
            shared, "status", user="")
        snap = (await ok(shared, "snapshot", action="take", user="carol"))["snapshots"][0]
        assert (await ok(shared, "snapshot", user="dave"))["snapshots"] == []
        assert "not_found" in await fails(shared, "snapshot", action="restore",
                                          name=snap["name"], user="dave")
        boot = await shared.read_resource("engramdb://boot")  # resources: the server's scope
        assert "我叫卡罗尔" not in boot.contents[0].text


async def test_stdio_resources(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice") as c:
        rec = (await ok(c, "remember", content="Alice Chen", kind="identity",
                        uri="core://user/name"))["memory"]
        await ok(c, "remember", content="我喜欢爬山", kind="preference",
                 uri="knowledge://user/hobby")
        by_uri = await c.read_resource("core://user/name")
        assert json.loads(by_uri.contents[0].text)["id"] == rec["id"]
        by_id = await c.read_resource(f"engramdb://memory/{rec['id']}")
        assert json.loads(by_id.contents[0].text)["content"] == "Alice Chen"
        zh = await c.read_resource("knowledge://user/hobby")
        assert json.loads(zh.contents[0].text)["content"] == "我喜欢爬山"
        boot = await c.read_resource("engramdb://boot")
        assert "Alice Chen" in boot.contents[0].text


async def test_stdio_store_that_cannot_open_is_a_tool_error(tmp_path: Path) -> None:
    cmd = command(tmp_path / "m.db")
    cmd[cmd.index("hashing")] = "no-such-embedder"
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=server_env())
    async with Client(params, read_timeout_seconds=120) as c:
        assert len((await c.list_tools()).tools) == len(TOOLS)
        for _ in range(2):  # still serving, and trying again on the next call
            assert "config_error" in await fails(c, "status")
        assert "Unknown tool" in await fails(c, "teleport")


def test_stdout_carries_only_protocol(tmp_path: Path) -> None:
    """Raw JSON-RPC over the pipe: every stdout line is a protocol message, even while the
    store opens and a tool fails; the startup line and logs go to stderr."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "remember", "arguments": {"content": "我住在柏林", "kind": "fact"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "get", "arguments": {"id": "missing"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "recall", "arguments": {"query": "柏林"}}},
    ]
    env = clean_env()
    stderr = (tmp_path / "stderr.txt").open("w+")
    proc = subprocess.Popen(command(tmp_path / "raw.db", "--user", "alice"), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                            text=True)
    assert proc.stdin is not None and proc.stdout is not None
    replies = []
    try:
        # A request is sent after the previous one's reply: the server may answer requests
        # concurrently, and the recall must see the remembered memory.
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" not in message:
                continue
            while not any(r.get("id") == message["id"] for r in replies):
                line = proc.stdout.readline()      # the store opens on the first call
                assert line, "the server closed stdout before answering"
                replies.append(json.loads(line))  # a line that is not JSON fails here
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert all(r.get("jsonrpc") == "2.0" for r in replies)
    by_id = {r["id"]: r for r in replies if "id" in r}
    assert set(by_id) == {1, 2, 3, 4}
    assert proc.stdout.read() == ""
    assert not by_id[2]["result"].get("isError")
    assert by_id[3]["result"]["isError"] is True
    assert by_id[3]["result"]["structuredContent"]["error"]["code"] == "not_found"
    assert "我住在柏林" in by_id[4]["result"]["content"][0]["text"]
    stderr.seek(0)
    assert "engramdb MCP server on stdio" in stderr.read()


# ---------------------------------------------------------------- streamable HTTP


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the MCP HTTP server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the MCP HTTP server did not listen on {port} within {limit_s} s")


def clean_env() -> dict[str, str]:
    """This process's environment without ENGRAMDB_* settings (a server gets its own), and
    every tool listed (the `all` profile)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")}
    return env | {"PYTHONPATH": SRC, "ENGRAMDB_MCP_TOOLS": "all"}


@contextmanager
def http_server(db: Path, log: Path, *extra: str) -> Iterator[str]:
    """A real `engramdb mcp --http` on a free loopback port, for as long as the block runs."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(command(db, "--http", "--port", str(port), *extra),
                                env=clean_env(), stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        try:
            wait_for_port(port, proc)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def http_url(tmp_path: Path) -> Iterator[str]:
    with http_server(tmp_path / "http.db", tmp_path / "server.log", "--user", "alice",
                     "--scope-per-call") as url:
        yield url


async def test_http_round_trip_scopes_and_errors(http_url: str) -> None:
    async with Client(http_url, read_timeout_seconds=120) as c:
        assert {t.name for t in (await c.list_tools()).tools} == TOOLS
        en = await ok(c, "remember", content="I moved to Oslo last spring", kind="fact")
        await ok(c, "remember", content="我最喜欢的颜色是蓝色", kind="preference", user="bob")
        assert (await ok(c, "recall", query="Oslo"))["hits"][0]["memory"]["id"] == \
            en["memory"]["id"]
        zh = await ok(c, "recall", query="颜色", user="bob")
        assert zh["hits"][0]["memory"]["content"] == "我最喜欢的颜色是蓝色"
        mine = (await ok(c, "recall", query="颜色", track=False))["hits"]
        assert all(h["memory"]["user"] == "alice" for h in mine)
        assert "not_found" in await fails(c, "get", id=en["memory"]["id"], user="bob")
        before = await state(c)
        assert "Unknown tool" in await fails(c, "teleport")
        assert "content must be text, not a list" in await fails(c, "remember",
                                                              content=["a", "list"])
        assert "invalid: content is" in await fails(c, "remember", content="界" * 22000)
        assert "invalid: uri" in await fails(c, "remember", content="x y z", uri="bad")
        assert await state(c) == before
    async with Client(http_url, read_timeout_seconds=120) as a, \
            Client(http_url, read_timeout_seconds=120) as b:  # still serving, two at once
        async with anyio.create_task_group() as tg:
            for i in range(4):
                tg.start_soon(ok, a, "remember", f"Alice visited museum number {i}", "event")
                tg.start_soon(ok, b, "remember", f"我去了第{i}个博物馆", "event", "bob")
        assert (await ok(a, "status"))["total"] == 5
        assert (await ok(b, "status", user="bob"))["total"] == 5


# ---------------------------------------------------------------- HTTP with API keys


def make_key(db: Path, role: str, user: str = "alice") -> tuple[str, str]:
    """(key id, secret) from `engramdb keys create`, as an operator would make one."""
    done = subprocess.run(
        [sys.executable, "-m", "engramdb.cli", "keys", "create", "--db", str(db), "--create",
         "--embedder", "hashing", "--user", user, "--role", role, "--json"],
        env=clean_env(), capture_output=True, text=True, check=True)
    made = json.loads(done.stdout)
    return made["key"]["id"], made["secret"]


def keyed(url: str, secret: str | None) -> Client:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    http = httpx2.AsyncClient(headers=headers, timeout=120)
    return Client(streamable_http_client(url, http_client=http), read_timeout_seconds=120)


async def test_http_with_keys_acts_with_each_keys_scope_and_role(tmp_path: Path) -> None:
    db = tmp_path / "keys.db"
    secrets = {role: make_key(db, role)[1] for role in ("read", "write", "admin")}
    bob_key, bob = make_key(db, "write", user="bob")
    with http_server(db, tmp_path / "server.log", "--keys", "--scope-per-call") as url:
        for secret in (None, "edb_not-a-key"):   # no key, or an unknown one: 401, no session
            with pytest.raises(Exception):  # noqa: B017 - the SDK raises its transport error
                async with keyed(url, secret) as c:
                    await c.list_tools()
        async with keyed(url, secrets["write"]) as w, keyed(url, secrets["read"]) as r:
            made = await ok(w, "remember", content="我住在杭州", kind="fact")
            assert made["memory"]["user"] == "alice"
            hits = (await ok(r, "recall", query="杭州", track=False))["hits"]
            assert [h["memory"]["id"] for h in hits] == [made["memory"]["id"]]
            assert "forbidden" in await fails(r, "remember", content="I live in Oslo")
            assert "forbidden" in await fails(w, "recall", query="Oslo", user="bob")
            assert "forbidden" in await fails(w, "snapshot", action="list")
        async with keyed(url, secrets["admin"]) as a, keyed(url, bob) as b:
            await ok(b, "remember", content="Bob lives in Lima", kind="fact")
            found = (await ok(a, "recall", query="Lima", user="bob", track=False))["hits"]
            assert found[0]["memory"]["user"] == "bob"
            assert (await ok(b, "status"))["total"] == 1
        subprocess.run([sys.executable, "-m", "engramdb.cli", "keys", "revoke", bob_key,
                        "--db", str(db), "--embedder", "hashing"], env=clean_env(), check=True,
                       capture_output=True)
        with pytest.raises(Exception):  # noqa: B017 - revoked: 401
            async with keyed(url, bob) as c:
                await c.list_tools()


def test_keys_need_http(tmp_path: Path) -> None:
    done = subprocess.run(command(tmp_path / "m.db", "--keys"), env=clean_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 6 and done.stderr.startswith("error: --keys is for the HTTP")
    assert done.stdout == ""

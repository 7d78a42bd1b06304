"""Issue 18: the MCP HTTP transport with --keys gets the HTTP API's cross-scope probes. A
write key of alice calls every tool (every action of the tools that take one), each time
naming bob's memory by id and URI, with and without user="bob", and reads the resources by
bob's id and URI: no answer holds a byte of bob's memory, and bob's memory is unchanged."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

import engramdb
from test_mcp import http_server, keyed, make_key, ok

pytestmark = pytest.mark.anyio
SECRET = "zebra7731"   # only in bob's memory; no probe sends it


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _value(name: str, schema: dict[str, Any], bob: dict[str, str], tmp: Path) -> Any:
    kind = schema.get("type")
    if name in ("id", "id_or_uri", "memory_id", "a", "b", "goal_id", "ids"):
        return [bob["id"]] if kind == "array" else bob["id"]
    if name in ("uri", "prefix", "uri_or_prefix", "uri_prefix"):
        return bob["uri"]
    if name in ("path", "file", "target", "source"):
        return str(tmp / "probe.md")
    if kind == "integer":
        return 1
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return False
    if kind == "array":
        return ["Lima"]
    if kind == "object":
        return {}
    return "Lima"


def _calls(tool: Any, bob: dict[str, str], tmp: Path) -> list[dict[str, Any]]:
    """Each argument set to probe ``tool`` with: every enum value, bob's id and URI."""
    props: dict[str, Any] = tool.input_schema.get("properties", {})
    enums = {n: s["enum"] for n, s in props.items() if "enum" in s}
    base = {n: _value(n, s, bob, tmp) for n, s in props.items()
            if n not in enums and n not in ("user", "agent")}
    out = []
    for values in itertools.product(*enums.values()) if enums else [()]:
        args = base | dict(zip(enums, values, strict=True))
        out += [args, args | {"user": "bob"}] if "user" in props else [args]
    return out


async def test_an_alice_key_reads_nothing_of_bob_through_any_tool(tmp_path: Path) -> None:
    db = tmp_path / "keys.db"
    alice = make_key(db, "write")[1]
    with engramdb.open(db, embedder="hashing") as mem:
        rec = mem.remember(f"Bob lives in Lima, door code {SECRET}", kind="fact",
                           uri="core://home", user="bob").memory
        mem.remember("Alice lives in Lima too", kind="fact", user="alice")
    bob = {"id": rec.id, "uri": "core://home"}
    calls = leaks = 0
    with http_server(db, tmp_path / "server.log", "--keys", "--scope-per-call") as url:
        async with keyed(url, alice) as c:
            await ok(c, "status")
            for tool in (await c.list_tools()).tools:
                for args in _calls(tool, bob, tmp_path):
                    r = await c.call_tool(tool.name, args)
                    calls += 1
                    seen = json.dumps([x.model_dump() for x in r.content], ensure_ascii=False)
                    seen += json.dumps(r.structured_content, ensure_ascii=False)
                    # an error may echo the id it was given; an answer must not hold it
                    if SECRET in seen or (rec.id in seen and not r.is_error):
                        leaks += 1
                        print("LEAK", tool.name, args, seen[:300])
            for uri in (f"engramdb://memory/{rec.id}", "core://home"):
                try:
                    res = await c.read_resource(uri)
                    text = json.dumps(res.model_dump(), ensure_ascii=False)
                    leaks += SECRET in text or rec.id in text
                except Exception as exc:  # noqa: BLE001 - an error answer is a fine answer
                    leaks += SECRET in str(exc)
                calls += 1
    assert calls > 40
    assert leaks == 0
    with engramdb.open(db, embedder="hashing") as mem:
        after = mem.get(rec.id, user="bob")
        assert (after.content, after.version, after.layer) == (rec.content, rec.version,
                                                               rec.layer)
        assert mem.count(user="bob") == 1

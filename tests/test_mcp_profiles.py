"""The MCP tool profiles through the SDK's own client: the compact `core` set by default (a
real `engramdb mcp` over stdio), named profiles and tools, the `all` profile's newer tools
(every sleep phase, a full sleep, reflect, the review schedule, the profile's check; in
process, with a frozen clock), the design's kind names, valence and intensity, boot's `due`
and `warnings`, and the tool list's token cost as docs/mcp.md states it."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import engramdb
from engramdb.dynamics.sleep import PHASES
from engramdb.mcp import CORE, VERBS, Door, Options, build_server
from engramdb.mcp.profiles import MAX_CORE, select
from engramdb.testing import FrozenClock
from test_mcp import SRC, anyio_backend, clean_env, command, fails, ok  # noqa: F401 - fixture

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parent.parent


def only_defaults(db: Path, **env: str) -> Client:
    """`engramdb mcp` over stdio as an operator starts it: no ENGRAMDB_MCP_TOOLS unless given."""
    cmd = command(db, "--user", "alice")
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env={"PYTHONPATH": SRC, **env})
    return Client(params, read_timeout_seconds=120)


async def test_the_default_is_the_core_set_and_it_covers_a_turn(tmp_path: Path) -> None:
    async with only_defaults(tmp_path / "m.db") as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert set(tools) == set(CORE) and len(tools) <= MAX_CORE
        assert all(len(t.description or "") > 60 for t in tools.values())
        for t in tools.values():  # compact: no titles, no "or null" for optional arguments
            text = str(t.input_schema)
            assert "'title'" not in text and "'type': 'null'" not in text, t.name
            assert t.input_schema["additionalProperties"] is False
        assert {"valence", "intensity"} <= set(tools["remember"].input_schema["properties"])

        boot = await ok(c, "boot")
        assert boot["memories"] == [] and boot["due"] == [] and "warnings" in boot
        felt = (await ok(c, "remember", content="I got the Berlin job!", kind="story",
                         valence=0.9, intensity=0.8))["memory"]
        assert (felt["kind"], felt["valence"], felt["intensity"]) == ("event", 0.9, 0.8)
        fact = (await ok(c, "remember", content="我住在柏林", kind="knowledge"))["memory"]
        assert fact["kind"] == "fact" and fact["valence"] == 0.0
        hit = (await ok(c, "recall", query="柏林", k=1))["hits"][0]["memory"]
        assert hit["id"] == fact["id"]
        fixed = await ok(c, "update", id=fact["id"], content="我住在柏林的克罗伊茨贝格")
        assert fixed["version"] == 2
        assert (await ok(c, "get", id=fact["id"]))["content"] == "我住在柏林的克罗伊茨贝格"
        helped = await ok(c, "feedback", id=fact["id"], useful=True)
        assert helped["useful"] is True and helped["importance"] > helped["importance_before"]
        assert "useful" in await fails(c, "feedback", id=fact["id"])
        assert (await ok(c, "forget", id=felt["id"]))["layer"] == "deleted"
        assert (await ok(c, "status"))["by_layer"] == {"core": 1, "archived": 0, "deleted": 1,
                                                             "cold": 0}

        for tool, args, expected in (
                ("list", {}, "Unknown tool"), ("sleep", {}, "Unknown tool"),
                ("remember", {"content": "x y z", "valence": 2}, "valence is 2: it must be"),
                ("remember", {"content": "x y z", "intensity": -1}, "it must be at least 0"),
                ("remember", {"content": "x y z", "kind": "gossip"}, "knowledge"),
                ("remember", {"content": "x y z", "valence": "sad"}, "valence must be a number")):
            assert expected in await fails(c, tool, **args), (tool, args)
        assert (await ok(c, "status"))["total"] == 2                # nothing more was written
        boot_text = (await c.read_resource("engramdb://boot")).contents[0].text
        assert "我住在柏林的克罗伊茨贝格" in boot_text   # resources stay; boot loads the facts


async def test_named_profiles_and_tools_and_unknown_names(tmp_path: Path) -> None:
    async with only_defaults(tmp_path / "m.db", ENGRAMDB_MCP_TOOLS="core, sleep,context") as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert names == {*CORE, "sleep", "context"}
    async with only_defaults(tmp_path / "m.db", ENGRAMDB_MCP_TOOLS="all") as c:
        assert {t.name for t in (await c.list_tools()).tools} == {v.name for v in VERBS}
    done = subprocess.run(command(tmp_path / "m.db"), env=clean_env()
                          | {"ENGRAMDB_MCP_TOOLS": "core,teleport"}, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "teleport" in done.stderr and "profiles core, all" in done.stderr
    assert done.stdout == ""
    assert [v.name for v in select("recall,remember", VERBS)] == ["remember", "recall"]


@pytest.fixture
def clock() -> FrozenClock:
    from datetime import UTC, datetime

    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def in_process(tmp_path: Path, clock: FrozenClock, **config: Any) -> Client:
    """The `all` profile's server in this process (the SDK's client over its in-memory
    transport), its store on a frozen clock."""
    def opener(*_: Any, **__: Any) -> engramdb.Memory:
        return engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **config)

    door = Door(Options(tools="all"), opener=opener)
    return Client(build_server(door), read_timeout_seconds=120)


async def test_all_has_every_phase_full_sleep_and_reflect(tmp_path: Path,
                                                          clock: FrozenClock) -> None:
    async with in_process(tmp_path, clock) as c:
        await ok(c, "remember", content="Lesson: run the migrations first", kind="lesson")
        for phase in PHASES:
            report = await ok(c, "sleep", phase=phase)
            assert [p["phase"] for p in report["phases"]] == [phase]
        full = await ok(c, "sleep", full=True)
        assert full["mode"] == "full" and [p["phase"] for p in full["phases"]] == list(PHASES)
        again = await ok(c, "reflect")
        assert again["mode"] == "incremental" and "consolidate:" in again["_text"]
        one = await ok(c, "reflect", phase="lessons", full=True)
        assert [p["phase"] for p in one["phases"]] == ["lessons"]
        for tool in ("sleep", "reflect"):
            assert "phase" in await fails(c, tool, phase="dream")
            assert "when is not a known field" in await fails(c, tool, when="now")


async def test_all_has_the_review_schedule_and_the_profile_check(tmp_path: Path,
                                                                 clock: FrozenClock) -> None:
    async with in_process(tmp_path, clock, review_due=2, profile_budget=30) as c:
        assert (await ok(c, "due_for_review"))["reviews"] == []
        # lessons: boot's profile (identity, rules, facts, preferences) does not load them
        rule = (await ok(c, "remember", content="Lesson: never push directly to main",
                         kind="lesson"))["memory"]
        clock.advance(days=10)
        pref = (await ok(c, "remember", content="教训：用户喜欢喝茶，不喜欢咖啡",
                         kind="lesson"))["memory"]
        clock.advance(days=10)
        due = await ok(c, "due_for_review", k=5)
        assert [x["id"] for x in due["reviews"]] == [rule["id"], pref["id"]]
        assert "用户喜欢喝茶" in due["_text"]
        assert [x["id"] for x in (await ok(c, "due_for_review", k=1))["reviews"]] == [rule["id"]]

        boot = await ok(c, "boot")
        assert [m["id"] for m in boot["due"]] == [rule["id"], pref["id"]]
        assert "due for review: [lesson]" in boot["_text"]
        check = await ok(c, "profile_check")
        assert check["budget"] == 30 and check["tokens"] > 0
        roomy = await ok(c, "profile_check", budget=100_000)
        assert roomy["budget"] == 100_000 and roomy["warnings"] == []
        tight = await ok(c, "profile_check", budget=1)
        assert tight["warnings"] and f"warning: {tight['warnings'][0]}" in tight["_text"]
        assert boot["warnings"] == check["warnings"]
        for tool, args, expected in (
                ("due_for_review", {"k": 0}, "k is 0: it must be at least 1"),
                ("due_for_review", {"k": "ten"}, "k must be a whole number"),
                ("profile_check", {"budget": 0}, "budget is 0: it must be at least"),
                ("profile_check", {"budget": 5, "x": 1}, "x is not a known field")):
            assert expected in await fails(c, tool, **args), (tool, args)


def bench() -> Any:
    spec = importlib.util.spec_from_file_location("mcp_tools", ROOT / "bench" / "mcp_tools.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_list_costs_what_the_docs_say() -> None:
    """docs/mcp.md states each profile's tokens (bench/mcp_tools.py); they stay within 10% of
    what the tool list measures now, and the core list is under a third of the whole."""
    measured = {p: bench().measure(p) for p in ("core", "all")}
    doc = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    for profile, m in measured.items():
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{profile}` |"))
        stated = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", row)]
        assert stated[0] == m["tools"], row
        now = [m[f"{part}_{e}"] for part in ("list", "model")
               for e in ("cl100k_base", "o200k_base")]
        assert all(abs(s - n) <= 0.1 * n for s, n in zip(stated[1:5], now, strict=True)), \
            (row, now)
    assert measured["core"]["list_cl100k_base"] * 3 < measured["all"]["list_cl100k_base"]

"""docs/migrating.md does what it says: every `engramdb import-from` command it shows and every
Python block that imports an export run as written, on exports in each system's shape (the
LangGraph items come from LangGraph's own InMemoryStore), and what they import reads back
through the adapters."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb.cli import app
from engramdb.integrations.mem0 import Memory as Mem0
from engramdb.io.foreign import import_foreign

DOC = Path(__file__).resolve().parents[1] / "docs" / "migrating.md"
MEM0_DUMP = {"results": [  # mem0's get_all shape (mem0/memory/main.py)
    {"id": "9c1e", "memory": "Is a vegetarian", "hash": "h1", "metadata": {"source": "chat"},
     "created_at": "2025-11-03T10:00:00-08:00", "updated_at": None, "user_id": "alex"},
    {"id": "5d7a", "memory": "对坚果过敏", "hash": "h2", "metadata": None,
     "created_at": "2025-11-03T10:00:01-08:00", "updated_at": None, "user_id": "alex",
     "agent_id": "chef", "run_id": "r1", "role": "user"}]}
LETTA = [{"id": "passage-7", "text": "Alice's sister Ana lives in Porto.",
          "created_at": "2025-06-01T09:00:00Z", "agent_id": "agent-9", "tags": ["family"]},
         {"id": "passage-8", "text": "Alice 每周三晚上打羽毛球。",
          "created_at": "2025-06-02T09:00:00Z"}]
BLOCKS = [{"label": "human", "value": "Alice, a nurse in Lisbon"},
          {"label": "persona", "value": "A patient assistant who answers briefly"}]


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def commands() -> list[list[str]]:
    """Every `engramdb import-from ...` span of the page (a span may wrap over lines)."""
    spans = re.findall(r"`(engramdb import-from [^`]+)`", doc())
    return [shlex.split(" ".join(s.split()))[1:] for s in spans]


def blocks() -> list[str]:
    """The page's Python blocks that import an export (or Letta's core blocks)."""
    found = re.findall(r"```python\n(.*?)```", doc(), re.S)
    return [b for b in found if "import_foreign(" in b or "blocks.json" in b]


def exports(folder: Path) -> None:
    """The files the page names, each in its system's shape."""
    pytest.importorskip("langgraph")
    from langgraph.store.memory import InMemoryStore

    theirs = InMemoryStore()
    theirs.put(("memories", "alice"), "home", {"text": "Lives in Lisbon"})
    theirs.put(("prefs", "alice"), "food", {"likes": ["sardines", "葡式蛋挞"]})
    items = [i.dict() for ns in (("memories",), ("prefs",)) for i in theirs.search(ns)]
    (folder / "langgraph-items.jsonl").write_text(
        "\n".join(json.dumps(i, ensure_ascii=False) for i in items), encoding="utf-8")
    (folder / "mem0-dump.json").write_text(json.dumps(MEM0_DUMP, ensure_ascii=False),
                                           encoding="utf-8")
    (folder / "archival.json").write_text(json.dumps(LETTA, ensure_ascii=False),
                                          encoding="utf-8")
    (folder / "blocks.json").write_text(json.dumps(BLOCKS, ensure_ascii=False),
                                        encoding="utf-8")


def check_imported(db: Path) -> None:
    with engramdb.open(db, embedder="hashing") as mem:
        m0 = Mem0(memory=mem)
        alex = {r["memory"]: r for r in m0.get_all(filters={"user_id": "alex"})["results"]}
        assert set(alex) == {"Is a vegetarian", "对坚果过敏"}
        assert alex["对坚果过敏"]["agent_id"] == "chef" and alex["对坚果过敏"]["run_id"] == "r1"
        from engramdb.integrations.langgraph import EngramStore

        store = EngramStore(mem, user="alice", agent="planner")
        assert store.get(("memories", "alice"), "home").value == {"text": "Lives in Lisbon"}
        assert store.get(("prefs", "alice"), "food").value["likes"][1] == "葡式蛋挞"
        letta = mem.scope(user="alice", agent="letta-agent")
        assert letta.recall("where does Ana live?")[0].memory.content.startswith("Alice's sister")
        assert letta.recall("羽毛球")[0].memory.content == "Alice 每周三晚上打羽毛球。"


def test_the_page_shows_a_command_for_each_system():
    sources = sorted(c[1] for c in commands())
    assert sources == ["langgraph", "letta", "mem0"]


def test_the_import_commands_of_the_page_run(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    exports(tmp_path)
    monkeypatch.chdir(tmp_path)
    env = {"ENGRAMDB_URL": str(tmp_path / "memory.db"), "ENGRAMDB_EMBEDDER": "hashing"}
    assert CliRunner().invoke(app, ["init"], env=env).exit_code == 0   # the store, made once
    for args in commands():
        result = CliRunner().invoke(app, args, env=env)
        assert result.exit_code == 0, (args, result.output)
    check_imported(tmp_path / "memory.db")


def test_the_python_blocks_of_the_page_run(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    exports(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    code = blocks()
    assert len(code) == 3  # mem0, LangGraph, Letta
    for block in code:
        with engramdb.open(tmp_path / "memory.db") as mem:
            names: dict[str, Any] = {"engramdb": engramdb, "json": json, "mem": mem,
                                     "import_foreign": import_foreign}
            exec(compile(block, "docs/migrating.md", "exec"), names)
    check_imported(tmp_path / "memory.db")
    with engramdb.open(tmp_path / "memory.db") as mem:
        me = mem.scope(user="alice", agent="letta-agent")
        assert me.get("core://user/profile").content == "Alice, a nurse in Lisbon"
        assert me.get("core://agent/persona").kind == "identity"


def test_the_async_mem0_block_of_the_page_runs(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """The page's AsyncMemory block, awaited as it would be inside a coroutine."""
    import asyncio
    import textwrap

    block = next(b for b in re.findall(r"```python\n(.*?)```", doc(), re.S)
                 if "AsyncMemory" in b)
    monkeypatch.setenv("ENGRAMDB_URL", str(tmp_path / "async.db"))
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    names: dict[str, Any] = {}
    exec(compile("async def main():\n" + textwrap.indent(block, "    ") + "    return hits\n",
                 "docs/migrating.md", "exec"), names)
    hits = asyncio.run(names["main"]())
    assert [h["memory"] for h in hits["results"]] == ["I'm allergic to nuts"]

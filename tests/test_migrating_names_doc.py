"""docs/migrating.md's sections on the names other systems used (issue 31) do what they say:
every command of the TypeScript sleep-cycle server's section runs as written (a server command
is checked against its --help: it would not return), the cognitive-agent section's Python
block and commands run, and the mem0 table's claims hold."""

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
SERVERS = ("mcp", "serve")


def section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def bash_lines(text: str) -> list[str]:
    found = re.findall(r"```bash\n(.*?)```", text, re.S)
    return [line.strip() for block in found for line in block.splitlines() if line.strip()]


def run_line(line: str, env: dict[str, str]) -> None:
    """One shell line: `export K=V`, or `[K=V ...] engramdb ARGS`."""
    words = shlex.split(line)
    if words[0] == "export":
        env.update(w.split("=", 1) for w in words[1:])  # type: ignore[misc]
        return
    extra = {}
    while "=" in words[0]:
        key, value = words.pop(0).split("=", 1)
        extra[key] = value
    assert words[0] == "engramdb", line
    args = words[1:]
    if args[0] in SERVERS:   # it would serve until stopped: its options must exist
        shown = CliRunner().invoke(app, [args[0], "--help"], env={**env, "COLUMNS": "300"})
        for option in (a for a in args if a.startswith("--")):
            assert option in shown.output, (line, option)
        for key, value in extra.items():
            engramdb.config.Config.load(**{key.removeprefix("ENGRAMDB_").lower(): value})
        return
    result = CliRunner().invoke(app, args, env={**env, **extra})
    assert result.exit_code == 0, (line, result.output)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    for name in ("URL", "USER", "AGENT", "CONFIG", "EMBED", "SLEEP_EVERY"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)
    monkeypatch.delenv("AGENT_MEMORY_DB", raising=False)
    return {"ENGRAMDB_EMBEDDER": "hashing", "XDG_DATA_HOME": str(tmp_path / "xdg")}


def test_the_sleep_cycle_servers_commands_run_as_written(tmp_path, home):  # type: ignore[no-untyped-def]
    lines = bash_lines(section("From the TypeScript sleep-cycle memory MCP server"))
    assert any("--type" in x for x in lines) and any("reflect all" in x for x in lines)
    assert any("--transport sse" in x for x in lines)
    env = dict(home)
    for line in lines:
        run_line(line, env)
    db = tmp_path / env["AGENT_MEMORY_DB"]
    with engramdb.open(db, embedder="hashing") as mem:
        kinds = sorted(r.kind.value for r in mem.list())
        assert kinds == ["event", "fact"]
        assert mem.store.sleep_state(mem.default_scope).last_at is not None  # reflect all
    assert not (tmp_path / "xdg").exists()


def test_their_own_database_is_refused_untouched(tmp_path, home):  # type: ignore[no-untyped-def]
    import sqlite3

    theirs = tmp_path / "theirs.db"
    with sqlite3.connect(theirs) as db:
        db.execute("CREATE TABLE memories (id TEXT, content TEXT)")
    before = theirs.read_bytes()
    got = CliRunner().invoke(app, ["status"], env={**home, "AGENT_MEMORY_DB": str(theirs)})
    assert got.exit_code == 6 and "not an engramdb database" in got.output
    assert theirs.read_bytes() == before


def test_the_cognitive_agent_section_runs(tmp_path, home, clock):  # type: ignore[no-untyped-def]
    text = section("From the cognitive-agent Python package: recall's options")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        names: dict[str, Any] = {"mem": mem}
        exec(compile(block, "docs/migrating.md", "exec"), names)
        assert names["hits"][0].memory.content == "Went hiking with Anna in the Alps"
        assert [h.memory.content for h in names["tent"]] == ["买了一顶新帐篷"]
    spans = re.findall(r"`(engramdb recall [^`]+)`", text)
    assert spans
    env = {**home, "ENGRAMDB_URL": str(tmp_path / "m.db")}
    for span in spans:
        result = CliRunner().invoke(app, ["--json", *shlex.split(span)[1:]], env=env)
        assert result.exit_code == 0, (span, result.output)


def test_the_mem0_tables_claims(tmp_path):  # type: ignore[no-untyped-def]
    assert "mem0 names and formats that work" in section("From mem0")
    memory = Mem0.from_config({"url": str(tmp_path / "m.db"), "embedder": "hashing",
                               "vector_store": {"provider": "qdrant"}, "llm": {"provider": "x"}})
    memory.add("I'm allergic to nuts", user_id="alex", infer=False)
    memory.add("我对坚果过敏", user_id="alex", infer=False)
    got = memory.search("nuts", filters={"user_id": "alex"}, top_k=1, rerank=True,
                        explain=True)["results"]
    assert got[0]["memory"] == "I'm allergic to nuts" and "score_details" in got[0]
    assert memory.search("nuts", user_id="alex", limit=1)["results"][0]["id"] == got[0]["id"]
    items = [{"id": "m1", "memory": "Likes jazz", "user_id": "sam"},
             {"id": "m2", "memory": "喜欢爵士乐", "user_id": "sam"}]
    with engramdb.open(tmp_path / "i.db", embedder="hashing") as mem:
        for text in (json.dumps({"results": items[:1]}), json.dumps(items[1:]),
                     "\n".join(json.dumps(i, ensure_ascii=False) for i in items)):
            import_foreign(mem, __import__("io").StringIO(text), "mem0")
        assert sorted(r.content for r in mem.list(user="sam")) == ["Likes jazz", "喜欢爵士乐"]

"""The attention commands of `engramdb`: goal, procedure, focus, learn, migrate, export
--format memory-md|agents-md. In-process through typer's CliRunner, on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engramdb.cli import app

DATA = Path(__file__).parent / "data"
ENV = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)


@pytest.fixture
def cli(tmp_path: Path) -> Any:
    runner = CliRunner()
    db = str(tmp_path / "memory.db")

    def run(*args: str, code: int = 0) -> Result:
        result = runner.invoke(app, ["--db", db, "--create", *args], env=ENV)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        if code not in (0, 2):
            assert "Traceback" not in result.output and result.stderr.startswith("error: ")
        return result

    return run


def js(result: Result) -> Any:
    return json.loads(result.stdout)


def test_goal_commands(cli):  # type: ignore[no-untyped-def]
    outer = js(cli("goal", "start", "ship 2.0", "--json"))
    inner = js(cli("goal", "start", "修复失败的测试", "--constraint", "不要推送到 main",
                   "--loop", "why flaky?", "--json"))
    assert inner["parent"] == outer["id"] and inner["constraints"] == ["不要推送到 main"]
    noted = js(cli("goal", "note", "--close", "why flaky?", "--evidence", "tmp dir shared",
                   "--json"))
    assert noted["open_loops"] == [] and noted["evidence"] == ["tmp dir shared"]
    assert js(cli("goal", "done", "--json"))["status"] == "done"
    listed = js(cli("goal", "list", "--status", "active", "--json"))
    assert [g["id"] for g in listed] == [outer["id"]]
    assert "修复失败的测试" in cli("goal", "list").stdout
    cli("goal", "pause")
    assert "no active goal" in cli("goal", "pause", code=3).stderr
    assert "is done" in cli("goal", "resume", inner["id"], code=5).stderr
    assert "unknown goal status" in cli("goal", "list", "--status", "finished", code=4).stderr
    cli("goal", "start", "  ", code=4)


def test_procedure_commands(cli):  # type: ignore[no-untyped-def]
    added = js(cli("procedure", "add", "Debug a failing pytest run", "--step", "run pytest -x",
                   "--step", "read the first traceback", "--trigger", "pytest",
                   "--trigger", "测试失败", "--json"))
    assert added["steps"] == ["run pytest -x", "read the first traceback"]
    up = js(cli("procedure", "outcome", added["uri"], "success", "--json"))
    assert up["confidence"] == pytest.approx(0.6) and up["successes"] == 1
    assert "confidence 0.48" in cli("procedure", "outcome", added["id"], "failure").stdout
    assert [p["id"] for p in js(cli("procedure", "list", "--json"))] == [added["id"]]
    cli("procedure", "outcome", added["id"], "maybe", code=2)
    cli("procedure", "outcome", "procedure://nope", "success", code=3)
    cli("procedure", "add", "no steps", "--trigger", "x", code=4)


def test_focus_command_shows_the_audit(cli):  # type: ignore[no-untyped-def]
    cli("goal", "start", "fix failing pytest and push the PR")
    cli("remember", "The last pytest failure was test_login timing out on the CI runner")
    cli("remember", "I prefer dark roast coffee", "--kind", "preference", "--importance", "1")
    cli("procedure", "add", "Debug a failing pytest run", "--step", "run pytest -x",
        "--trigger", "pytest")
    out = cli("focus", "pytest failed again, why?", "--audit").stdout
    assert "Goal: fix failing pytest and push the PR" in out
    assert "Procedure: Debug a failing pytest run" in out
    lines = out.splitlines()
    assert any(ln.startswith("IN ") and "test_login" in ln for ln in lines)
    assert any(ln.startswith("OUT") and "dark roast" in ln and "distraction" in ln
               for ln in lines)
    ws = js(cli("focus", "pytest", "--json"))
    assert [m["content"] for m in ws["memories"]] == [
        "The last pytest failure was test_login timing out on the CI runner"]
    assert len(ws["audit"]) == 2 and ws["procedures"][0]["on_query"] == ["pytest"]
    cli("focus", " ", code=4)


def test_learn_and_agents_md(cli, tmp_path):  # type: ignore[no-untyped-def]
    agents = tmp_path / "AGENTS.md"
    first = js(cli("learn", "pushed to main", "Never push to main", "--file", str(agents),
                   "--json"))
    assert first["added"] and first["file_added"]
    again = cli("learn", "again", "never push to main!", "--file", str(agents)).stdout
    assert "already known" in again and "already there" in again
    assert agents.read_text(encoding="utf-8").count("Never push to main") == 1
    out = cli("export", "--format", "agents-md").stdout
    assert "## Learned rules\n- Never push to main (learned from: pushed to main)" in out
    cli("learn", "", "rule", code=4)


def test_migrate_dry_run_then_for_real_then_export(cli, tmp_path):  # type: ignore[no-untyped-def]
    dry = cli("migrate", str(DATA / "messy_memory.md"), "--dry-run")
    assert "dry run: 69 entries / 3,945 characters -> " in dry.stdout
    assert "problem: messy_memory.md:58: empty entry" in dry.stderr
    assert js(cli("status", "--json"))["total"] == 0
    backup = tmp_path / "b.jsonl"
    done = js(cli("migrate", str(DATA / "messy_memory.md"), "--backup", str(backup), "--json"))
    assert done["backup"] == str(backup) and backup.exists()
    assert done["actions"] == {"add": done["memories_after"]}
    md_file = tmp_path / "MEMORY.md"
    cli("export", "--format", "memory-md", str(md_file))
    md = md_file.read_text(encoding="utf-8")
    assert [ln for ln in md.splitlines() if ln.startswith("## ")] == [
        "## IDENTITY", "## PROJECTS", "## RULES", "## QUICKREF", "## PENDING", "## LESSONS",
        "## GROWTH"]
    assert "- [LONG] 不要在周五下午部署生产环境" in md
    assert "<!--" not in md.split("-->", 1)[1]
    assert "<!-- core://user/" in cli("export", "--format", "memory-md", "--uris").stdout
    cli("migrate", str(tmp_path / "missing.md"), code=3)
    cli("export", "--format", "yaml", code=2)
    cli("export", "--format", "memory-md", "--all-scopes", code=2)

"""`engramdb context` and `engramdb session add/show/end/fetch/list`, in-process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engramdb.cli import app
from engramdb.text.tokens import count_tokens

ENV = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}
Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET", "ENCODING",
                 "SESSION_BUDGET", "SESSION_KEEP", "OFFLOAD_TOKENS", "SUMMARIZER"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)


@pytest.fixture
def cli(tmp_path: Path) -> Run:
    runner = CliRunner()
    db = str(tmp_path / "memory.db")

    def run(*args: str, code: int = 0, input: str | None = None) -> Result:
        result = runner.invoke(app, ["--db", db, "--create", *args], env=ENV, input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        if code not in (0, 2):
            assert "Traceback" not in result.output
            assert result.stderr.startswith("error: ")
        return result

    return run


def as_json(cli: Run, *args: str, **options: Any) -> Any:
    return json.loads(cli(*args, "--json", **options).stdout)


def test_session_add_show_fetch_end(cli: Run) -> None:
    pin = "Never connect to the production database."
    cli("session", "add", "s1", "user", pin, "--pin", "--budget", "300", "--keep", "2")
    for i in range(15):
        cli("session", "add", "s1", "user", f"第{i}步：我们决定把重试次数改为{i + 3}。")
    report = "\n".join(f"row {i}: latency {i * 3} ms" for i in range(600))
    added = as_json(cli, "session", "add", "s1", "tool", "-", input=report)
    ref = added["turn"]["ref"]
    assert ref and added["tokens"] <= 300 and added["budget"] == 300
    shown = cli("session", "show", "s1")
    assert f"[Pinned]\nuser: {pin}" in shown.stdout and f"[offloaded {ref}" in shown.stdout
    assert shown.stderr == ""  # the window's size is an informational line: -v prints it
    told = cli("session", "show", "s1", "-v").stderr
    assert "window" in told and "of 300 tokens" in told
    data = as_json(cli, "session", "show", "s1")
    assert data["tokens"] == count_tokens(data["prompt"]) <= 300
    assert data["settings"]["keep"] == 2 and data["summary"]
    assert cli("session", "fetch", "s1", ref).stdout == report + "\n"
    assert as_json(cli, "session", "list") == ["s1"]
    handover = as_json(cli, "session", "end", "s1")
    assert len(handover["messages"]) == 17 and handover["pinned"] == [pin]
    cli("session", "add", "s1", "user", "again", code=5)
    cli("session", "end", "s1", code=5)


def test_context_command(cli: Run) -> None:
    cli("remember", "My name is Li", "--uri", "core://user/name")
    cli("remember", "Never deploy on Fridays", "--kind", "rule")
    cli("remember", "Li lives in Berlin")
    cli("session", "add", "s1", "user", "我们决定周一上线。")
    result = cli("context", "where does Li live?", "--budget", "200", "--session", "s1")
    assert result.stdout.startswith("## Identity\n- My name is Li\n\n## Rules\n")
    assert "user: 我们决定周一上线。" in result.stdout
    assert result.stderr == ""
    told = cli("-v", "context", "where does Li live?", "--budget", "200", "--session", "s1")
    assert told.stdout == result.stdout and "of 200 tokens (cl100k_base)" in told.stderr
    data = as_json(cli, "context", "where does Li live?", "--budget", "12",
                   "--encoding", "o200k_base")
    assert data["tokens"] == count_tokens(data["text"], "o200k_base") <= 12
    assert data["cut"] and data["encoding"] == "o200k_base"


@pytest.mark.parametrize(("args", "code"), [
    (["context", "x", "--budget", "0"], 4),
    (["context", "x", "--encoding", "gpt2"], 4),
    (["context", "x", "--session", "missing"], 3),
    (["context", "", "--budget", "100"], 4),
    (["context", "x", "--budget", "many"], 2),
    (["session", "show", "missing"], 3),
    (["session", "end", "missing"], 3),
    (["session", "fetch", "missing", "wm-1"], 3),
    (["session", "add", "s1", "robot", "hi"], 4),
    (["session", "add", "s1", "user", ""], 4),
    (["session", "add", "s1", "user", "hi", "--budget", "0"], 4),
    (["session", "add", "s1", "user", "hi", "--encoding", "nope"], 4),
    (["session", "add", "s1", "user", "hi", "--summarizer", "magic"], 4),
    (["session", "add"], 2),
])
def test_bad_input_exit_codes(cli: Run, args: list[str], code: int) -> None:
    cli(*args, code=code)


def test_unknown_offload_reference(cli: Run) -> None:
    cli("session", "add", "s1", "user", "hello")
    result = cli("session", "fetch", "s1", "wm-unknown", code=3)
    assert "wm-unknown" in result.stderr

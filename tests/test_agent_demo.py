"""Trying the agent offline (issue 30): `engramdb ask --llm demo`, `chat --llm demo` and
``engramdb.agent.demo_llm()`` run the real agent loop against the built-in stand-in, which
serves the OpenAI chat-completions protocol on loopback and answers, labelled as a stand-in,
with the memories it was sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import engramdb
from engramdb.agent import Agent, demo_llm
from engramdb.llm.demo import LABEL

ROOT = Path(__file__).resolve().parent.parent
MEMORIES = ["My dog is called Biscuit", "I work as a nurse in Leeds", "我的猫叫小白", "我住在上海"]
CLEAN = ("ENGRAMDB_URL", "ENGRAMDB_USER", "ENGRAMDB_AGENT", "ENGRAMDB_CONFIG", "ENGRAMDB_LLM_URL",
         "ENGRAMDB_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_COMPATIBLE_BASE_URL",
         "OPENAI_COMPATIBLE_MODEL")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A store with English and Chinese memories, and no chat endpoint anywhere."""
    for name in CLEAN:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")   # the demo must not go through one
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing") as mem:
        mem.remember_many([engramdb.Draft(content=text) for text in MEMORIES], user="alice")
    yield path


def test_ask_llm_demo_in_a_subprocess_quotes_the_memory_with_the_label(store: Path):  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    env.update(PYTHONPATH=str(ROOT / "src"), ENGRAMDB_EMBEDDER="hashing",
               ENGRAMDB_ENCODING="estimate")   # no tokenizer tables to load: a faster start
    done = subprocess.run([sys.executable, "-m", "engramdb.cli", "--db", str(store), "--user",
                           "alice", "ask", "--llm", "demo", "What is my dog called?"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(LABEL["en"]) and "- My dog is called Biscuit\n" in done.stdout
    assert not any(other in done.stdout for other in MEMORIES[1:])
    assert "demo stand-in" in done.stderr and "Traceback" not in done.stderr


def cli(store: Path, *args: str, code: int = 0, input: str | None = None) -> str:
    got = CliRunner().invoke(app(), ["--db", str(store), "--user", "alice", *args],
                             env={"ENGRAMDB_EMBEDDER": "hashing"}, input=input)
    assert got.exit_code == code, (got.stdout, got.stderr)
    assert "Traceback" not in got.output
    return str(got.stdout if code == 0 else got.stderr)


def app():  # type: ignore[no-untyped-def]
    from engramdb.cli import app

    return app


def test_ask_runs_the_real_loop_a_recall_then_the_answer(store: Path):  # type: ignore[no-untyped-def]
    turn = json.loads(cli(store, "ask", "--llm", "demo", "--json", "我的猫叫什么名字？"))
    assert turn["ok"] and turn["source"] == "llm"
    assert [s["kind"] for s in turn["steps"]] == ["focus", "tool", "answer"]
    assert turn["steps"][1]["tool"] == "recall" and "小白" in turn["steps"][1]["output"]
    answer = turn["answer"]
    assert answer.startswith(LABEL["zh"]) and "- 我的猫叫小白\n" in answer
    assert not any(other in answer for other in MEMORIES if other != "我的猫叫小白")


def test_chat_with_the_demo_answers_each_line_in_its_language(store: Path):  # type: ignore[no-untyped-def]
    out = cli(store, "chat", "--llm", "demo", input="Where do I work as a nurse?\n我住在哪里？\n")
    en, zh = out.split(LABEL["zh"])
    assert en.startswith(LABEL["en"]) and "- I work as a nurse in Leeds" in en
    assert "- 我住在上海" in zh and "Biscuit" not in zh


def test_no_endpoint_says_how_to_try_the_demo_and_a_bad_llm_is_refused(store: Path):  # type: ignore[no-untyped-def]
    assert "engramdb ask --llm demo" in cli(store, "ask", "hi", code=6)
    assert "--llm takes demo" in cli(store, "ask", "--llm", "gpt-5", "hi", code=4)


def test_the_library_equivalent_in_json_mode_and_the_wire(store: Path):  # type: ignore[no-untyped-def]
    with demo_llm() as endpoint, engramdb.open(store, embedder="hashing") as mem:
        assert endpoint.base_url.startswith("http://127.0.0.1:") and not endpoint.use_env_proxy
        result = Agent(mem, user="alice", endpoint=endpoint, mode="json").turn(
            "What is my dog called?")
        assert result.ok and result.answer.startswith(LABEL["en"])
        assert "- My dog is called Biscuit" in result.answer
        with httpx.Client(trust_env=False) as http:
            models = http.get(f"{endpoint.base_url}/models").json()
            said = http.post(f"{endpoint.base_url}/chat/completions", json={
                "model": endpoint.model, "messages": [
                    {"role": "system", "content": "## Relevant memories\n"
                                                 "- [2026-01-02] Tea at four with Ana"},
                    {"role": "user", "content": "When is tea?"}]}).json()
            bad = http.post(f"{endpoint.base_url}/chat/completions", content=b"[1, 2]")
    assert models["data"][0]["id"] == "engramdb-demo"
    text = said["choices"][0]["message"]["content"]
    assert text.startswith(LABEL["en"]) and "- Tea at four with Ana" in text
    assert bad.status_code == 400


def test_the_docs_library_block_runs_as_written(store: Path, monkeypatch, capsys):  # type: ignore[no-untyped-def]
    import re

    page = (ROOT / "docs" / "local-llms.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "demo_llm" in b)
    monkeypatch.chdir(store.parent)
    store.rename(store.parent / "memory.db")
    monkeypatch.setenv("ENGRAMDB_EMBEDDER", "hashing")
    exec(compile(block, "docs/local-llms.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith(LABEL["en"]) and "- My dog is called Biscuit" in printed

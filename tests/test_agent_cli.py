"""`engramdb ask`, `chat`, `feedback` and `import-from`, in-process, against the scripted
OpenAI-compatible server on loopback (tests/llm_double.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engramdb.cli import app
from llm_double import Script, serve

Run = Callable[..., Result]
DOG = "My dog is called Biscuit"


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    yield from serve(monkeypatch)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "LLM_URL", "LLM_MODEL",
                 "LLM_API_KEY", "LLM_TIMEOUT"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)
    for name in ("OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def runner_for(tmp_path: Path, env: dict[str, str]) -> Run:
    runner = CliRunner()
    db = str(tmp_path / "memory.db")

    def run(*args: str, code: int = 0, input: str | None = None) -> Result:
        result = runner.invoke(app, ["--db", db, "--create", "--user", "alice", *args], env=env,
                               input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        assert "Traceback" not in result.output
        return result

    return run


@pytest.fixture
def cli(tmp_path: Path, llm: Script) -> Run:
    return runner_for(tmp_path, {
        "ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200", "ENGRAMDB_LLM_URL": llm.url,
        "ENGRAMDB_LLM_MODEL": "planner-1", "ENGRAMDB_LLM_API_KEY": "sk-test",
        "ENGRAMDB_LLM_TIMEOUT": "30", "ENGRAMDB_AUTO_SLEEP_IMPORTANCE": "0"})


@pytest.fixture
def bare(tmp_path: Path) -> Run:
    """No chat endpoint configured."""
    return runner_for(tmp_path, {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"})


def as_json(cli: Run, *args: str, **kw: Any) -> Any:
    return json.loads(cli(*args, "--json", **kw).stdout)


def remember(cli: Run, text: str) -> str:
    return str(as_json(cli, "remember", text)["memory"]["id"])


# ---------------------------------------------------------------- ask


def test_ask_prints_the_answer_and_uses_the_memory(cli: Run, llm: Script) -> None:
    remember(cli, DOG)
    llm.call("recall", {"query": "dog"}).say("Your dog is called Biscuit.")
    result = cli("ask", "What is my dog called?")
    assert result.stdout == "Your dog is called Biscuit.\n"
    assert llm.requests[0]["auth"] == "Bearer sk-test"
    assert llm.requests[0]["body"]["model"] == "planner-1"
    assert "Biscuit" in llm.requests[1]["body"]["messages"][-1]["content"]
    assert llm.overrun == 0


def test_ask_reads_the_message_from_stdin(cli: Run, llm: Script) -> None:
    llm.say("Hello.")
    assert cli("ask", "-", input="我叫小明，你好！\n").stdout == "Hello.\n"
    assert "我叫小明" in llm.requests[0]["body"]["messages"][-1]["content"]


def test_ask_json_has_the_steps_and_the_experience(cli: Run, llm: Script) -> None:
    dog_id = remember(cli, DOG)
    llm.call("recall", {"query": "狗"}).say("你的狗叫 Biscuit。")
    turn = as_json(cli, "ask", "我的狗叫什么？", "--session", "s1", "--goal", "记住宠物")
    assert (turn["ok"], turn["source"], turn["lang"]) == (True, "llm", "zh")
    assert turn["answer"] == "你的狗叫 Biscuit。"
    assert [(s["kind"], s["tool"]) for s in turn["steps"]] == [
        ("focus", ""), ("tool", "recall"), ("answer", "")]
    assert dog_id in turn["used"] and turn["experience_id"]
    shown = as_json(cli, "session", "show", "s1")
    assert "我的狗叫什么？" in shown["prompt"] and "你的狗叫 Biscuit。" in shown["prompt"]
    assert [g["title"] for g in as_json(cli, "goal", "list")] == ["记住宠物"]


def test_a_turn_without_an_answer_still_prints_it_and_exits_7(cli: Run, llm: Script) -> None:
    llm.fail(503).fail(503).fail(503).fail(503)
    result = cli("ask", "What is my dog called?", code=7)
    assert result.stdout.strip()                     # the fallback's safe answer
    assert "did not reach an answer (fallback)" in result.stderr


def test_ask_stops_at_max_steps(cli: Run, llm: Script) -> None:
    llm.call("recall", {"query": "a"}).call("recall", {"query": "b"})
    turn = as_json(cli, "ask", "Keep looking", "--max-steps", "2", code=7)
    assert (turn["ok"], turn["source"]) == (False, "limit")
    assert [s["kind"] for s in turn["steps"]][-1] == "limit" and llm.overrun == 0


def test_ask_refuses_bad_input(cli: Run, bare: Run, llm: Script) -> None:
    assert "message is empty" in cli("ask", "   ", code=4).stderr
    assert "max_steps must be" in cli("ask", "hi", "--max-steps", "0", code=4).stderr
    got = bare("ask", "hi", code=6)
    assert got.stderr.startswith("error: the agent needs a chat endpoint")
    assert bare("chat", code=6, input="hi\n").stderr.count("chat endpoint") == 1
    assert llm.requests == []


# ---------------------------------------------------------------- chat


def test_chat_turns_feedback_state_and_bad_lines(cli: Run, llm: Script) -> None:
    dog_id = remember(cli, DOG)
    before = as_json(cli, "get", dog_id)["importance"]
    llm.say("Hello Alice.").say("你好。")
    lines = ["Hi there", "", "/state", f"/good {dog_id}", "/bad nosuch", "/good", "/frob",
             "你好", "/quit", "never read"]
    result = cli("chat", "--session", "c1", input="\n".join(lines) + "\n")
    out = result.stdout.splitlines()
    assert out[0] == "Hello Alice." and "## Cognitive state" in out
    assert any(line.startswith(f"useful: {dog_id} importance") for line in out)
    assert out[-1] == "你好。" and "never read" not in result.stdout
    assert "session c1" in result.stderr and "/good ID" in result.stderr
    assert "error: " in result.stderr and "nosuch" in result.stderr
    assert "/good needs a memory id" in result.stderr and "unknown command /frob" in result.stderr
    assert as_json(cli, "get", dog_id)["importance"] > before
    shown = as_json(cli, "session", "show", "c1")["prompt"]
    assert all(t in shown for t in ("Hi there", "Hello Alice.", "你好。"))
    assert len(llm.requests) == 2 and llm.overrun == 0


def test_chat_without_a_session_makes_one_and_ends_at_end_of_input(cli: Run, llm: Script) -> None:
    llm.say("Fine.")
    result = cli("chat", input="How are you?\n")
    assert result.stdout == "Fine.\n"
    sid = result.stderr.split()[1].rstrip(";")
    assert sid.startswith("chat-")
    assert "How are you?" in as_json(cli, "session", "show", sid)["prompt"]


def test_chat_json_prints_one_document_per_line(cli: Run, llm: Script) -> None:
    llm.say("Fine.")
    result = cli("chat", "--json", input="How are you?\n/state\n")
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert docs[0]["answer"] == "Fine." and "recall" in docs[1]["self"]["tools"]


# ---------------------------------------------------------------- feedback


def test_feedback_strengthens_and_weakens(cli: Run) -> None:
    mid = remember(cli, "我住在柏林")
    up = as_json(cli, "feedback", mid, "--useful")
    assert up["useful"] is True and up["importance"] > up["importance_before"]
    down = as_json(cli, "feedback", mid, "--useless")
    assert down["useful"] is False and down["importance"] < down["importance_before"]
    assert f"useless: {mid} importance" in cli("feedback", mid, "--useless").stdout


def test_feedback_refuses_bad_input(cli: Run) -> None:
    mid = remember(cli, DOG)
    assert "--useful or --useless" in cli("feedback", mid, code=2).output
    assert cli("feedback", "nosuch", "--useful", code=3).stderr.startswith("error: ")
    err = json.loads(cli("feedback", "nosuch", "--useful", "--json", code=3).stdout)
    assert err["error"]["code"] == "not_found"


# ---------------------------------------------------------------- import-from

MEM0 = {"results": [
    {"id": "2f9a", "memory": "Is a vegetarian", "user_id": "alex"},
    {"id": "77b1", "memory": "对坚果过敏", "user_id": "alex", "agent_id": "chef"}]}
LANGGRAPH = [{"namespace": ["memories", "u1"], "key": "home", "value": {"text": "Lives in Lisbon"}}]
LETTA = [{"id": "passage-1", "text": "The user's sister is called Ana."},
         {"id": "passage-2", "text": "用户每周三去游泳。"}]


def contents(cli: Run, *scope: str) -> set[str]:
    return {m["content"] for m in as_json(cli, "list", *scope)}


def test_import_from_each_source(cli: Run, tmp_path: Path) -> None:
    (tmp_path / "mem0.json").write_text(json.dumps(MEM0, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "lg.jsonl").write_text("\n".join(json.dumps(r) for r in LANGGRAPH))
    (tmp_path / "letta.json").write_text(json.dumps(LETTA, ensure_ascii=False), encoding="utf-8")
    counts = as_json(cli, "import-from", "mem0", str(tmp_path / "mem0.json"))
    assert counts["items"] == 2 and counts["add"] == 2
    assert contents(cli, "--user", "alex") == {"Is a vegetarian"}
    assert contents(cli, "--user", "alex", "--agent", "chef") == {"对坚果过敏"}
    assert "put 1" in cli("import-from", "langgraph", str(tmp_path / "lg.jsonl"),
                          "--user", "u1").stdout
    assert contents(cli, "--user", "u1") == {"Lives in Lisbon"}
    letta = (tmp_path / "letta.json").read_text(encoding="utf-8")
    assert as_json(cli, "import-from", "letta", "-", "--user", "bob", input=letta)["items"] == 2
    assert contents(cli, "--user", "bob") == {p["text"] for p in LETTA}


def test_import_from_refuses_bad_input_and_writes_nothing(cli: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(MEM0["results"][0]) + "\n{not json\n")
    assert "line 2: not JSON" in cli("import-from", "mem0", str(bad), code=4).stderr
    assert contents(cli, "--user", "alex") == set()
    no_id = tmp_path / "no_id.json"
    no_id.write_text(json.dumps([{"memory": "orphan"}]))
    assert "item 1: no user_id" in cli("import-from", "mem0", str(no_id), code=4).stderr
    assert "unknown source 'zep'" in cli("import-from", "zep", str(no_id), code=4).stderr
    assert "cannot read" in cli("import-from", "letta", str(tmp_path / "gone"), code=2).output
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert "the file is empty" in cli("import-from", "letta", str(empty), code=4).stderr

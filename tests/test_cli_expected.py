"""The CLI as people expect (issue 20): quiet unless -v, `remember` infers the kind and says
which, `recall --format`, `ingest` of the demo's own sample, shell completion; and the library's
newer verbs at the door: remember --valence/--intensity, review, reflect, profile, explain's
emotion. Real SQLite files, the real typer app (CliRunner) and real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import engramdb
from engramdb.cli import app
from engramdb.testing import FrozenClock

ENV = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}
SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_conversation.json"
Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "memory.db")


@pytest.fixture
def cli(db: str) -> Run:
    runner = CliRunner()

    def run(*args: str, code: int = 0, input: str | None = None) -> Result:
        result = runner.invoke(app, ["--db", db, "--create", *args], env=ENV, input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        if code not in (0, 2):
            assert "Traceback" not in result.output and result.stderr.startswith("error: ")
        return result

    return run


def as_json(cli: Run, *args: str, **options: Any) -> Any:
    return json.loads(cli(*args, "--json", **options).stdout)


# ---------------------------------------------------------------- quiet unless -v


def test_recall_prints_its_plan_only_with_verbose_or_explain(cli: Run) -> None:
    cli("remember", "I moved to Berlin in 2024")
    quiet = cli("recall", "where do I live?")
    assert "Berlin" in quiet.stdout and quiet.stderr == ""
    for flags in (["-v"], ["--verbose"], ["--explain"]):
        told = cli("recall", "where do I live?", *flags)
        assert told.stderr.startswith("intent: "), flags
    before = cli("-v", "recall", "where do I live?")  # global: before the command too
    assert before.stderr.startswith("intent: ")


def test_an_empty_recall_still_says_why(cli: Run) -> None:
    result = cli("recall", "anything")
    assert result.stdout == "" and result.stderr.strip()


def test_boot_summary_is_informational(cli: Run) -> None:
    cli("remember", "Li", "--uri", "core://user/name")
    assert cli("boot").stderr == ""
    assert "about" in cli("boot", "-v").stderr


# ---------------------------------------------------------------- recall --format


def test_recall_formats(cli: Run) -> None:
    cli("remember", "I drink green tea\nevery morning")
    cli("remember", "我喜欢喝乌龙茶")
    text = cli("recall", "tea", "--format", "text", "--no-track").stdout.splitlines()
    assert "I drink green tea every morning" in text and "我喜欢喝乌龙茶" in text
    assert len(text) == 2
    data = as_json(cli, "recall", "tea", "--no-track")
    same = json.loads(cli("recall", "tea", "--format", "json", "--no-track").stdout)
    assert same.keys() == data.keys() and len(data["hits"]) == 2
    assert [h["memory"]["id"] for h in same["hits"]] == [h["memory"]["id"] for h in data["hits"]]
    table = cli("recall", "tea", "--format", "table", "--no-track").stdout
    assert "score" in table and "why" in table
    bad = cli("recall", "tea", "--format", "yaml", code=2)
    assert "table, json, text" in bad.stderr


# ---------------------------------------------------------------- remember infers the kind


@pytest.mark.parametrize(("text", "kind", "rule"), [
    ("I love hiking in the mountains", "preference", "en:like"),
    ("我喜欢喝绿茶，不喜欢咖啡", "preference", "zh:like"),
    ("我不喜欢吃香菜", "preference", "zh:like"),
    ("Remind me to renew my passport", "pending", "en:remind"),
    ("提醒我明天交报告", "pending", "zh:remind"),
    ("Never deploy on Fridays", "rule", "en:always_never"),
    ("不要在周五部署", "rule", "zh:dont"),
    ("Lesson learned: always back up first", "lesson", "en:lesson"),
    ("I am allergic to peanuts", "fact", "en:allergy"),
    ("Yesterday I went to the zoo with Ana", "event", "en:dated_event"),
    ("上周我去了北京", "event", "zh:dated_event"),
])
def test_remember_infers_the_kind_and_says_which(cli: Run, text: str, kind: str,
                                                 rule: str) -> None:
    line = cli("remember", text).stdout
    assert f"kind={kind} (inferred by {rule})" in line
    stored = as_json(cli, "list")
    assert [r["kind"] for r in stored] == [kind]


def test_remember_without_a_matching_rule_is_a_fact_and_says_so(cli: Run) -> None:
    assert "kind=fact (inferred: no rule matched, the default)" in cli(
        "remember", "The office is on the third floor").stdout
    data = as_json(cli, "remember", "服务器在法兰克福")
    assert data["memory"]["kind"] == "fact"
    assert data["inferred"] == {"kind": "fact", "rule": "default", "sentence": ""}


def test_remember_json_names_the_inference(cli: Run) -> None:
    data = as_json(cli, "remember", "Oh, and I prefer window seats. Thanks!")
    assert data["memory"]["kind"] == "preference"
    assert data["inferred"] == {"kind": "preference", "rule": "en:like",
                                "sentence": "I prefer window seats."}


def test_a_given_kind_or_alias_is_not_inferred(cli: Run) -> None:
    data = as_json(cli, "remember", "I love hiking", "--kind", "knowledge")
    assert data["memory"]["kind"] == "fact" and "inferred" not in data
    line = cli("remember", "Met Ana at the market", "--kind", "story").stdout
    assert "kind=event rule=" in line and "inferred" not in line
    assert "aliases" in cli("remember", "x", "--kind", "mood", code=4).stderr


def test_an_existing_uri_keeps_its_kind(cli: Run) -> None:
    cli("remember", "Tea", "--uri", "knowledge://user/drink", "--kind", "identity")
    data = as_json(cli, "remember", "I love coffee now", "--uri", "knowledge://user/drink")
    assert data["action"] == "update" and data["memory"]["kind"] == "identity"
    assert "inferred" not in data
    fresh = as_json(cli, "remember", "我更喜欢深色模式", "--uri", "knowledge://user/theme")
    assert fresh["memory"]["kind"] == "preference" and fresh["inferred"]["rule"] == "zh:like"


def test_kind_help_names_the_aliases(cli: Run) -> None:
    help_text = cli("remember", "--help").stdout
    for alias in ("knowledge", "idea", "story", "interaction", "emotion", "--valence",
                  "--intensity"):
        assert alias in help_text


# ---------------------------------------------------------------- emotion


def test_remember_valence_and_intensity_show_in_explain(cli: Run) -> None:
    text = "I was terrified when the server crashed during the demo"
    mid = as_json(cli, "remember", text, "--valence", "0.5", "--intensity", "0.2")["memory"]["id"]
    strength = as_json(cli, "explain", mid)
    assert strength["valence"] == 0.5 and strength["intensity"] == 0.2
    assert "terrified" in strength["emotion_cues"]
    human = cli("explain", mid).stdout
    assert "valence" in human and "intensity" in human and "emotion cues" in human
    assert "valence +0.50 intensity 0.20" in human and "terrified" in human
    read = as_json(cli, "remember", "我今天特别开心，终于通过了考试！")
    assert read["memory"]["valence"] > 0 and read["memory"]["intensity"] > 0


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--valence", "3"], 4, "valence"),
    (["--valence", "-1.5"], 4, "valence"),
    (["--intensity", "2"], 4, "intensity"),
    (["--intensity", "strong"], 2, "--intensity"),
])
def test_bad_emotion_values(cli: Run, args: list[str], code: int, message: str) -> None:
    assert message in cli("remember", "hello there", *args, code=code).stderr
    assert as_json(cli, "count") == {"count": 0}


# ---------------------------------------------------------------- review, reflect, profile


def seed_old(db: str) -> list[str]:
    """Memories written a year ago (the library with a clock set back): due for review now."""
    clock = FrozenClock(datetime(2025, 1, 1, tzinfo=UTC))
    with engramdb.open(db, embedder="hashing", clock=clock) as mem:
        ids = [mem.remember(text, kind=kind).memory.id for text, kind in (
            ("Ana's birthday is in May", "fact"), ("我喜欢喝乌龙茶", "preference"))]
        clock.advance(days=30)
        mem.recall("birthday", k=1)  # a review: this one's schedule moves on
    return ids


def test_review_lists_the_due_memories(cli: Run, db: str) -> None:
    assert "nothing is due" in cli("review").stderr
    birthday, tea = seed_old(db)
    due = as_json(cli, "review")
    assert {r["id"] for r in due} == {birthday, tea}
    assert all(r["overdue_days"] > 0 for r in due)
    assert [r["retrievability"] for r in due] == sorted(r["retrievability"] for r in due)
    assert len(as_json(cli, "review", "--k", "1")) == 1
    human = cli("review").stdout
    shown = [w for w in human.split() if len(w) >= 8 and tea.startswith(w)]  # its id, shortened
    assert shown and "我喜欢喝乌龙茶" in human
    assert "k must be" in cli("review", "--k", "0", code=4).stderr


def test_reflect_is_sleep(cli: Run) -> None:
    cli("remember", "I use Java 21")
    report = as_json(cli, "reflect", "--full")
    assert report["mode"] == "full" and report["phases"]
    assert [p["phase"] for p in as_json(cli, "reflect", "--phase", "decay")["phases"]] == [
        "decay"]
    assert "full sleep" in cli("reflect", "--full").stdout
    assert "phase" in cli("reflect", "--phase", "dream", code=4).stderr


def test_profile_reports_size_pending_and_warnings(cli: Run) -> None:
    cli("remember", "My name is Li", "--uri", "core://user/name")
    for i in range(9):
        cli("remember", f"Remind me to call supplier {i}")
    data = as_json(cli, "profile")
    assert data["pending"] == 9 and 0 < data["tokens"] < data["budget"]
    tight = cli("profile", "--budget", "10")
    assert "of 10 tokens" in tight.stdout and "9 pending" in tight.stdout
    assert tight.stderr.count("warning: ") == 2
    assert "budget" in cli("profile", "--budget", "0", code=4).stderr


# ---------------------------------------------------------------- ingest the demo's sample


def test_ingest_reads_the_demo_sample(cli: Run) -> None:
    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    reports = as_json(cli, "ingest", str(SAMPLE))
    assert len(reports) == len(sample["sessions"])
    assert [r["turns"] for r in reports] == [len(s["turns"]) for s in sample["sessions"]]
    events = as_json(cli, "list", "--kind", "event")
    assert len(events) == sum(len(s["turns"]) for s in sample["sessions"])
    dates = {datetime.fromisoformat(s["date"]) for s in sample["sessions"]}
    assert {datetime.fromisoformat(e["at"]) for e in events} == dates
    extracted = [r["memory"] for rep in reports for r in rep["extracted"]]
    said_by_noah = {t["text"] for s in sample["sessions"] for t in s["turns"]
                    if t["speaker"] == "Noah"}
    assert extracted and not {m["content"] for m in extracted} & said_by_noah
    assert any("vegetarian" in m["content"] for m in extracted)
    assert any(m["kind"] == "preference" and "火锅" in m["content"] for m in extracted)
    hits = cli("recall", "Which trail did we hike?", "--format", "text", "-k", "3").stdout
    assert "Sintra" in hits
    again = cli("ingest", str(SAMPLE))
    assert "already ingested" in again.stderr


def test_the_progress_bar_is_drawn_on_a_terminal_or_when_asked(cli: Run) -> None:
    quiet = cli("ingest", str(SAMPLE))          # stderr is no terminal here: no bar
    assert "ingesting" not in quiet.stderr
    asked = cli("ingest", "--progress", "--session", "again", str(SAMPLE))
    assert "ingesting" in asked.stderr and "━" in asked.stderr


def test_ingest_sample_with_a_session_id_numbers_the_sessions(cli: Run) -> None:
    reports = as_json(cli, "ingest", str(SAMPLE), "--session", "demo")
    assert [r["session"] for r in reports] == ["demo-1", "demo-2", "demo-3", "demo-4"]


@pytest.mark.parametrize(("data", "message"), [
    ({"user": "maya", "sessions": []}, "sessions is empty"),
    ({"user": "maya", "agent": "noah",
      "sessions": [{"turns": [{"speaker": "Ana", "text": "hi there"}]}]}, "'Ana'"),
    ({"sessions": [{"turns": [{"speaker": "Maya", "text": "I love tea"}]}]}, "\"user\""),
    ({"user": "maya", "sessions": [{"turns": []}]}, "session 1"),
    ({"user": "maya", "sessions": [{"date": 5, "turns": [{"speaker": "maya", "text": "x"}]}]},
     "date"),
    ({"user": "maya", "sessions": [{"turns": [{"speaker": "maya"}]}]}, "text"),
])
def test_ingest_refuses_a_bad_sample(cli: Run, tmp_path: Path, data: dict[str, Any],
                                     message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert message in cli("ingest", str(bad), code=4).stderr


def test_ingest_of_sessions_is_all_or_nothing(cli: Run, tmp_path: Path) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["sessions"][2]["turns"][1]["at"] = "not a time"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert "session 3: message 1: " in cli("ingest", str(bad), code=4).stderr
    assert as_json(cli, "count", "--layer", "core", "--layer", "archived") == {"count": 0}


def test_speaker_roles_from_the_user_or_agent_alone(cli: Run, tmp_path: Path) -> None:
    only_agent = {"agent": "Bot", "sessions": [{"date": "2026-03-01T10:00:00+00:00", "turns": [
        {"speaker": "Bot", "text": "I love answering questions."},
        {"speaker": "Li", "text": "我喜欢喝乌龙茶。"}]}]}
    path = tmp_path / "agent.json"
    path.write_text(json.dumps(only_agent, ensure_ascii=False), encoding="utf-8")
    report = as_json(cli, "ingest", str(path))
    assert [r["memory"]["content"] for r in report["extracted"]] == ["我喜欢喝乌龙茶"]


# ---------------------------------------------------------------- shell completion


def process_env(home: Path) -> dict[str, str]:
    src = str(Path(__file__).resolve().parent.parent / "src")
    return {**{k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")}, **ENV,
            "HOME": str(home), "SHELL": "/bin/bash",
            "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",  # the shell is named below
            "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}


def test_completion_installs_and_completes(tmp_path: Path) -> None:
    assert "--install-completion" in CliRunner().invoke(app, ["--help"], env=ENV).stdout
    env = process_env(tmp_path)
    cmd = [sys.executable, "-m", "engramdb.cli"]
    installed = subprocess.run([*cmd, "--install-completion", "bash"], env=env,
                               capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr
    script = (tmp_path / ".bash_completions" / "engramdb.sh").read_text(encoding="utf-8")
    assert "_ENGRAMDB_COMPLETE=complete_bash" in script
    assert "engramdb.sh" in (tmp_path / ".bashrc").read_text(encoding="utf-8")
    for words, cword, expected in (("engramdb rec", "1", "recall"),
                                   ("engramdb recall q --for", "3", "--format"),
                                   ("engramdb rev", "1", "review")):
        done = subprocess.run(cmd, env={**env, "_ENGRAMDB_COMPLETE": "complete_bash",
                                        "COMP_WORDS": words, "COMP_CWORD": cword},
                              capture_output=True, text=True, timeout=120)
        assert expected in done.stdout.split(), (words, done.stdout, done.stderr)


def test_read_conversations_gives_one_per_sample_session() -> None:
    from engramdb.io.messages import read_conversations

    convos = read_conversations(SAMPLE.read_text(encoding="utf-8"), "sample")
    first = convos[0].messages[0]
    assert len(convos) == 4 and all(c.session is None for c in convos)
    assert first == {"role": "user", "speaker": "Maya", "at": "2026-01-10T19:30:00+00:00",
                     "content": first["content"]}
    assert {m["role"] for c in convos for m in c.messages if m["speaker"] == "Noah"} == {
        "assistant"}
    plain = read_conversations('[{"role": "user", "content": "hi"}]', "plain")
    assert len(plain) == 1 and plain[0].messages == [{"role": "user", "content": "hi"}]

"""The `engramdb` command: driven in-process through typer's CliRunner, and as real processes
for the round trip, the exit codes and two writers on one file. Real SQLite files throughout."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engramdb.cli import app

ENV = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}
SETTINGS = ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET", "EMBED")

Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller's ENGRAMDB_* settings must not leak into these tests."""
    for name in SETTINGS:
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A memory file made as a user makes one: `engramdb init`."""
    path = str(tmp_path / "memory.db")
    made = CliRunner().invoke(app, ["init", "--db", path], env=ENV)
    assert made.exit_code == 0, made.output
    return path


@pytest.fixture
def cli(db: str) -> Run:
    """Run the command in-process against ``db``; check the exit code (0 unless told)."""
    runner = CliRunner()

    def run(*args: str, code: int = 0, input: str | None = None,
            env: dict[str, str] | None = None) -> Result:
        result = runner.invoke(app, ["--db", db, *args], env={**ENV, **(env or {})},
                               input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        if code not in (0, 2):
            assert "Traceback" not in result.output
            assert result.stderr.startswith("error: ")
        return result

    return run


@pytest.fixture
def cli_json(cli: Run) -> Callable[..., Any]:
    def run(*args: str, **options: Any) -> Any:
        return json.loads(cli(*args, "--json", **options).stdout)

    return run


def remember(cli_json: Callable[..., Any], text: str, *options: str) -> str:
    return cli_json("remember", text, *options)["memory"]["id"]


def shown_id(text: str, memory_id: str) -> str | None:
    """How a table shows ``memory_id``: a prefix of it of at least 8 characters, or None."""
    found = [w for w in text.split() if len(w) >= 8 and memory_id.startswith(w)]
    return found[0] if found else None


# ---------------------------------------------------------------- init, remember, status


def test_init_creates_the_file_and_prints_path_and_embedder(tmp_path: Path) -> None:
    target = (tmp_path / "new" / "dir" / "mem.db").resolve()
    result = CliRunner().invoke(app, ["init", "--db", str(target)], env=ENV)
    assert result.exit_code == 0, result.output
    assert target.exists()
    assert str(target) in result.stdout and "hashing" in result.stdout
    again = CliRunner().invoke(app, ["--json", "init", "--db", str(target)], env=ENV)
    assert json.loads(again.stdout) == {"path": str(target), "embedder": "hashing-v1-384",
                                        "dimensions": 384}


def test_remember_takes_every_option(cli_json: Callable[..., Any]) -> None:
    out = cli_json(
        "remember", "Lunch with Anna at the harbour", "--kind", "event",
        "--uri", "event://2026-02-20/lunch", "--at", "2026-02-20T12:30", "--importance", "0.8",
        "--metadata", '{"source": "chat", "turn": 7}', "--people", "Anna", "--people", "Bob",
        "--places", "Hamburg", "--topics", "food", "--priority", "p1",
    )
    assert (out["action"], out["rule"]) == ("add", "new_memory")
    rec = out["memory"]
    assert rec["kind"] == "event" and rec["uri"] == "event://2026-02-20/lunch"
    assert rec["at"] == "2026-02-20T12:30:00+00:00"  # no timezone given: taken as UTC
    assert rec["importance"] == 0.8 and rec["priority"] == "P1"
    assert rec["metadata"] == {"source": "chat", "turn": 7}
    assert (rec["people"], rec["places"], rec["topics"]) == (["Anna", "Bob"], ["Hamburg"],
                                                             ["food"])


def test_remember_prints_the_action_and_the_same_text_again_is_a_noop(cli: Run) -> None:
    first = cli("remember", "I drink green tea").stdout
    assert first.startswith("add ") and "rule=new_memory" in first
    memory_id = first.split()[1]
    again = cli("remember", "I drink green tea").stdout
    assert again.startswith(f"noop {memory_id}")


def test_remember_dash_reads_stdin(cli_json: Callable[..., Any]) -> None:
    out = cli_json("remember", "-", input="Written from a pipe\n")
    assert out["memory"]["content"] == "Written from a pipe"


def test_status_counts_by_layer_and_kind(cli: Run, cli_json: Callable[..., Any],
                                        db: str) -> None:
    remember(cli_json, "I am Ann", "--kind", "identity")
    forgotten = remember(cli_json, "a passing thought")
    cli("forget", forgotten)
    stats = cli_json("status")
    assert stats["total"] == 2 and stats["by_layer"] == {"core": 1, "archived": 0, "deleted": 1,
                                                  "cold": 0}
    assert stats["by_kind"] == {"identity": 1, "fact": 1}
    assert stats["events"] == 3 and stats["embedder"] == "hashing-v1-384"
    assert stats["path"] == db
    human = cli("status").stdout
    assert db in human and "hashing-v1-384" in human and "identity 1" in human


# ---------------------------------------------------------------- recall


def test_recall_shows_a_table_and_explains(cli: Run, cli_json: Callable[..., Any]) -> None:
    berlin = remember(cli_json, "I moved to Berlin last spring")
    remember(cli_json, "My sister plays the cello")
    table = cli("recall", "Berlin").stdout
    assert "I moved to Berlin last spring" in table and shown_id(table, berlin)
    assert "the word 'Berlin'" in table and "today" in table  # why, in one line
    assert "rrf" not in table and "fused" not in table          # not the score's terms
    for flags in (["--explain"], ["-v"]):  # the full terms behind --explain and -v
        explained = cli("recall", "Berlin", *flags).stdout
        assert f"#1 {shown_id(explained, berlin)} " in explained
        assert "fused" in explained and "strength" in explained
        assert "rrf=" in explained and re.search(r"why: +the word 'Berlin'", explained)


def test_recall_json_kind_filter_and_k(cli_json: Callable[..., Any]) -> None:
    remember(cli_json, "tea in the morning", "--kind", "preference")
    fact = remember(cli_json, "tea grows in Assam")
    out = cli_json("recall", "tea", "--kind", "fact", "--no-track")
    assert [h["memory"]["id"] for h in out["hits"]] == [fact]
    assert set(out["hits"][0]["explanation"]) >= {"legs", "fused", "strength", "final"}
    assert len(cli_json("recall", "tea", "-k", "1", "--no-track")["hits"]) == 1


def test_recall_no_track_changes_nothing(cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "the spare key is under the blue pot")
    cli_json("recall", "spare key", "--no-track")
    assert cli_json("get", memory_id)["use_count"] == 0
    cli_json("recall", "spare key")
    assert cli_json("get", memory_id)["use_count"] == 1


def test_recall_with_nothing_to_find_says_so(cli: Run, cli_json: Callable[..., Any]) -> None:
    result = cli("recall", "anything at all")
    assert result.stdout == "" and "nothing in memory matches" in result.stderr
    assert cli_json("recall", "anything at all")["abstained"] is True


def test_recall_query_full_of_fts_operators_is_plain_text(cli: Run,
                                                         cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "the unbalanced budget")
    hits = cli_json("recall", '"unbalanced AND NEAR( * : (')["hits"]
    assert hits[0]["memory"]["id"] == memory_id
    cli("recall", "OR NOT ^ - *")


def test_content_with_rich_markup_is_printed_as_is(cli: Run) -> None:
    cli("remember", "a [bold]literal[/] bracket and [/] more")
    assert "a [bold]literal[/] bracket and [/] more" in cli("list").stdout


# ---------------------------------------------------------------- get, history, forget, list


def test_get_by_id_and_by_uri(cli: Run, cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "My name is Ann", "--uri", "core://user/name")
    assert cli_json("get", "core://user/name")["id"] == memory_id
    human = cli("get", memory_id).stdout
    assert "My name is Ann" in human and "core://user/name" in human and "P0" in human


def test_history_after_an_update_through_the_same_uri(cli: Run,
                                                      cli_json: Callable[..., Any]) -> None:
    first = cli_json("remember", "I live in Paris", "--uri", "knowledge://user/home")
    second = cli_json("remember", "I live in Berlin", "--uri", "knowledge://user/home")
    assert second["action"] == "update" and second["memory"]["id"] == first["memory"]["id"]
    versions = cli_json("history", "knowledge://user/home")
    assert [(v["version"], v["op"], v["memory"]["content"]) for v in versions] == [
        (1, "create", "I live in Paris"), (2, "update", "I live in Berlin")]
    human = cli("history", first["memory"]["id"]).stdout
    assert "I live in Paris" in human and "update" in human


def test_forget_hides_and_restore_brings_back(cli: Run, cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "the wifi password is hunter2")
    assert cli("forget", memory_id).stdout.strip() == f"forgot {memory_id}"
    assert cli_json("list") == []
    assert cli_json("recall", "wifi password")["hits"] == []
    assert [r["id"] for r in cli_json("list", "--layer", "deleted")] == [memory_id]
    assert "deleted" in cli("list", "--layer", "deleted", "--layer", "core").stdout
    assert cli_json("restore", memory_id)["layer"] == "core"
    assert [r["id"] for r in cli_json("list")] == [memory_id]


def test_list_filters(cli_json: Callable[..., Any]) -> None:
    old = remember(cli_json, "went to school", "--kind", "event", "--at", "2001-09-01")
    mid = remember(cli_json, "got a bike", "--kind", "event", "--at", "2010-05-05T08:00:00Z")
    new = remember(cli_json, "likes jazz", "--kind", "preference", "--at", "2020-01-01",
                   "--uri", "knowledge://user/music")

    def ids(*args: str) -> list[str]:
        return [r["id"] for r in cli_json("list", *args)]

    assert ids() == [old, mid, new]
    assert ids("--kind", "event") == [old, mid]
    assert ids("--uri-prefix", "knowledge://") == [new]
    assert ids("--since", "2005-01-01", "--until", "2015-01-01") == [mid]
    assert ids("--until", "2010-05-05T08:00") == [old]  # until is exclusive; naive = UTC
    assert ids("--limit", "1", "--offset", "1") == [mid]


def test_list_is_a_readable_table(cli: Run) -> None:
    cli("remember", "the cat is called Miso", "--at", "2024-03-04T05:06")
    out = cli("list").stdout
    assert "the cat is called Miso" in out and "2024-03-04 05:06" in out and "fact" in out


# ---------------------------------------------------------------- export, import


def test_export_then_import_gives_the_same_recall(cli: Run, cli_json: Callable[..., Any],
                                                  tmp_path: Path) -> None:
    for text in ("tea with Anna in Berlin", "Anna likes green tea", "coffee is bitter",
                 "Berlin winters are grey", "the tea shop closed"):
        remember(cli_json, text)
    cli_json("recall", "tea Berlin")  # some use history travels with the export too
    dump = tmp_path / "dump.jsonl"
    assert cli_json("export", str(dump)) == {"exported": 5, "path": str(dump)}
    assert cli("export").stdout == dump.read_text(encoding="utf-8")

    fresh = str(tmp_path / "fresh.db")
    imported = cli("--db", fresh, "--create", "import", str(dump), "--progress")
    assert "imported 5" in imported.stdout and "5/5" in imported.stderr
    assert cli_json("--db", fresh, "import", str(dump)) == {
        "imported": 0, "skipped": 5, "goals": 0, "reembedded": 0}

    def ranking(*extra: str) -> list[tuple[str, float]]:
        hits = cli_json(*extra, "recall", "tea Berlin", "-k", "5", "--no-track")["hits"]
        return [(h["memory"]["id"], h["score"]) for h in hits]

    assert len(ranking()) == 5
    assert [i for i, _ in ranking("--db", fresh)] == [i for i, _ in ranking()]


def test_export_scopes(cli: Run, cli_json: Callable[..., Any], tmp_path: Path) -> None:
    remember(cli_json, "alice's note", "--user", "alice")
    remember(cli_json, "bob's note", "--user", "bob")
    mine = cli("export", "--user", "alice").stdout
    assert "alice's note" in mine and "bob's note" not in mine
    everything = cli("export", "--all-scopes").stdout
    assert "alice's note" in everything and "bob's note" in everything


def test_import_from_stdin(cli: Run, cli_json: Callable[..., Any], tmp_path: Path) -> None:
    remember(cli_json, "carried over a pipe")
    dump = cli("export").stdout
    fresh = str(tmp_path / "fresh.db")
    assert cli_json("--db", fresh, "--create", "import", "-", input=dump)["imported"] == 1
    assert cli_json("--db", fresh, "list")[0]["content"] == "carried over a pipe"


def test_import_refuses_what_is_not_an_export(cli: Run, tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"hello": 1}\n', encoding="utf-8")
    assert "not an engramdb export" in cli("import", str(junk), code=4).stderr
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    assert "not UTF-8" in cli("import", str(binary), code=4).stderr
    cli("import", str(tmp_path / "missing.jsonl"), code=2)
    cli("export", str(tmp_path / "no" / "such" / "dir.jsonl"), code=2)


# ---------------------------------------------------------------- options, scopes, errors


def test_global_options_go_before_or_after_the_command(tmp_path: Path) -> None:
    runner = CliRunner()
    before, after = str(tmp_path / "before.db"), str(tmp_path / "after.db")
    for args in (["--db", before, "--create", "--user", "amy", "--json", "remember", "x1"],
                 ["remember", "x1", "--db", after, "--user", "amy", "--json", "--create"]):
        result = runner.invoke(app, args, env=ENV)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["memory"]["user"] == "amy"


def test_settings_from_the_environment(tmp_path: Path) -> None:
    path = str(tmp_path / "env.db")
    env = {**ENV, "ENGRAMDB_URL": path, "ENGRAMDB_USER": "eve", "ENGRAMDB_AGENT": "bot"}
    result = CliRunner().invoke(app, ["--json", "--create", "remember", "from the environment"],
                                env=env)
    assert result.exit_code == 0, result.output
    assert (json.loads(result.stdout)["memory"]["user"], Path(path).exists()) == ("eve", True)
    status = json.loads(CliRunner().invoke(app, ["status", "--json"], env=env).stdout)
    assert (status["path"], status["user"], status["agent"], status["total"]) == (
        path, "eve", "bot", 1)


def test_scopes_are_isolated(cli: Run, cli_json: Callable[..., Any]) -> None:
    secret = remember(cli_json, "alice's secret recipe", "--user", "alice")
    assert cli_json("recall", "secret recipe", "--user", "bob")["hits"] == []
    assert cli_json("list", "--user", "bob") == []
    cli("get", secret, "--user", "bob", code=3)
    cli("forget", secret, "--user", "bob", code=3)
    cli("get", secret, "--user", "alice", "--agent", "other", code=3)
    hits = cli_json("recall", "secret recipe", "--user", "alice")["hits"]
    assert [h["memory"]["id"] for h in hits] == [secret]


def test_errors_in_json_mode(cli: Run) -> None:
    result = cli("get", "01NOPE", "--json", code=3)
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "not_found" and "01NOPE" in error["message"]
    assert result.stderr.strip() == f"error: {error['message']}"


@pytest.mark.parametrize(("args", "code", "message"), [
    (["get", "01NOPE"], 3, "no memory"),
    (["history", "core://user/nobody"], 3, "no memory"),
    (["forget", "01NOPE"], 3, "no memory"),
    (["restore", "01NOPE"], 3, "no memory"),
    (["remember", ""], 4, "content is empty"),
    (["remember", "   "], 4, "content is empty"),
    (["remember", "x", "--kind", "feeling"], 4, "unknown kind"),
    (["remember", "x", "--uri", "nowhere"], 4, "uri"),
    (["remember", "x", "--uri", "ftp://a/b"], 4, "unknown domain"),
    (["remember", "x", "--at", "next tuesday"], 4, "ISO 8601"),
    (["remember", "x", "--importance", "7"], 4, "importance"),
    (["remember", "x", "--metadata", "{oops"], 4, "not valid JSON"),
    (["remember", "x", "--metadata", "[1, 2]"], 4, "metadata"),
    (["remember", "x", "--priority", "P9"], 4, "priority"),
    (["recall", "x", "-k", "0"], 4, "k must be"),
    (["recall", "x", "-k", "5000"], 4, "k must be"),
    (["recall", "  "], 4, "query is empty"),
    (["recall", "x", "--preset", "psychic"], 4, "preset"),
    (["list", "--layer", "attic"], 4, "layer"),
    (["list", "--since", "soon"], 4, "ISO 8601"),
    (["list", "--limit", "-1"], 4, "limit"),
    (["list", "--uri-prefix", "nowhere"], 4, "prefix"),
    (["status", "--embedder", "no-such-model"], 6, "unknown embedder"),
])
def test_exit_codes(cli: Run, args: list[str], code: int, message: str) -> None:
    assert message in cli(*args, code=code).stderr


@pytest.mark.parametrize("args", [
    ["recall", "x", "-k", "many"], ["remember"], ["remember", "x", "--bogus"], ["frobnicate"],
    ["remember", "x", "--importance", "high"], ["list", "--limit", "ten"],
])
def test_usage_errors_exit_2(cli: Run, args: list[str]) -> None:
    cli(*args, code=2)


def test_restoring_onto_a_taken_uri_is_a_conflict(cli: Run,
                                                  cli_json: Callable[..., Any]) -> None:
    ann = remember(cli_json, "My name is Ann", "--uri", "core://user/name")
    cli("forget", ann)
    bo = remember(cli_json, "My name is Bo", "--uri", "core://user/name")
    assert bo != ann
    result = cli("restore", ann, "--json", code=5)
    assert json.loads(result.stdout)["error"]["code"] == "conflict"
    assert "core://user/name" in result.stderr


def test_store_errors_exit_6(cli: Run, tmp_path: Path) -> None:
    text_file = tmp_path / "notes.txt"
    text_file.write_text("just some notes\n" * 100, encoding="utf-8")
    other_app = tmp_path / "other.sqlite"
    with sqlite3.connect(other_app) as conn:
        conn.execute("CREATE TABLE songs (title TEXT)")
    conn.close()
    for path in (text_file, other_app):
        result = cli("status", "--db", str(path), code=6)
        assert "not an engramdb database" in result.stderr
    assert text_file.read_text(encoding="utf-8") == "just some notes\n" * 100
    missing = cli("status", "--db", str(tmp_path / "no" / "dir.db"), code=6)
    assert "no memory file at" in missing.stderr and not (tmp_path / "no").exists()
    cli("remember", "made with hashing")
    other_model = cli("status", "--embedder", "e5", code=6)
    assert "built with embedder hashing" in other_model.stderr


# ---------------------------------------------------------------- real processes


def process_env() -> dict[str, str]:
    return {**os.environ, **ENV}  # clean_env has already dropped the caller's settings


def engramdb(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engramdb.cli", "--db", db, *args],
                          capture_output=True, text=True, env=process_env(), timeout=120)


def as_json(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_round_trip_in_real_processes(db: str) -> None:
    written = as_json(engramdb(db, "--json", "remember", "I keep bees on the roof",
                               "--kind", "fact", "--metadata", '{"source": "chat"}'))
    memory_id = written["memory"]["id"]
    hits = as_json(engramdb(db, "recall", "bees", "--json"))["hits"]
    assert [h["memory"]["id"] for h in hits] == [memory_id]
    got = as_json(engramdb(db, "get", memory_id, "--json"))
    assert got["content"] == "I keep bees on the roof" and got["metadata"] == {"source": "chat"}
    assert as_json(engramdb(db, "forget", memory_id, "--json"))["layer"] == "deleted"
    assert as_json(engramdb(db, "list", "--json")) == []


def test_exit_codes_in_real_processes(db: str, tmp_path: Path) -> None:
    cases = [(["get", "01NOPE"], 3), (["remember", ""], 4), (["recall", "x", "--nope"], 2)]
    not_a_db = tmp_path / "photo.jpg"
    not_a_db.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8)
    for args, code in [*cases, (["--db", str(not_a_db), "status"], 6)]:
        proc = engramdb(db, *args)
        assert proc.returncode == code, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stderr.strip()
    assert "photo.jpg is not an engramdb database" in proc.stderr


LIBRARY_WRITER = """
import sys, engramdb
for i in range(int(sys.argv[2])):
    with engramdb.open(sys.argv[1]) as mem:
        mem.remember(f"library memory number {i} about gardening")
        mem.recall("gardening", k=3)
"""


def test_cli_and_library_write_one_file_at_once(tmp_path: Path) -> None:
    """Both start on a file that does not exist yet (the CLI told to --create it): creation,
    migration and writes race. (20 CLI processes, not more: each one costs a Python start-up,
    ~0.5 s.)"""
    n, db = 20, str(tmp_path / "raced.db")
    library = subprocess.Popen([sys.executable, "-c", LIBRARY_WRITER, db, str(n)],
                               env=process_env(), stderr=subprocess.PIPE, text=True)
    try:
        failed = [(i, p.stderr) for i in range(n)
                  if (p := engramdb(db, "--create", "remember",
                                    f"cli memory number {i} about sailing"))
                  .returncode != 0]
    finally:
        _, library_err = library.communicate(timeout=120)
    assert failed == [] and library.returncode == 0, (failed, library_err)
    contents = {r["content"] for r in as_json(engramdb(db, "list", "--json"))}
    assert contents == ({f"cli memory number {i} about sailing" for i in range(n)}
                        | {f"library memory number {i} about gardening" for i in range(n)})


# ---------------------------------------------------------------- history, rollback, forget, boot


def test_history_says_who_and_why(cli: Run, cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "I live in Paris", "--uri", "knowledge://user/home")
    cli("forget", memory_id, "--reason", "moved away")
    versions = cli_json("history", memory_id)
    assert [(v["op"], v["user"], v["agent"], v["actor"], v["reason"]) for v in versions] == [
        ("create", "default", "default", "user", "new_memory"),
        ("forget", "default", "default", "user", "moved away")]
    human = cli("history", memory_id).stdout
    assert "who" in human and "why" in human
    assert "forget  user  moved away" in human   # who: the actor (the scope is the command's)


def test_rollback_restores_a_version(cli: Run, cli_json: Callable[..., Any]) -> None:
    home = remember(cli_json, "I live in Paris", "--uri", "knowledge://user/home")
    cli_json("remember", "I live in Berlin", "--uri", "knowledge://user/home")
    result = cli("rollback", home, "1")
    assert result.stdout.strip() == f"rolled {home} back to version 1: now version 3"
    assert cli_json("get", home)["content"] == "I live in Paris"
    assert cli_json("remember", "I live in Paris", "--uri", "knowledge://user/home")[
        "action"] == "noop"
    assert [h["memory"]["id"] for h in cli_json("recall", "Berlin", "--preset", "lexical",
                                                "--no-track")["hits"]] == []
    back = cli_json("rollback", "knowledge://user/home", "2", "--reason", "moved after all")
    assert (back["id"], back["content"], back["version"]) == (home, "I live in Berlin", 4)
    last = cli_json("history", home)[-1]
    assert (last["op"], last["reason"]) == ("rollback", "to version 2: moved after all")


def test_rollback_bad_input(cli: Run, cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "I keep bees")
    assert "no version 5" in cli("rollback", memory_id, "5", code=3).stderr
    assert "no memory" in cli("rollback", "01NOPE", "1", code=3).stderr
    assert "positive integer" in cli("rollback", memory_id, "0", code=4).stderr
    cli("rollback", memory_id, "one", code=2)
    cli("rollback", memory_id, code=2)


def test_forget_hard_erases_for_good(cli: Run, cli_json: Callable[..., Any]) -> None:
    memory_id = remember(cli_json, "the vault word is zebracorn", "--metadata", '{"k": "v"}')
    assert cli("forget", memory_id, "--hard").stdout.strip() == f"erased {memory_id}"
    tomb = cli_json("get", memory_id)
    assert (tomb["content"], tomb["metadata"], tomb["layer"]) == ("", {}, "deleted")
    assert all(v["memory"]["content"] == "" for v in cli_json("history", memory_id))
    result = cli("restore", memory_id, code=5)
    assert "erased" in result.stderr
    assert cli_json("remember", "the vault word is zebracorn")["action"] == "add"


def test_forget_a_whole_user(cli: Run, cli_json: Callable[..., Any]) -> None:
    for user in ("alice", "bob"):
        cli("remember", f"{user} likes tea", "--user", user)
        cli("remember", f"{user} lives in Berlin", "--user", user)
    result = cli("forget", "--user", "alice", "--all", "--yes")
    assert result.stdout.strip() == "forgot 2 memories of user=alice agent=default"
    assert cli_json("status", "--user", "alice")["total"] == 0
    assert cli_json("status", "--user", "alice")["events"] == 1  # the audit event
    assert cli_json("status", "--user", "bob")["total"] == 2
    cli("remember", "alice is back", "--user", "alice")
    assert cli_json("forget", "--user", "alice", "--all", "--yes") == {
        "removed": 1, "user": "alice", "agent": "default"}


def test_forget_all_asks_first(cli: Run, cli_json: Callable[..., Any]) -> None:
    cli("remember", "alice likes tea", "--user", "alice")
    refused = cli("forget", "--user", "alice", "--all", "--json", code=2)
    assert json.loads(refused.stdout)["error"]["code"] == "needs_confirmation"
    assert "--yes" in refused.stderr
    declined = cli("forget", "--user", "alice", "--all", input="n\n", code=2)
    assert "Forget all 1 memories of user=alice agent=default?" in declined.stderr
    assert "nothing forgotten" in declined.stderr
    cli("forget", "--user", "alice", "--all", input="", code=2)  # no answer is a no
    assert cli_json("status", "--user", "alice")["total"] == 1
    cli("forget", "--user", "alice", "--all", input="y\n")
    assert cli_json("status", "--user", "alice")["total"] == 0


@pytest.mark.parametrize("args", [
    ["forget"], ["forget", "--all", "--yes"], ["forget", "01X", "--all", "--user", "a", "--yes"],
])
def test_forget_usage_errors(cli: Run, args: list[str]) -> None:
    cli(*args, code=2)


def test_boot_lists_what_an_agent_loads(cli: Run, cli_json: Callable[..., Any]) -> None:
    cli("remember", "My name is Li", "--uri", "core://user/name")
    cli("remember", "I live in Berlin", "--uri", "knowledge://user/home")
    cli("remember", "I like tea")
    cli("remember", "knowledge://user/home\nknowledge://user/pets", "--uri", "system://boot")
    loaded = cli_json("boot")
    assert [m["content"] for m in loaded["memories"]] == ["My name is Li", "I live in Berlin",
                                                          "I like tea"]  # + the profile
    assert loaded["missing"] == ["knowledge://user/pets"]
    assert loaded["truncated"] is False and loaded["tokens"] == 11
    cut = cli_json("boot", "--budget", "4")
    assert [m["content"] for m in cut["memories"]] == ["My name is Li"] and cut["truncated"]
    human = cli("boot")
    assert "My name is Li" in human.stdout and "missing: knowledge://user/pets" in human.stderr
    assert "budget" in cli("boot", "--budget", "-1", code=4).stderr


def test_snapshot_and_restore_snapshot(cli: Run, cli_json: Callable[..., Any],
                                       tmp_path: Path) -> None:
    kept = remember(cli_json, "I live in Berlin")
    snap = tmp_path / "snap.jsonl"
    written = cli_json("snapshot", str(snap))
    assert written == {"memories": 1, "path": str(snap), "user": "default", "agent": "default"}
    remember(cli_json, "I adopted a cat")
    cli("forget", kept)
    result = cli("restore-snapshot", str(snap))
    assert result.stdout.strip() == "removed 2, restored 1, reembedded 0"
    assert [r["id"] for r in cli_json("list")] == [kept]
    assert "written to" in cli("snapshot", str(snap)).stdout
    assert cli_json("restore-snapshot", "-", input=snap.read_text(encoding="utf-8")) == {
        "removed": 1, "restored": 1, "reembedded": 0}


def test_snapshot_bad_input(cli: Run, cli_json: Callable[..., Any], tmp_path: Path) -> None:
    snap = tmp_path / "alice.jsonl"
    cli("remember", "alice likes tea", "--user", "alice")
    cli("snapshot", str(snap), "--user", "alice")
    assert "not of user=bob" in cli("restore-snapshot", str(snap), "--user", "bob",
                                    code=4).stderr
    cli("restore-snapshot", str(tmp_path / "nope.jsonl"), code=2)
    cli("snapshot", str(tmp_path / "no" / "dir" / "snap.jsonl"), code=2)
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n", encoding="utf-8")
    assert "not a JSONL export" in cli("restore-snapshot", str(notes), code=4).stderr
    assert cli_json("status", "--user", "alice")["total"] == 1


def test_remember_junk_says_what_failed_and_history_shows_the_chain(
        cli: Run, cli_json: Callable[..., Any]) -> None:
    out = cli("remember", "aaaaaaaaaaaa").stdout
    assert out.startswith("reject ") and "failed=repeated_char (nothing stored)" in out
    first = remember(cli_json, "Li lives in Lisbon")
    second = cli_json("remember", "Li moved to Berlin")
    assert (second["action"], second["rule"]) == ("supersede", "slot_new_value")
    versions = cli_json("history", first)
    assert [v["memory"]["id"] for v in versions] == [first, first, second["memory"]["id"]]
    assert [v["current"] for v in versions] == [False, False, True]
    table = cli("history", first).stdout
    assert "supersede" in table and "1*" in table

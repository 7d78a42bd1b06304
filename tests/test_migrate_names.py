"""The names other memory systems used work here (issue 31): `--type` for `--kind`,
AGENT_MEMORY_DB for the database location (ENGRAMDB_URL wins), and `reflect all` (every scope,
every memory). Driven through the real command on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import engramdb
from engramdb.cli import app
from engramdb.config import Config

ENV = {"ENGRAMDB_EMBEDDER": "hashing", "COLUMNS": "200"}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No caller setting leaks in, and a stray default file would land in tmp_path."""
    for name in ("URL", "USER", "AGENT", "CONFIG", "EMBED"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)
    monkeypatch.delenv("AGENT_MEMORY_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def run(*args: str, env: dict[str, str] | None = None, code: int = 0) -> Result:
    result = CliRunner().invoke(app, list(args), env={**ENV, **(env or {})})
    assert result.exit_code == code, result.output
    return result


def test_type_is_kind_on_remember_recall_and_list(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run("--db", db, "--create", "init")
    wrote = json.loads(run("--db", db, "--json", "remember", "--type", "preference",
                           "I prefer green tea").output)
    assert wrote["memory"]["kind"] == "preference"
    zh = json.loads(run("--db", db, "--json", "remember", "--type", "event",
                        "昨天和小王去了西湖").output)
    assert zh["memory"]["kind"] == "event"
    hits = json.loads(run("--db", db, "--json", "recall", "--type", "event", "西湖").output)
    assert [h["memory"]["id"] for h in hits["hits"]] == [zh["memory"]["id"]]
    listed = run("--db", db, "--json", "list", "--type", "preference").output
    assert [m["id"] for m in json.loads(listed)] == [wrote["memory"]["id"]]


def test_a_bad_type_is_refused_like_a_bad_kind(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run("--db", db, "--create", "init")
    bad = run("--db", db, "remember", "--type", "gossip", "something", code=4)
    assert "gossip" in bad.output and "Traceback" not in bad.output


def test_agent_memory_db_names_the_database(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "theirs.db"
    run("--create", "remember", "我住在柏林", env={"AGENT_MEMORY_DB": str(db)})
    assert db.exists() and not (tmp_path / "xdg").exists()  # no stray default file
    out = run("--json", "recall", "柏林", env={"AGENT_MEMORY_DB": str(db)}).output
    assert json.loads(out)["hits"][0]["memory"]["content"] == "我住在柏林"
    monkeypatch.setenv("AGENT_MEMORY_DB", str(db))
    with engramdb.open(embedder="hashing") as mem:  # the library reads it too
        assert mem.store.location == str(db)


def test_engramdb_url_wins_over_agent_memory_db(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_DB", str(tmp_path / "theirs.db"))
    assert Config.load().url == str(tmp_path / "theirs.db")
    monkeypatch.setenv("ENGRAMDB_URL", str(tmp_path / "ours.db"))
    assert Config.load().url == str(tmp_path / "ours.db")
    assert Config.load(url="given.db").url == "given.db"   # an argument wins over both


def test_a_missing_agent_memory_db_file_is_named_in_the_error(tmp_path: Path) -> None:
    gone = tmp_path / "typo.db"
    out = run("status", env={"AGENT_MEMORY_DB": str(gone)}, code=6).output
    assert "$AGENT_MEMORY_DB" in out and "--create" in out and not gone.exists()


def test_reflect_all_sleeps_every_scope_in_full(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run("--db", db, "--create", "--user", "alice", "remember", "Alice likes chess")
    run("--db", db, "--user", "bob", "remember", "鲍勃喜欢下围棋")
    run("--db", db, "--user", "bob", "sleep")   # bob slept once: the next would be incremental
    got = json.loads(run("--db", db, "--json", "reflect", "all").output)["scopes"]
    assert {(r["user"], r["mode"], r["visited"]) for r in got} == {("alice", "full", 1),
                                                                   ("bob", "full", 1)}
    table = run("--db", db, "reflect", "all").output
    assert "user alice" in table and "user bob" in table
    one = json.loads(run("--db", db, "--json", "--user", "bob", "reflect").output)
    assert one["user"] == "bob" and one["mode"] == "incremental"


def test_reflect_refuses_another_target_and_a_bad_phase(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run("--db", db, "--create", "remember", "A note")
    assert "only target is 'all'" in run("--db", db, "reflect", "everything", code=2).output
    bad = run("--db", db, "reflect", "all", "--phase", "dream", code=4).output
    assert "dream" in bad and "Traceback" not in bad


def test_sleep_all_on_an_empty_store_and_its_bad_input(tmp_path: Path) -> None:
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        assert mem.sleep_all() == []
        with pytest.raises(engramdb.Invalid):
            mem.sleep_all(full="yes")  # type: ignore[arg-type]
        with pytest.raises(engramdb.Invalid):
            mem.sleep_all("dream")

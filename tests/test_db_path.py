"""Issue 29, item 8: a mistyped --db path must not silently make a new, empty memory (every
command would then answer "no memory" and the user would believe their data gone). The CLI,
`engramdb serve` and `engramdb mcp` refuse a --db or $ENGRAMDB_URL file that does not exist,
naming it, with exit 6, and create nothing; `init` or --create make it. The library's
``engramdb.open()`` still creates a new file, as sqlite3 does. Real processes, real files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engramdb

SETTINGS = ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET", "EMBED")


def env(**extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items()
             if k.removeprefix("ENGRAMDB_") not in SETTINGS}
    return {**clean, "ENGRAMDB_EMBEDDER": "hashing", "ENGRAMDB_THREADS": "1", **extra}


def engramdb_cli(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engramdb.cli", *args], env=env(**extra),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """The user's real memory file, with one memory in it."""
    path = tmp_path / "notes.db"
    with engramdb.open(path, embedder="hashing") as mem:
        mem.remember("I moved to Berlin", kind="fact")
    return path


def refused(done: subprocess.CompletedProcess[str], path: Path) -> bool:
    return (done.returncode == 6 and str(path) in done.stderr
            and "Traceback" not in done.stderr and not path.exists())


@pytest.mark.parametrize("command", [("recall", "where do I live?"), ("status",),
                                     ("remember", "a note"), ("keys", "create")])
def test_a_mistyped_db_is_refused_and_nothing_is_created(notes, command):  # type: ignore[no-untyped-def]
    typo = notes.with_name("note.db")
    done = engramdb_cli("--db", str(typo), *command)
    assert refused(done, typo), (done.returncode, done.stderr)
    assert "init" in done.stderr and "--create" in done.stderr   # what to do instead
    right = engramdb_cli("--db", str(notes), "recall", "where do I live?")
    assert right.returncode == 0 and "Berlin" in right.stdout


def test_engramdb_url_is_checked_too(notes):  # type: ignore[no-untyped-def]
    typo = notes.with_name("nots.db")
    done = engramdb_cli("recall", "where do I live?", ENGRAMDB_URL=str(typo))
    assert refused(done, typo), done.stderr
    assert "ENGRAMDB_URL" in done.stderr
    found = engramdb_cli("recall", "where do I live?", ENGRAMDB_URL=str(notes))
    assert found.returncode == 0 and "Berlin" in found.stdout


def test_init_or_create_make_a_new_file(tmp_path):  # type: ignore[no-untyped-def]
    made = tmp_path / "new" / "made.db"
    assert engramdb_cli("--db", str(made), "init").returncode == 0 and made.exists()
    fresh = tmp_path / "fresh.db"
    done = engramdb_cli("--db", str(fresh), "--create", "remember", "first note")
    assert done.returncode == 0 and fresh.exists(), done.stderr
    again = engramdb_cli("remember", "second note", "--create", ENGRAMDB_URL=str(fresh))
    assert again.returncode == 0, again.stderr
    listed = engramdb_cli("--db", str(fresh), "list")
    assert "first note" in listed.stdout and "second note" in listed.stdout


def test_memory_is_not_a_file(tmp_path):  # type: ignore[no-untyped-def]
    done = subprocess.run([sys.executable, "-m", "engramdb.cli", "--db", ":memory:", "status"],
                          env=env(), capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("door", [("serve", "--workers", "2", "--port", "0"), ("mcp",),
                                  ("mcp", "--http", "--port", "0")])
def test_the_servers_refuse_a_missing_file(tmp_path, door):  # type: ignore[no-untyped-def]
    """Refused before anything listens (without the check a server would start on a new,
    empty file: the run would time out)."""
    typo = tmp_path / "memroy.db"
    done = engramdb_cli(*door, "--db", str(typo))
    assert refused(done, typo), (done.returncode, done.stderr[-2000:])
    by_env = engramdb_cli(*door, ENGRAMDB_URL=str(typo))
    assert refused(by_env, typo), (by_env.returncode, by_env.stderr[-2000:])


def test_the_library_still_creates_a_new_file(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "lib.db"
    with engramdb.open(path, embedder="hashing") as mem:
        assert mem.count() == 0
    assert path.exists()

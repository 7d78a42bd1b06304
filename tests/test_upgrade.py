"""Issue 18, upgrade safety: a file made by the first schema version (built here from the
migration list, as engramdb 0.1's first release wrote it) is backed up next to itself, named
with both versions, then migrated; a migration that fails leaves the original untouched."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import engramdb
import engramdb.store.sqlite.store as sqlite_store
from engramdb import StoreError
from engramdb.store.common import Migration
from engramdb.store.sqlite.migrations import MIGRATIONS
from helpers import dump

NEWEST = max(m.version for m in MIGRATIONS)


def first_version_file(path: Path) -> None:
    """A file as the first schema version left it: its tables, its version row, its id."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE schema_migrations "
               "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    first = MIGRATIONS[0]
    for statement in first.statements:
        db.execute(statement)
    db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
               (first.version, first.name, "2026-01-01T00:00:00Z"))
    db.execute(f"PRAGMA application_id = {sqlite_store.APP_ID}")
    db.commit()
    db.close()


def versions(path: Path) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    finally:
        db.close()


def test_an_old_file_is_backed_up_then_migrated(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "memory.db"
    first_version_file(path)
    before = dump(str(path))
    with engramdb.open(path, embedder="hashing") as mem:
        backup = mem.store.upgrade_backup
        assert backup == tmp_path / f"memory.db.schema-1-to-{NEWEST}.bak"
        mem.remember("我住在柏林", kind="fact")
        assert mem.recall("柏林", k=1)[0].memory.content == "我住在柏林"
    assert versions(path) == [m.version for m in MIGRATIONS]
    assert versions(backup) == [1]
    assert dump(str(backup)) == before   # the copy is the file as it was
    with engramdb.open(path, embedder="hashing") as mem:   # up to date: no second copy
        assert mem.store.upgrade_backup is None
    assert sorted(p.name for p in tmp_path.glob("*.bak")) == [backup.name]


def test_a_new_file_gets_no_backup(tmp_path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "new.db", embedder="hashing") as mem:
        assert mem.store.upgrade_backup is None
    assert list(tmp_path.glob("*.bak")) == []


def test_a_failed_migration_leaves_the_original_untouched(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    path = tmp_path / "memory.db"
    first_version_file(path)
    before = dump(str(path))
    broken = Migration(NEWEST + 1, "broken", ("CREATE TABLE fine (x)",
                                              "CREATE TABLE memories (x)"))   # clashes
    monkeypatch.setattr(sqlite_store, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(StoreError):
        engramdb.open(path, embedder="hashing")
    assert dump(str(path)) == before
    assert versions(path) == [1]
    monkeypatch.undo()
    with engramdb.open(path, embedder="hashing") as mem:   # and it still upgrades after
        assert mem.count() == 0
    assert versions(path) == [m.version for m in MIGRATIONS]


# a child that opens an old file and is SIGKILLed in the middle of its backup copy: the
# online backup goes one page at a time, and the kill comes once some pages are written
KILLED_MID_BACKUP = r"""
import os, signal, sys
import engramdb
from engramdb.store.sqlite import upgrade

def copy_then_die(db, path):
    import sqlite3
    copy = sqlite3.connect(path)
    def progress(status, remaining, total):
        if total - remaining >= 2:
            os.kill(os.getpid(), signal.SIGKILL)
    db.backup(copy, pages=1, progress=progress)

upgrade.copy_to = copy_then_die
engramdb.open(sys.argv[1], embedder="hashing")
"""


def test_a_kill_during_the_backup_leaves_no_broken_copy(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "memory.db"
    first_version_file(path)
    before = dump(str(path))
    child = subprocess.Popen([sys.executable, "-c", KILLED_MID_BACKUP, str(path)],
                             stderr=subprocess.PIPE, text=True)
    child_pid, (_, err) = child.pid, child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    left = sorted(p.name for p in tmp_path.iterdir() if "schema-" in p.name)
    assert left == [f"memory.db.schema-1-to-{NEWEST}.bak.{child_pid}.tmp{end}"
                    for end in ("", "-journal")], left   # a partial copy, not named .bak
    assert versions(path) == [1]   # the original is untouched
    with engramdb.open(path, embedder="hashing") as mem:   # the next open cleans up, then upgrades
        backup = mem.store.upgrade_backup
        assert sorted(p.name for p in mem.store.upgrade_leftovers) == left
    assert backup == tmp_path / f"memory.db.schema-1-to-{NEWEST}.bak"
    assert dump(str(backup)) == before   # a whole copy under the .bak name
    assert sorted(p.name for p in tmp_path.iterdir() if "schema-" in p.name) == [backup.name]


def test_a_backup_in_progress_in_another_process_is_left_alone(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "memory.db"
    first_version_file(path)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        busy = tmp_path / f"memory.db.schema-1-to-{NEWEST}.bak.{alive.pid}.tmp"
        busy.write_bytes(b"being written")
        with engramdb.open(path, embedder="hashing") as mem:
            assert mem.store.upgrade_leftovers == []
        assert busy.exists()
    finally:
        alive.kill()
        alive.wait()

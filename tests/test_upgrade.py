"""Issue 18, upgrade safety: a file made by the first schema version (built here from the
migration list, as engramdb 0.1's first release wrote it) is backed up next to itself, named
with both versions, then migrated; a migration that fails leaves the original untouched."""

from __future__ import annotations

import sqlite3
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

"""Upgrade safety for SQLite files (issue 18): before a file made by an older engramdb is
migrated, a copy of it is written next to it, named with both schema versions
(``memory.db.schema-3-to-9.bak``). The copy goes through SQLite's online backup API, so it is
a consistent snapshot even while other processes use the file (WAL included). The migration
itself runs in one transaction (SQLite's schema changes are transactional): if it fails, it is
rolled back and the original is left as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ...errors import StoreError


def applied_version(db: sqlite3.Connection) -> int | None:
    """The newest schema version the file records; None for a file with no schema yet."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                       "AND name = 'schema_migrations'").fetchone()
    if not found:
        return None
    return db.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]


def backup_path(location: str, old: int, new: int) -> Path:
    path = Path(f"{location}.schema-{old}-to-{new}.bak")
    n = 1
    while path.exists():   # an earlier upgrade's copy is never overwritten
        n += 1
        path = Path(f"{location}.schema-{old}-to-{new}.{n}.bak")
    return path


def backup_before_migrating(db: sqlite3.Connection, location: str, newest: int) -> Path | None:
    """Copy the file next to itself when its schema is older than ``newest``; the copy's path
    (None when nothing is to migrate)."""
    old = applied_version(db)
    if old is None or old >= newest:
        return None
    target = backup_path(location, old, newest)
    try:
        copy = sqlite3.connect(target)
        try:
            db.backup(copy)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise StoreError(f"{location} has schema version {old} and needs migrating to {newest}, "
                         f"but its backup copy {target} could not be written: {exc}") from exc
    return target

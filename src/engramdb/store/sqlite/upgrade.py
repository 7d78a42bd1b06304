"""Upgrade safety for SQLite files (issue 18): before a file made by an older engramdb is
migrated, a copy of it is written next to it, named with both schema versions
(``memory.db.schema-3-to-9.bak``). The copy goes through SQLite's online backup API, so it is
a consistent snapshot even while other processes use the file (WAL included). It is written
under a temporary name (``memory.db.schema-3-to-9.bak.<pid>.tmp``) and renamed once complete,
so a ``.bak`` is always a whole copy; a temporary copy left by a process killed mid-backup (and
its ``-journal``) is removed by the next open. The migration itself runs in one transaction
(SQLite's schema changes are transactional): if it fails, it is rolled back and the original
is left as it was."""

from __future__ import annotations

import os
import re
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
    partial = Path(f"{target}.{os.getpid()}{TMP}")
    try:
        copy_to(db, partial)
        partial.replace(target)   # the .bak name appears only on a whole copy
    except (sqlite3.Error, OSError) as exc:
        _remove(partial)
        raise StoreError(f"{location} has schema version {old} and needs migrating to {newest}, "
                         f"but its backup copy {target} could not be written: {exc}") from exc
    return target


TMP = ".tmp"
_LEFTOVER = re.compile(r"\.schema-\d+-to-\d+(?:\.\d+)?\.bak\.(\d+)\.tmp(?:-journal)?")


def copy_to(db: sqlite3.Connection, path: Path) -> None:
    """SQLite's online backup of ``db`` into a new file at ``path``."""
    copy = sqlite3.connect(path)
    try:
        db.backup(copy)
    finally:
        copy.close()


def remove_leftovers(location: str) -> list[Path]:
    """Remove the temporary backup copies (and their journals) that a process killed during
    its pre-upgrade backup left next to the file; those of a process still running are kept.
    Returns what was removed."""
    path = Path(location)
    prefix = path.name
    removed = []
    try:
        names = [p for p in path.parent.iterdir() if p.name.startswith(prefix + ".schema-")]
    except OSError:
        return []
    for leftover in names:
        found = _LEFTOVER.fullmatch(leftover.name[len(prefix):])
        if found and not _running(int(found.group(1))):
            _remove(leftover)
            removed.append(leftover)
    return removed


def _running(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)   # signal 0: only asks whether the process exists
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True   # someone else's process
    return True


def _remove(path: Path) -> None:
    for leftover in (path, Path(f"{path}-journal")):
        try:
            leftover.unlink(missing_ok=True)
        except OSError:
            pass

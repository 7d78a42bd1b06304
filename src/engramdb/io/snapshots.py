"""A folder of named snapshots: take one, list a scope's, roll the scope back to one.

Each file is a snapshot of one scope (io/snapshot.py) named ``<name>.jsonl``, where the name
is ``snap-`` and a time-sortable id. The header of each file names its scope, so one folder
can serve many scopes: a scope lists and restores only its own snapshots, and another scope's
snapshot is reported as not found (its existence does not leak). This is what the MCP door's
``snapshot`` tool offers; the engine's ``Memory.snapshot`` / ``restore_snapshot`` do the work.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, Invalid, NotFound
from ..ids import new_id

if TYPE_CHECKING:
    from ..facade import Facade

NAME = re.compile(r"^snap-[0-9A-HJKMNP-TV-Z]{26}$")
SUFFIX = ".jsonl"


@dataclass
class SnapshotInfo:
    """One snapshot in the folder: its name, scope, when it was taken and what it holds."""

    name: str
    user: str
    agent: str
    at: str
    memories: int
    bytes: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def default_folder(location: str) -> Path:
    """Snapshots of a store file live beside it, in ``<file>.snapshots/``."""
    if not location or location == ":memory:":
        raise ConfigError("snapshots need a folder: this store is in memory, so give one "
                          "(--snapshots DIR or ENGRAMDB_SNAPSHOT_DIR)")
    return Path(location).expanduser().resolve().with_name(Path(location).name + ".snapshots")


def take(mem: Facade, folder: str | os.PathLike[str], *, user: str | None = None,
         agent: str | None = None) -> SnapshotInfo:
    """Snapshot the scope into the folder (made if missing); return what was written."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the snapshot folder {path}: {exc.strerror}") from None
    name = "snap-" + new_id(mem.clock.now())
    mem.snapshot(path / (name + SUFFIX), user=user, agent=agent)
    info = _read_info(path / (name + SUFFIX))
    if info is None:  # written just now by write_snapshot: a missing header is a bug
        raise Invalid(f"snapshot {name} was written without a scope header")
    return info


def listing(mem: Facade, folder: str | os.PathLike[str], *, user: str | None = None,
            agent: str | None = None) -> list[SnapshotInfo]:
    """The scope's snapshots in the folder, newest first (none when the folder is missing)."""
    scope = mem.scope(user, agent)
    path = Path(folder)
    if not path.is_dir():
        return []
    found = []
    for file in path.glob("snap-*" + SUFFIX):
        info = _read_info(file) if NAME.match(file.stem) else None
        if info is not None and (info.user, info.agent) == (scope.user, scope.agent):
            found.append(info)
    return sorted(found, key=lambda i: i.name, reverse=True)


def restore(mem: Facade, folder: str | os.PathLike[str], name: str, *,
            user: str | None = None, agent: str | None = None) -> dict[str, int]:
    """Replace what the scope holds with its snapshot ``name`` (one transaction)."""
    scope = mem.scope(user, agent)
    if not isinstance(name, str) or not NAME.match(name):
        raise Invalid(f"snapshot name {name!r} is not a snapshot name (snap-<26 characters>)")
    file = Path(folder) / (name + SUFFIX)
    info = _read_info(file) if file.is_file() else None
    if info is None or (info.user, info.agent) != (scope.user, scope.agent):
        raise NotFound(f"no snapshot {name!r} for user={scope.user} agent={scope.agent}")
    return mem.restore_snapshot(file, user=scope.user, agent=scope.agent)


def _read_info(file: Path) -> SnapshotInfo | None:
    """The header's scope and time, and the count of memory lines; None if not a snapshot."""
    try:
        with file.open(encoding="utf-8") as fp:
            header = json.loads(fp.readline() or "null")
            count = sum(1 for line in fp if line.startswith('{"type": "memory"'))
        size = file.stat().st_size
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    named = header.get("snapshot") if isinstance(header, dict) else None
    if not isinstance(named, dict):
        return None
    return SnapshotInfo(file.stem, str(named.get("user")), str(named.get("agent")),
                        str(named.get("at")), count, size)

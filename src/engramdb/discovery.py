"""How a CLI command finds a running `engramdb serve` for its memory file.

`engramdb serve` on a SQLite file writes ``<file>.server.json`` next to it while it runs: the
URL it listens at, its process id, the file it serves (absolute) and a token made for this run
(256 random bits). The file is created with mode 0600 (only its owner can read the token) and
removed when the server stops; a server killed without stopping leaves it, and a reader finds
its process gone. The token is an admin grant on that server only (keys.py): whoever can read
the file, its owner, can read and write the memory file itself. Stdlib only: the CLI reads it
before it imports anything heavy.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

SUFFIX = ".server.json"
TOKEN_PREFIX = "edb_local_"
WILDCARD = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}  # bound everywhere: ask here


@dataclass(frozen=True)
class Running:
    """What the file says: where the server listens, who it is and what it serves."""

    url: str
    pid: int
    db: str
    token: str
    embedder: str


def path_for(db: str | os.PathLike[str]) -> Path:
    """The discovery file of the memory file ``db``."""
    return Path(str(Path(db).resolve()) + SUFFIX)


def new_token() -> str:
    import secrets  # the server's alone: a reading command does not load it

    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def url_for(host: str, port: int) -> str:
    """The URL a client on this machine reaches a server bound to ``host``:``port`` at."""
    host = WILDCARD.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def write(running: Running) -> Path:
    """Write the discovery file (0600, whole or not at all) and return its path."""
    target = path_for(running.db)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)   # left by a run that died here; never written through
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, json.dumps(asdict(running)).encode("utf-8"))
    finally:
        os.close(fd)
    os.replace(tmp, target)
    return target


def remove(running: Running) -> None:
    """Remove the discovery file if it is still this server's (another server on the same file
    may have written its own since)."""
    target = path_for(running.db)
    if read(target) == running:
        target.unlink(missing_ok=True)


def read(path: Path) -> Running | None:
    """The file's contents, or None when it is missing, unreadable or not one of ours."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Running(str(data["url"]), int(data["pid"]), str(data["db"]), str(data["token"]),
                       str(data["embedder"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def find(db: str | os.PathLike[str]) -> Running | None:
    """The server running on the memory file ``db``: its discovery file names that file, its
    process is alive, and the file is this user's and readable by its owner only (else it is
    not trusted)."""
    target = path_for(db)
    try:
        info = target.lstat()
        if info.st_mode & 0o077 or info.st_uid != os.getuid() or not stat.S_ISREG(info.st_mode):
            return None
    except OSError:
        return None
    running = read(target)
    if running is None or running.db != str(Path(db).resolve()) or not alive(running.pid):
        return None
    return running


def alive(pid: int) -> bool:
    """Whether this user's process ``pid`` runs (a number another user's process took is not
    our server)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except OSError:   # ProcessLookupError, PermissionError
        return False
    return True

"""The MCP server's door onto the engine: how it was started (Options), its one Memory, opened
on first use (Door), and what a tool runs against (Call)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engramdb
from engramdb.config import server_settings

from ..engine import Memory, ScopedMemory
from ..io import snapshots
from ..model import Role
from . import auth

log = logging.getLogger("engramdb.mcp")


@dataclass(frozen=True)
class Options:
    """How the server was started. ``None`` falls back to ENGRAMDB_* settings (Config)."""

    db: str | None = None
    user: str | None = None
    agent: str | None = None
    embedder: str | None = None
    scope_per_call: bool = False
    snapshots: str | None = None   # folder; default: <db file>.snapshots/
    keys: bool = False             # HTTP: every request needs an API key (auth.py)
    tools: str | None = None       # a profile (core, all) or names, comma-separated (profiles.py)

    def with_env(self) -> Options:
        """Fill what the command line left out from ENGRAMDB_MCP_SCOPE_PER_CALL,
        ENGRAMDB_MCP_KEYS, ENGRAMDB_MCP_TOOLS and ENGRAMDB_SNAPSHOT_DIR."""
        return replace(self, scope_per_call=self.scope_per_call or _flag("SCOPE_PER_CALL"),
                       keys=self.keys or _flag("KEYS"),
                       snapshots=self.snapshots or os.environ.get("ENGRAMDB_SNAPSHOT_DIR") or None,
                       tools=self.tools or os.environ.get("ENGRAMDB_MCP_TOOLS") or None)


def _flag(name: str) -> bool:
    return os.environ.get(f"ENGRAMDB_MCP_{name}", "").strip().lower() in ("1", "true", "yes", "on")


class Door:
    """The server's one Memory, opened on first use; one lock serializes engine calls."""

    def __init__(self, options: Options,
                 opener: Callable[..., Memory] = engramdb.open) -> None:
        self.options = options
        self._open = opener
        self._memory: Memory | None = None
        self.lock = threading.RLock()

    def memory(self) -> Memory:
        with self.lock:
            if self._memory is None:
                o = self.options
                self._memory = self._open(o.db, embedder=o.embedder, user=o.user, agent=o.agent,
                                          **server_settings())
                log.info("opened %s", self._memory.store.location)
            return self._memory

    def scoped(self, args: Any, need: Role = Role.READ) -> ScopedMemory:
        user, agent = getattr(args, "user", None), getattr(args, "agent", None)
        if self.options.keys:   # the key decides the scope and what may be done there
            scope = auth.granted_scope(self, need, user, agent)
            return self.memory().scope(scope.user, scope.agent)
        return self.memory().scope(user, agent)

    def snapshot_folder(self) -> str:
        if self.options.snapshots:
            return self.options.snapshots
        return str(snapshots.default_folder(self.memory().store.location))

    def close(self) -> None:
        with self.lock:
            if self._memory is not None:
                self._memory.close()
                self._memory = None


@dataclass(frozen=True)
class Call:
    """What a verb runs against: the scoped memory, and the door (for the snapshot folder)."""

    me: ScopedMemory
    door: Door

"""Has anything changed? What the SQLite store's caches (the text index, the record cache, the
vector and passage matrices) ask before they trust what they kept: ``PRAGMA data_version``
(it moves when another connection commits) and the connection's own ``total_changes`` (its
writes).

A recall asks a dozen times (each ranking, kept count and read of records), ~8 us each. Inside
``steady()`` (one recall: ``Recaller.recall``) the pragma is read once, and its own changes
still every time: another process's commit that lands during the recall is seen by the next
one, as if it had landed a few milliseconds later; a write of this connection is seen at
once, as before."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class Changes:
    """(data_version, total_changes) of one connection, the first read once inside ``steady``
    (per thread: one thread's recall never holds the version another thread reads)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._local = threading.local()   # depth: steady()s open; version: read in them

    def now(self) -> tuple[int, int]:
        local = self._local
        version: int | None = getattr(local, "version", None)
        if version is None:
            version = self._db.execute("PRAGMA data_version").fetchone()[0]
            if getattr(local, "depth", 0):
                local.version = version
        return version, self._db.total_changes

    @contextmanager
    def steady(self) -> Iterator[None]:
        """Read ``data_version`` once until this thread's outermost ``steady`` ends."""
        local = self._local
        local.depth = getattr(local, "depth", 0) + 1
        try:
            yield
        finally:
            local.depth -= 1
            if not local.depth:
                local.version = None


class Looked:
    """When each of a cache's kept copies (by key: a scope) was last found as the table has it
    (``Changes.now()``): the copy is not looked at again while nothing changed since."""

    def __init__(self, changes: Changes) -> None:
        self.changes = changes
        self._seen: dict[Hashable, tuple[int, int]] = {}

    def fresh(self, key: Hashable, kept: T | None, load: Callable[[], T]) -> T:
        """``kept`` where nothing changed since it was last found fresh, else ``load()``."""
        seen = self.changes.now()
        if kept is not None and self._seen.get(key) == seen:
            return kept
        out = load()
        self._seen[key] = seen
        return out

    def forget(self, key: Hashable | None = None) -> None:
        """Forget when ``key`` (every key, where None) was looked at."""
        if key is None:
            self._seen.clear()
        else:
            self._seen.pop(key, None)

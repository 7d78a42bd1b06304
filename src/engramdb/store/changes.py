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
from collections.abc import Iterator
from contextlib import contextmanager


class Changes:
    """(data_version, total_changes) of one connection, the first read once inside ``steady``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._depth = 0
        self._version: int | None = None   # data_version, read once inside steady()

    def now(self) -> tuple[int, int]:
        version = self._version
        if version is None:
            version = self._db.execute("PRAGMA data_version").fetchone()[0]
            if self._depth:
                self._version = version
        return version, self._db.total_changes

    @contextmanager
    def steady(self) -> Iterator[None]:
        """Read ``data_version`` once until the outermost ``steady`` ends."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._version = None

"""Decoded records kept between reads of many (``get_many``: a recall loads about a hundred).

Loading a record costs ~10 us of SQL and ~5 us of decoding (its JSON, seven timestamps, the
dataclass); making a kept one again costs ~2 us. The records a recall loads are mostly the
ones the last recalls loaded, so they are kept, up to ``KEPT``, the least recently read going
first. Each is kept packed (store/common.py ``packed``: a tuple of plain values), not as a
``Record``: a Record is eight objects the garbage collector tracks, and ten thousand of them
made each full collection of a writing process (one or two per thousand writes) ~0.1 s
longer (bench/results/speed.md); a packed one is none.

Every change to a memory row is logged in ``events`` (a use too, as op "use"; a dropped scope
as one event about the whole scope), from this process or any other, and ``seq`` never goes
back (AUTOINCREMENT). So before each read the cache looks at the log's last event: if it moved,
the memories named by the events since are forgotten (every one, for an event about a whole
scope); if the event last seen is gone or changed (the file was replaced), everything is. The
store forgets everything after a rollback too (``SQLiteStore._abandon``).

Callers own what they get: each read makes a new record from the packed one (its lists and
metadata its own), so changing one never changes what the next reader gets. ``read_many``
(reads.py), for the read path, which changes nothing it reads, is lent metadata that is not
flat (nested values) as kept, not copied."""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from typing import Any

from ...model import Record
from ..common import packed, unpacked
from ..protocol import SCOPE_EVENT

KEPT = 10_000   # records kept (1-2 kB each: 10-20 MB at most)


class RecordCache:
    """(user, agent, id) -> the record as last read, packed; every method runs under the
    store's lock."""

    def __init__(self, db: sqlite3.Connection, kept: int = KEPT) -> None:
        self._db = db
        self._kept = kept
        self._records: OrderedDict[tuple[str, str, str], tuple[Any, ...]] = OrderedDict()
        self._top: tuple[int, str, str] | None = None   # (seq, memory_id, op) last seen
        self._seen: tuple[int, int] | None = None   # (data_version, total_changes) then

    def invalidate(self) -> None:
        self._records.clear()
        self._top = self._seen = None

    def follow(self) -> None:
        """Forget what changed since the last look at the event log (none to look for while
        no other connection committed and this one wrote nothing: ``PRAGMA data_version``)."""
        seen = (self._db.execute("PRAGMA data_version").fetchone()[0], self._db.total_changes)
        if seen == self._seen:
            return
        self._seen = seen
        row = self._db.execute(
            "SELECT seq, memory_id, op FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        top = (int(row[0]), row[1], row[2]) if row else (0, "", "")
        seen = self._top
        if top == seen:
            return
        self._top = top
        if seen is None or not self._records:
            self._records.clear()
            return
        still = self._db.execute("SELECT memory_id, op FROM events WHERE seq = ?",
                                 (seen[0],)).fetchone()
        if top[0] < seen[0] or (seen[0] and (still is None or tuple(still) != seen[1:])):
            self._records.clear()   # the log went back or was rewritten: another file
            return
        changed = self._db.execute(
            "SELECT DISTINCT user, agent, memory_id FROM events WHERE seq > ? AND seq <= ?",
            (seen[0], top[0])).fetchall()
        for user, agent, memory_id in changed:
            if memory_id == SCOPE_EVENT:
                for key in [k for k in self._records if k[0] == user and k[1] == agent]:
                    del self._records[key]
            else:
                self._records.pop((user, agent, memory_id), None)

    def get(self, user: str, agent: str, memory_id: str, shared: bool = False) -> Record | None:
        """The kept record, made again (``shared``: with its nested metadata as kept, for a
        reader that changes nothing)."""
        kept = self._records.get((user, agent, memory_id))
        if kept is None:
            return None
        self._records.move_to_end((user, agent, memory_id))
        return unpacked(kept, shared)

    def put(self, rec: Record) -> Record:
        """Keep ``rec`` (packed: nothing of it is shared with what is kept); returns it."""
        self._records[(rec.user, rec.agent, rec.id)] = packed(rec)
        self._records.move_to_end((rec.user, rec.agent, rec.id))
        while len(self._records) > self._kept:
            self._records.popitem(last=False)
        return rec

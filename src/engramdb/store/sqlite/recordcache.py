"""Decoded records kept between reads of many (``get_many``: a recall loads about a hundred).

Loading a record costs ~10 us of SQL and ~5 us of decoding (its JSON, seven timestamps, the
dataclass); a copy of a kept one costs ~2 us. The records a recall loads are mostly the ones
the last recalls loaded, so they are kept, up to ``KEPT``, the least recently read going first.

A record is kept in one of two forms. One the read path reads (``read_many``: a reader that
changes nothing, a hundred records a recall) is kept as the ``Record`` lent to it, and lent
again as it is. One only other readers read (the write path's ``get_many``: neighbours, slots,
duplicates) is kept packed (store/common.py ``packed``: its fields as plain values), and made
again at each read. A Record is eight objects the garbage collector tracks (itself, its
__dict__, its six lists), a packed one none: ten thousand Records made each full collection of
a writing process (one or two per thousand writes) ~0.1 s longer (bench/results/speed.md),
while making a record again at each of a recall's hundred reads costs it ~0.3 ms.

Every change to a memory row is logged in ``events`` (a use too, as op "use"; a dropped scope
as one event about the whole scope), from this process or any other, and ``seq`` never goes
back (AUTOINCREMENT). So before each read the cache looks at the log's last event: if it moved,
the memories named by the events since are forgotten (every one, for an event about a whole
scope); if the event last seen is gone or changed (the file was replaced), everything is. The
store forgets everything after a rollback too (``SQLiteStore._abandon``).

Callers own what they get: a kept record is handed out as a copy (its lists and mappings
copied too), or made again from its packed form, so changing one never changes what the next
reader gets. The one exception is ``read_many`` (reads.py), for the read path, which changes
nothing it reads and copies the few records it returns (recall/reading.py)."""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from typing import Any

from ...model import Record
from ..changes import Changes
from ..common import copied, packed, unpacked
from ..protocol import SCOPE_EVENT

KEPT = 10_000   # records kept (1-2 kB each: 10-20 MB at most)


class RecordCache:
    """(user, agent, id) -> the record as last read, packed; every method runs under the
    store's lock."""

    def __init__(self, db: sqlite3.Connection, kept: int = KEPT,
                 changes: Changes | None = None) -> None:
        self._db = db
        self._changes = changes or Changes(db)
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
        seen = self._changes.now()
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
        """The kept record, as a copy or made again from its packed form (``shared``: for a
        reader that changes nothing, the kept Record itself, from now on kept so)."""
        key = (user, agent, memory_id)
        kept = self._records.get(key)
        if kept is None:
            return None
        self._records.move_to_end(key)
        if isinstance(kept, Record):
            return kept if shared else copied(kept)
        rec = unpacked(kept, shared)
        if shared:
            self._records[key] = rec
        return rec

    def put(self, rec: Record, shared: bool = False) -> Record:
        """Keep ``rec``, packed (``shared``: as it is, lent to a reader that changes nothing);
        returns it, the caller's."""
        key = (rec.user, rec.agent, rec.id)
        self._records[key] = rec if shared else packed(rec)
        self._records.move_to_end(key)
        while len(self._records) > self._kept:
            self._records.popitem(last=False)
        return rec

"""Records read by ``get_many`` kept in this process, per scope, fresh through the events log.

A recall loads a few hundred records (its candidates, their concepts' members), each decoded
from a row in Python: about 11 ms a recall at 100,000 memories, a third of the store's time.
This cache keeps the decoded records and follows the scope's events exactly as the text index
does (pg_textindex.py): every change to a memory logs an event in the same transaction under
the scope's lock, so reading the scope's events after the last one seen (one primary-key range
scan, usually empty) says which cached records to forget; an event about the whole scope
clears it. Records fetched while another thread moved the scope forward are returned but not
kept (they may predate that change). Inside a caller's transaction the store reads rows
instead (its own uncommitted writes are not in the log yet).

Each call returns copies (their lists and dicts too), so a caller that edits a record does not
edit the cache. Bounded: at most ``max_records`` records, scopes dropped least recently used
first."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..model import Record, Scope
from .base import SCOPE_EVENT

Read = Callable[[Callable[[Any], Any]], Any]
Fetch = Callable[[Scope, list[str]], dict[str, Record]]
# the record's list and dict fields (copied with it, so a caller's edit stays its own)
_LISTS = tuple(f.name for f in fields(Record) if f.default_factory is list)
_DICTS = tuple(f.name for f in fields(Record) if f.default_factory is dict)


@dataclass
class _Scope:
    seen_seq: int
    records: dict[str, Record] = field(default_factory=dict)


def _copy(rec: Record) -> Record:
    out = copy.copy(rec)
    for name in _LISTS:
        setattr(out, name, list(getattr(rec, name)))
    for name in _DICTS:
        value = getattr(rec, name)
        nested = any(isinstance(v, dict | list | set) for v in value.values())
        setattr(out, name, copy.deepcopy(value) if nested else dict(value))
    return out


class RecordCache:
    def __init__(self, read: Read, *, max_records: int = 50_000) -> None:
        self._read = read
        self.max_records = max_records
        self._scopes: OrderedDict[tuple[str, str], _Scope] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._scopes.clear()

    def held(self) -> dict[tuple[str, str], int]:
        with self._lock:
            return {key: len(s.records) for key, s in self._scopes.items()}

    def get_many(self, scope: Scope, ids: Sequence[str], fetch: Fetch) -> dict[str, Record]:
        """``fetch(scope, ids)``'s answer, from the cache where it is current."""
        if self.max_records <= 0:
            return fetch(scope, list(dict.fromkeys(ids)))
        key = (scope.user, scope.agent)
        with self._lock:
            held = self._current(key)
            epoch = held.seen_seq
            found = {i: held.records[i] for i in ids if i in held.records}
        missing = [i for i in dict.fromkeys(ids) if i not in found]
        fetched = fetch(scope, missing) if missing else {}
        out = {i: _copy(r) for i, r in found.items()}
        out.update(fetched)
        if fetched:
            with self._lock:
                held_now = self._scopes.get(key)
                if held_now is held and held.seen_seq == epoch:
                    held.records.update({i: _copy(r) for i, r in fetched.items()})
                    self._evict(key)
        return out

    def _current(self, key: tuple[str, str]) -> _Scope:
        user, agent = key
        held = self._scopes.get(key)
        if held is None:
            top = self._read(lambda c: c.execute(
                "SELECT max(seq) FROM events WHERE user_id = %s AND agent_id = %s",
                (user, agent)).fetchone()[0])
            held = self._scopes[key] = _Scope(int(top or 0))
        else:
            events = self._read(lambda c: c.execute(
                "SELECT seq, memory_id FROM events WHERE user_id = %s AND agent_id = %s "
                "AND seq > %s", (user, agent, held.seen_seq)).fetchall())
            if events:
                held.seen_seq = max(int(e[0]) for e in events)
                gone = {e[1] for e in events}
                if SCOPE_EVENT in gone:
                    held.records.clear()
                else:
                    for memory_id in gone:
                        held.records.pop(memory_id, None)
        self._scopes.move_to_end(key)
        return held

    def _evict(self, key: tuple[str, str]) -> None:
        total = sum(len(s.records) for s in self._scopes.values())
        while total > self.max_records and len(self._scopes) > 1:
            _, gone = self._scopes.popitem(last=False)
            total -= len(gone.records)
        held = self._scopes.get(key)
        if held is not None and len(held.records) > self.max_records:
            held.records.clear()   # one scope larger than the whole budget: start over

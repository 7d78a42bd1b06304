"""Whether a scope's memory ids ascend with their rowids.

Ids are time-sortable and rows are appended, so in a store written in time order the two
orders agree. Where they do, "score, then id" (the order search results are ranked in) equals
"score, then rowid", which SQLite can sort inside the full-text query without looking up each
matching row's id. Imports of older memories, or a clock set back, break the agreement; the
caller then takes the general path.

Rows are never deleted from ``memories`` (forgetting is a layer) except when a whole scope is
dropped, so the rowid -> id mapping of a scope only grows: a reader follows it with the table's
highest rowid (one lookup) and reads only the rows it has not seen. A rolled-back transaction
or a dropped scope can take rows back; the store calls ``invalidate`` then."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..model import Scope

_RESCAN = 5000  # unseen rows (all scopes) beyond which the scope is re-read through its index


@dataclass
class _State:
    seen: int = 0            # highest rowid (of the whole table) already read for this scope
    last_id: str = ""        # the id at the scope's highest rowid
    ascending: bool = True


class IdOrder:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._scopes: dict[Scope, _State] = {}
        self._top: tuple[int, str] | None = None   # the table's last row when last seen

    def invalidate(self) -> None:
        self._scopes.clear()
        self._top = None

    def ascending(self, scope: Scope) -> bool:
        """True when the scope's ids ascend with rowid (call under the store's lock)."""
        last = self._db.execute(
            "SELECT rowid, id FROM memories ORDER BY rowid DESC LIMIT 1").fetchone()
        top, top_id = (last[0], last[1]) if last else (0, "")
        if self._top is not None and self._top != (top, top_id):
            # the row last seen on top must still be there, or rowids can have been handed
            # out again (rows deleted elsewhere): then nothing read before can be trusted
            still = self._db.execute(
                "SELECT id FROM memories WHERE rowid = ?", (self._top[0],)).fetchone()
            if top < self._top[0] or still is None or still[0] != self._top[1]:
                self._scopes.clear()
        self._top = (top, top_id)
        state = self._scopes.get(scope)
        if state is None or top < state.seen or top - state.seen > _RESCAN:
            state = self._scopes[scope] = _State()
            rows = self._db.execute(
                "SELECT rowid, id FROM memories WHERE user = ? AND agent = ? AND rowid <= ? "
                "ORDER BY rowid", (scope.user, scope.agent, top),
            )
        elif top > state.seen:
            rows = self._db.execute(  # "+": walk the new rowids, not the scope's index
                "SELECT rowid, id FROM memories WHERE rowid > ? AND rowid <= ? "
                "AND +user = ? AND +agent = ? ORDER BY rowid",
                (state.seen, top, scope.user, scope.agent),
            )
        else:
            return state.ascending
        last, ascending = state.last_id, state.ascending
        for _, memory_id in rows:
            ascending = ascending and memory_id > last
            last = memory_id
        state.seen, state.last_id, state.ascending = top, last, ascending
        return ascending

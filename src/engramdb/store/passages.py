"""The SQLite store's passage vectors: a long memory's passages (text/passages.py), each its own
vector beside the memory's pooled one (embed/pooled.py), so the dense search scores a long
memory by its best passage.

The ``passages`` table follows the ``vectors`` table (migration 15): a trigger deletes a
memory's passages when its vector row is deleted, which every change of that vector does (a new
text's vector, a pending vector, a forget, a dropped scope), so a passage never outlives the
vector of the text it was cut from; two more triggers keep the scope's ``passage_state`` (the
newest passage's sequence number and the count) current, which the cache here compares to load
a scope's new passages or reload them."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model import Scope
from .changes import Changes, Looked

if TYPE_CHECKING:
    import numpy as np

_CHUNK = 8192
# passage vectors waiting for their memory's write: a synchronous remember_many embeds its
# whole batch before it writes, so this bounds the passages of one batch that keep their own
# vectors (~29 MB at 896 dims; ~1,500 memories of 2,800 characters, 4 MB of text in one call);
# entries whose write never came (a NOOP, a failed write) stay until pushed out by newer ones
MEMO_ROWS = 8192


class PendingPassages:
    """Passage vectors computed with a memory's vector (engine ``_embed``), waiting for that
    vector to be stored: keyed by the vector's bytes, taken by the store when it stores the
    vector, so every write path that stores a freshly computed vector stores its passages in
    the same transaction. Bounded (oldest dropped first): a memory whose passages were dropped
    before its write keeps its pooled vector alone (found as without passages)."""

    def __init__(self, rows: int = MEMO_ROWS) -> None:
        self._cap = rows
        self._items: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._rows = 0
        self._lock = threading.Lock()

    @staticmethod
    def _key(vector: np.ndarray) -> bytes:
        import numpy as np

        return np.asarray(vector, dtype=np.float32).tobytes()

    def add(self, vector: np.ndarray, parts: np.ndarray) -> None:
        import numpy as np

        with self._lock:
            key = self._key(vector)
            old = self._items.pop(key, None)
            self._rows -= 0 if old is None else len(old)
            self._items[key] = np.asarray(parts, dtype=np.float32)
            self._rows += len(parts)
            while self._rows > self._cap and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._rows -= len(dropped)

    def take(self, vector: np.ndarray) -> np.ndarray | None:
        with self._lock:
            if not self._items:
                return None
            parts = self._items.pop(self._key(vector), None)
            self._rows -= 0 if parts is None else len(parts)
            return parts


@dataclass
class _Parts:
    seq: int = 0
    count: int = 0
    rowids: list[int] = field(default_factory=list)   # the memory of each row of ``data``
    blocks: list[np.ndarray] = field(default_factory=list)
    data: np.ndarray | None = None
    owner: np.ndarray | None = None

    def owners(self) -> np.ndarray:
        import numpy as np

        if self.owner is None or len(self.owner) != len(self.rowids):
            self.owner = np.asarray(self.rowids, dtype=np.int64)
        return self.owner

    def matrix(self) -> np.ndarray:
        import numpy as np

        if self.data is None or len(self.blocks) > 1:
            self.data = (np.vstack(self.blocks) if self.blocks
                         else np.zeros((0, 0), dtype=np.float32))
            self.blocks = [self.data] if len(self.data) else []
        return self.data


class PassageCache:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock,
                 changes: Changes | None = None) -> None:
        self._db = db
        self._lock = lock
        self._changes = changes or Changes(db)
        self._scopes: dict[Scope, _Parts] = {}
        self._looked = Looked(self._changes)   # when each scope's copy was last found fresh
        self.memo = PendingPassages()

    def invalidate(self) -> None:
        self._scopes.clear()
        self._looked.forget()

    def drop(self, scope: Scope) -> None:
        self._scopes.pop(scope, None)
        self._looked.forget(scope)

    def put(self, scope: Scope, rowid: int, vectors: np.ndarray) -> None:
        """Replace one memory's passage vectors (inside the caller's transaction)."""
        import numpy as np

        self._db.execute("DELETE FROM passages WHERE mem_rowid = ?", (rowid,))
        self._db.executemany(
            "INSERT INTO passages(mem_rowid, part, user, agent, vec) VALUES (?, ?, ?, ?, ?)",
            [(rowid, part, scope.user, scope.agent,
              np.asarray(vec, dtype=np.float32).tobytes())
             for part, vec in enumerate(np.asarray(vectors), start=1)])

    def best(self, scope: Scope, query: np.ndarray) -> dict[int, float]:
        """rowid -> the cosine of the memory's best passage, for the memories with passages
        (one product over the scope's passages; a memory's rows are consecutive)."""
        import numpy as np

        with self._lock:
            parts = self._fresh(scope)
            if not parts.count:
                return {}
            scores = parts.matrix() @ np.asarray(query, dtype=np.float32)
            owners = parts.owners()
            starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
            out: dict[int, float] = {}
            for rowid, score in zip(owners[starts].tolist(),
                                    np.maximum.reduceat(scores, starts).tolist(), strict=True):
                out[rowid] = max(score, out.get(rowid, -2.0))
            return out

    def _fresh(self, scope: Scope) -> _Parts:
        """The scope's passages as the table has them now: not looked at again while nothing
        changed since (store/changes.py)."""
        return self._looked.fresh(scope, self._scopes.get(scope), lambda: self._load_fresh(scope))

    def _load_fresh(self, scope: Scope) -> _Parts:
        row = self._db.execute(
            "SELECT seq, count FROM passage_state WHERE user = ? AND agent = ?",
            (scope.user, scope.agent)).fetchone()
        seq, count = (int(row[0]), int(row[1])) if row else (0, 0)
        parts = self._scopes.get(scope)
        if parts is not None and (parts.seq, parts.count) == (seq, count):
            return parts
        if parts is None or seq < parts.seq or not self._load(scope, parts, parts.seq, count):
            parts = self._scopes[scope] = _Parts()
            self._load(scope, parts, 0, count)
        parts.seq, parts.count = seq, count
        return parts

    def _load(self, scope: Scope, parts: _Parts, after: int, count: int) -> bool:
        """Append the rows after ``after``; False when the rows then do not add up to
        ``count`` (some were deleted: the caller reloads from scratch)."""
        import numpy as np

        rows = self._db.execute(
            "SELECT mem_rowid, vec FROM passages WHERE user = ? AND agent = ? AND seq > ? "
            "ORDER BY seq", (scope.user, scope.agent, after)).fetchall()
        if len(parts.rowids) + len(rows) != count:
            return False
        for start in range(0, len(rows), _CHUNK):
            chunk = rows[start : start + _CHUNK]
            dim = len(chunk[0][1]) // 4
            block = np.frombuffer(b"".join(r[1] for r in chunk), dtype=np.float32)
            parts.blocks.append(block.reshape(len(chunk), dim))
            parts.rowids.extend(int(r[0]) for r in chunk)
        return True

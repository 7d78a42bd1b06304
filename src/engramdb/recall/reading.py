"""How the read path reads records: about a hundred candidates a query, of which it returns a
few. A store that keeps decoded records (the SQLite store's record cache) lends them without
copying (``read_many``); the read path changes none of them, and copies the few it returns,
so a caller who changes a returned record never changes what the next recall reads."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext

from ..model import Hit, Record, Scope
from ..store.common import copied
from ..store.protocol import Store


def read_many(store: Store, scope: Scope, ids: Sequence[str]) -> dict[str, Record]:
    """``store.get_many``, or the store's records lent without a copy where it offers that:
    to read, never to change."""
    lend = getattr(store, "read_many", None)
    if lend is None:
        return store.get_many(scope, ids)
    found: dict[str, Record] = lend(scope, ids)
    return found


def steady(store: Store) -> AbstractContextManager[object]:
    """The store's ``steady()`` where it offers one (the SQLite store: its caches look at other
    connections' commits once a recall), else nothing."""
    hold = getattr(store, "steady", None)
    return nullcontext() if hold is None else hold()  # type: ignore[no-any-return]


def handed(hits: Sequence[Hit]) -> None:
    """Each hit's record replaced by its own copy: what recall returns is the caller's."""
    for hit in hits:
        hit.memory = copied(hit.memory)

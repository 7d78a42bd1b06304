"""Following a scope's event log: how a view kept per scope (the languages of its memories,
recall/crosslingual.py; when each fact was last confirmed, dynamics/stilltrue.py) stays in
step with the store. Every change to a memory is an event (a write, a use, a confirmation), so
the view reads the scope whole once, then only the memories with an event since it last
looked (``Store.changed_since``); a log rewritten under it starts the view over."""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Record, Scope
from .protocol import Store

READ = 500   # records loaded per batch


def follow(store: Store, scope: Scope,
           seq: int) -> tuple[int, bool, Iterator[tuple[str, Record | None]]]:
    """(the newest event seq, whether the view must start over, each memory changed since
    ``seq`` with its record now: None when it is gone), the records read in batches."""
    newest, changed = store.changed_since(scope, seq)
    restart = newest < seq   # the log was rewritten under us: read the scope again
    if restart:
        newest, changed = store.changed_since(scope, 0)

    def records() -> Iterator[tuple[str, Record | None]]:
        for start in range(0, len(changed), READ):
            batch = changed[start : start + READ]
            found = store.get_many(scope, batch)
            yield from ((mid, found.get(mid)) for mid in batch)

    return newest, restart, records()

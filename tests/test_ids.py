"""Memory ids (engramdb/ids.py): ULID layout, sorted in the order they were made; ids made in
one millisecond (a batch: a conversation's turns, an import) differ within 12 characters, so a
table shows them 12 characters long, not 26 (issue 30)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from itertools import pairwise

import engramdb
from engramdb import Draft
from engramdb.ids import new_id

WHEN = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_ids_of_one_millisecond_sort_in_order_and_differ_early() -> None:
    ids = [new_id(WHEN) for _ in range(2000)]     # more than one millisecond holds
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(len(i) == 26 for i in ids)
    assert max(len(os.path.commonprefix([a, b])) for a, b in pairwise(ids)) <= 11
    later = new_id(datetime(2026, 3, 1, 9, 0, 1, tzinfo=UTC))
    assert later > ids[-1]


def test_a_batch_is_shown_with_short_ids(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with engramdb.open(str(tmp_path / "m.db"), embedder="hashing") as mem:
        written = mem.remember_many([Draft(content=f"turn {n} of the chat about Lisbon",
                                           kind="event") for n in range(40)])
        ids = [r.memory.id for r in written]
        shown = mem.abbreviate(ids)
        assert all(8 <= len(s) <= 12 for s in shown.values()), shown
        assert len(set(shown.values())) == len(ids)
        assert all(mem.get(s.lower()).id == i for i, s in shown.items())

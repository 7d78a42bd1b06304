"""A folder of named snapshots (io/snapshots.py): each scope sees and restores its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from engramdb.errors import ConfigError, Invalid, NotFound
from engramdb.io import snapshots


def test_take_list_restore_per_scope(mem, clock, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "snaps"
    mem.remember("I live in Berlin", kind="fact", user="alice")
    mem.remember("我住在上海", kind="fact", user="bob")
    first = snapshots.take(mem, folder, user="alice")
    clock.advance(days=1)
    mem.remember("I moved to Oslo", kind="fact", user="alice")
    second = snapshots.take(mem, folder, user="alice")
    bobs = snapshots.take(mem, folder, user="bob")
    (folder / "notes.txt").write_text("not a snapshot")
    (folder / "snap-broken.jsonl").write_text("{")

    assert [i.name for i in snapshots.listing(mem, folder, user="alice")] == \
        [second.name, first.name]
    assert (first.memories, second.memories, bobs.memories) == (1, 2, 1)
    assert [i.name for i in snapshots.listing(mem, folder, user="bob")] == [bobs.name]
    assert snapshots.listing(mem, tmp_path / "missing", user="alice") == []

    counts = snapshots.restore(mem, folder, first.name, user="alice")
    assert counts == {"removed": 2, "restored": 1, "reembedded": 0}
    assert [r.content for r in mem.list(user="alice")] == ["I live in Berlin"]
    assert [r.content for r in mem.list(user="bob")] == ["我住在上海"]

    with pytest.raises(NotFound):  # another scope's snapshot reads as absent
        snapshots.restore(mem, folder, bobs.name, user="alice")
    with pytest.raises(Invalid):
        snapshots.restore(mem, folder, "../memory", user="alice")
    with pytest.raises(NotFound):
        snapshots.restore(mem, folder, "snap-" + "1" * 26, user="alice")


def test_default_folder_is_beside_the_file(tmp_path: Path) -> None:
    assert snapshots.default_folder(str(tmp_path / "m.db")) == tmp_path / "m.db.snapshots"
    with pytest.raises(ConfigError):
        snapshots.default_folder(":memory:")

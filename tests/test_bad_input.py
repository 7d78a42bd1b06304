"""Bad input gets a clear engramdb.errors exception, and nothing is half-written."""

from __future__ import annotations

import math
import os
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import engramdb
from engramdb import ConfigError, Draft, Invalid, StoreError
from engramdb.testing import HashingEmbedder
from helpers import not_rejected


def assert_nothing_written(me) -> None:  # type: ignore[no-untyped-def]
    assert me.count(layer=["core", "archived", "deleted"]) == 0
    assert me.stats().events == 0


# ---------------------------------------------------------------- content


def test_empty_or_non_text_content_is_invalid(me):  # type: ignore[no-untyped-def]
    bad = ["", "   ", "\n\t ", "?!...", None, 42, b"bytes"]
    assert not_rejected(lambda content: me.remember(content), bad, "content") == []
    assert_nothing_written(me)


def test_content_over_the_default_limit_is_invalid(me):  # type: ignore[no-untyped-def]
    fits = ("word " * 13107)[:65536]
    assert len(fits.strip().encode()) <= 65536
    me.remember(fits)
    with pytest.raises(Invalid, match="65536"):
        me.remember("x" + "word " * 13108)
    assert me.count() == 1


def test_content_limit_is_a_setting(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       max_content_bytes=100) as mem:
        mem.remember("word " * 19 + "words")  # 100 bytes ("a" * 100 is junk: quality gate)
        with pytest.raises(Invalid, match="over the limit of 100 bytes"):
            mem.remember("a" * 101)
        with pytest.raises(Invalid, match="over the limit"):
            mem.remember("火" * 34)  # 102 bytes in UTF-8, though only 34 characters
        rec = mem.remember("short").memory
        with pytest.raises(Invalid, match="over the limit"):
            mem.update(rec.id, content="b" * 101)
        assert mem.get(rec.id) == rec
        assert mem.count() == 2


# ---------------------------------------------------------------- other fields


def test_unknown_kind_is_invalid(me):  # type: ignore[no-untyped-def]
    bad = ["gossip", "Fact", "", 3]
    assert not_rejected(lambda kind: me.remember("I moved", kind=kind), bad, "kind") == []
    assert_nothing_written(me)


def test_importance_outside_0_to_1_is_invalid(me):  # type: ignore[no-untyped-def]
    bad = [-0.01, 1.01, 2, math.nan, math.inf, "0.5", True]
    assert not_rejected(lambda x: me.remember("I moved", importance=x), bad, "importance") == []
    assert_nothing_written(me)


def test_importance_bounds_are_accepted(me):  # type: ignore[no-untyped-def]
    for i, importance in enumerate([0, 0.0, 0.5, 1, 1.0]):
        assert me.remember(f"Note {i}", importance=importance).memory.importance == importance


def test_metadata_that_is_not_json_is_invalid(me):  # type: ignore[no-untyped-def]
    bad = [
        {"when": datetime(2026, 1, 1, tzinfo=UTC)},
        {"tags": {"a", "b"}},
        {"blob": b"\x00\x01"},
        {"x": math.nan},
        {"x": math.inf},
        {1: "int key"},
        {"obj": object()},
        "not a dict",
        ["a", "list"],
    ]
    assert not_rejected(lambda md: me.remember("I moved", metadata=md), bad, "metadata") == []
    assert_nothing_written(me)


def test_metadata_nested_too_deep_is_invalid(me):  # type: ignore[no-untyped-def]
    """Issue 29: nesting that once ran out of Python's stack (RecursionError) is refused."""
    def nested(n: int) -> list[object]:
        value: list[object] = []
        for _ in range(n - 1):
            value = [value]
        return value

    for depth in (33, 600, 100_000):
        with pytest.raises(Invalid, match="metadata nests deeper than 32"):
            me.remember("I moved to Oslo", metadata={"x": nested(depth)})
    assert_nothing_written(me)
    kept = me.remember("I moved to Oslo", metadata={"x": nested(31)}).memory
    assert me.get(kept.id).metadata == {"x": nested(31)}


def test_list_offset_and_limit_past_the_stores_integers_are_invalid(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Oslo")
    for kwargs in ({"offset": 2**63}, {"offset": -1}, {"offset": True}, {"limit": 2**63}):
        name = next(iter(kwargs))
        with pytest.raises(Invalid, match=f"{name} must be an integer from 0 to {2**63 - 1}"):
            list(me.list(**kwargs))
    assert list(me.list(offset=2**63 - 1, limit=2**63 - 1)) == []


def test_bad_metadata_on_update_changes_nothing(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I moved to Berlin", metadata={"a": 1}).memory
    with pytest.raises(Invalid, match="metadata"):
        me.update(rec.id, content="I moved to Oslo", metadata={"bad": {1, 2}})
    assert me.get(rec.id) == rec
    assert [v.op for v in me.history(rec.id)] == ["create"]


def test_other_bad_fields_are_invalid(me):  # type: ignore[no-untyped-def]
    bad = [{"people": "Anna"}, {"people": ["Anna", ""]}, {"places": [3]}, {"topics": ["x"] * 65},
           {"priority": "P9"}, {"session": 3.5}, {"at": "Jan 2026"}, {"at": 1700000000},
           {"expires_at": 1700000000}]
    assert not_rejected(lambda kwargs: me.remember("I moved", **kwargs), bad) == []
    assert_nothing_written(me)


def test_bad_draft_in_a_batch_names_the_item(me):  # type: ignore[no-untyped-def]
    drafts = [Draft("one"), Draft("two"), Draft("three", importance=5)]
    with pytest.raises(Invalid, match=r"item 2: importance"):
        me.remember_many(drafts)
    assert_nothing_written(me)


def test_bad_preset_is_invalid(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="preset"):
        me.recall("Berlin", preset="nonsense")


# ---------------------------------------------------------------- the store file


def test_reopening_with_another_embedder_names_both(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing") as mem:
        mem.remember("I moved to Berlin")
    with pytest.raises(StoreError) as err:
        engramdb.open(path, embedder=HashingEmbedder(dimensions=64))
    assert "hashing-v1-384" in str(err.value) and "hashing-v1-64" in str(err.value)
    with engramdb.open(path, embedder="hashing") as mem:  # the file is unharmed
        assert mem.count() == 1


def test_a_text_file_is_not_a_store(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "notes.txt"
    path.write_text("just some notes, not a database\n" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not an engramdb database"):
        engramdb.open(path, embedder="hashing")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_another_apps_sqlite_file_is_not_a_store(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "app.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO customers(name) VALUES ('Ada')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not an engramdb database"):
        engramdb.open(path, embedder="hashing")
    assert path.read_bytes() == before
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master")]
        assert tables == ["customers"]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        db.close()


def test_a_missing_directory_is_a_store_error(tmp_path):  # type: ignore[no-untyped-def]
    missing = tmp_path / "no" / "such" / "dir" / "m.db"
    with pytest.raises(StoreError, match="does not exist"):
        engramdb.open(missing, embedder="hashing")
    assert not (tmp_path / "no").exists()


def test_a_read_only_directory_is_a_store_error(tmp_path):  # type: ignore[no-untyped-def]
    # chmod does not stop root, so use a place no one may create files in: /proc.
    if not Path("/proc/self").is_dir():
        pytest.skip("needs Linux /proc: no directory is read-only for root otherwise")
    path = Path("/proc") / "engramdb-test.db"
    with pytest.raises(StoreError) as err:
        engramdb.open(path, embedder="hashing")
    assert str(path) in str(err.value)
    assert "not an engramdb database" not in str(err.value)
    assert not path.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any directory despite chmod")
def test_a_chmod_read_only_directory_is_a_store_error(tmp_path):  # type: ignore[no-untyped-def]
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="not writable"):
            engramdb.open(locked / "m.db", embedder="hashing")
    finally:
        locked.chmod(0o755)


def test_a_directory_is_not_a_store_file(tmp_path):  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError):
        engramdb.open(tmp_path, embedder="hashing")


@pytest.mark.parametrize(
    "url", ["postgresql://user@127.0.0.1:1/db", "postgres://127.0.0.1:1/memory"]
)
def test_an_unreachable_postgresql_is_a_store_error_naming_it(url):  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL database '(db|memory)' "
                                         r"on 127\.0\.0\.1:1"):
        engramdb.open(url, embedder="hashing")


@pytest.mark.parametrize("url", ["mysql://localhost/db", "https://example.com/memory"])
def test_other_urls_are_a_config_error(url):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="unsupported"):
        engramdb.open(url, embedder="hashing")


def test_unknown_embedder_and_setting_are_config_errors(tmp_path):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="unknown embedder"):
        engramdb.open(tmp_path / "m.db", embedder="no-such-model")
    with pytest.raises(ConfigError, match="unknown setting"):
        engramdb.open(tmp_path / "m.db", embedder="hashing", colour="blue")
    with pytest.raises(ConfigError, match="embedder"):
        engramdb.open(tmp_path / "m.db", embedder=42)  # type: ignore[arg-type]
    assert not (tmp_path / "m.db").exists()


def test_every_error_is_an_engram_error():  # type: ignore[no-untyped-def]
    for cls in (engramdb.NotFound, Invalid, engramdb.Conflict, StoreError, ConfigError):
        assert issubclass(cls, engramdb.EngramError)
        assert cls.code != engramdb.EngramError.code


# ---------------------------------------------------------------- odd values


@pytest.mark.parametrize(
    "kwargs",
    [{"content": "broken \ud800 text"}, {"metadata": {"note": "\udfff"}},
     {"people": ["An\ud800na"]}, {"session": "s\ud800"}],
    ids=["content", "metadata", "people", "session"],
)
def test_lone_surrogates_are_invalid(me, kwargs):  # type: ignore[no-untyped-def]
    args = {"content": "I moved to Berlin", **kwargs}
    with pytest.raises(Invalid):
        me.remember(**args)
    assert_nothing_written(me)


def test_lone_surrogate_in_user_is_invalid(mem):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="user"):
        mem.remember("I moved to Berlin", user="al\ud800ice")


def test_a_query_with_a_lone_surrogate_is_invalid(me):  # type: ignore[no-untyped-def]
    me.remember("I moved to Berlin")
    with pytest.raises(Invalid, match="query"):
        me.recall("Berlin \ud800")


@pytest.mark.parametrize(
    "when",
    [datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))),
     datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5)))],
)
def test_datetime_out_of_range_in_utc_is_invalid(me, when):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="out of range"):
        me.remember("Long ago", kind="event", at=when)
    with pytest.raises(Invalid, match="out of range"):
        me.list(since=when)
    assert_nothing_written(me)


@pytest.mark.parametrize("batch", [0, -1, True, 2.5])
def test_bad_batch_size_is_invalid(me, batch):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="batch"):
        me.remember_many([Draft("I moved to Berlin")], batch=batch)
    assert_nothing_written(me)


def test_boolean_limit_is_invalid(me):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="limit"):
        me.list(limit=True)

"""The SQLite store keeps the records it read between reads of many (store/sqlite/recordcache.py):
what it hands out is always what the file holds now, whoever changed it, and a caller's copy
is its own."""

from __future__ import annotations

import pytest

import engramdb
from engramdb.errors import EngramError
from engramdb.model import Scope

SCOPE = Scope("u", "default")


@pytest.fixture
def two(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Two Memory objects on one file: two connections, as two processes would have."""
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock, auto_sleep_importance=0) as a, \
            engramdb.open(path, embedder="hashing", clock=clock, auto_sleep_importance=0) as b:
        yield a, b


def read(mem: engramdb.Memory, *ids: str) -> dict[str, engramdb.Record]:
    return mem.store.get_many(SCOPE, list(ids))


def test_a_change_made_elsewhere_is_seen(two):  # type: ignore[no-untyped-def]
    a, b = two
    en = a.remember("Maya works at Lumen as a data engineer.", user="u").memory
    zh = a.remember("小王住在杭州西湖区。", user="u").memory
    assert read(a, en.id, zh.id)[zh.id].content == "小王住在杭州西湖区。"   # now kept
    b.update(zh.id, content="小王住在绍兴。", user="u")
    b.forget(en.id, user="u")
    again = read(a, en.id, zh.id)
    assert again[zh.id].content == "小王住在绍兴。" and again[zh.id].version == zh.version + 1
    assert again[en.id].layer.value == "deleted"


def test_a_use_is_seen(two):  # type: ignore[no-untyped-def]
    a, b = two
    rec = a.remember("The wifi password is hunter2.", user="u").memory
    assert read(a, rec.id)[rec.id].use_count == 0
    b.recall("wifi password", user="u")   # tracked: counts a use
    assert read(a, rec.id)[rec.id].use_count == 1


def test_a_callers_copy_is_its_own(two):  # type: ignore[no-untyped-def]
    a, _ = two
    rec = a.remember("Lunch with Maria in Lisbon", kind="event", people=["Maria"],
                     metadata={"trip": {"city": "Lisbon"}}, user="u").memory
    first = read(a, rec.id)[rec.id]
    first.people.append("Bob")
    first.metadata["trip"]["city"] = "Porto"
    first.content = "changed in my hands"
    second = read(a, rec.id)[rec.id]
    assert second.people == ["Maria"] and second.metadata["trip"] == {"city": "Lisbon"}
    assert second.content == "Lunch with Maria in Lisbon"


def test_what_a_rolled_back_write_read_is_forgotten(two):  # type: ignore[no-untyped-def]
    a, _ = two
    rec = a.remember("I live in Hangzhou.", user="u").memory
    read(a, rec.id)
    with pytest.raises(EngramError), a.store.transaction():
        a.update(rec.id, content="I live in Berlin.", user="u")
        assert read(a, rec.id)[rec.id].content == "I live in Berlin."   # inside: the new text
        raise EngramError("the write fails after it read")
    assert read(a, rec.id)[rec.id].content == "I live in Hangzhou."


def test_a_dropped_scope_is_forgotten(two):  # type: ignore[no-untyped-def]
    a, b = two
    rec = a.remember("我对花生过敏。", user="u").memory
    assert rec.id in read(a, rec.id)
    b.forget_scope(user="u")
    assert read(a, rec.id) == {}


def test_a_recalled_record_is_the_callers_own(two):  # type: ignore[no-untyped-def]
    # recall reads the kept records without copying them (recall/reading.py) and copies the
    # ones it returns: changing a hit's record changes neither the store nor the next recall
    a, _ = two
    a.remember("Lunch with Maria in Lisbon", kind="event", people=["Maria"],
               metadata={"trip": {"city": "Lisbon"}}, user="u")
    a.remember("和小王在杭州吃午饭", kind="event", people=["小王"], user="u")
    for query in ("lunch with Maria", "和小王吃午饭"):
        hit = a.recall(query, k=1, track=False, user="u")[0]
        hit.memory.people.append("Bob")
        hit.memory.metadata["trip"] = {"city": "Porto"}
        hit.memory.content = "changed in my hands"
        again = a.recall(query, k=1, track=False, user="u")[0].memory
        assert again.id == hit.memory.id and again.content != "changed in my hands"
        assert "Bob" not in again.people and again.metadata.get("trip") != {"city": "Porto"}
        assert read(a, again.id)[again.id].content == again.content


def test_a_lent_record_is_the_kept_one(two):  # type: ignore[no-untyped-def]
    a, b = two
    rec = a.remember("The boiler is serviced every October.", user="u").memory
    lent = a.store.read_many(SCOPE, [rec.id])[rec.id]
    assert a.store.read_many(SCOPE, [rec.id])[rec.id] is lent   # no copy
    assert read(a, rec.id)[rec.id] is not lent                   # get_many still copies
    b.update(rec.id, content="The boiler is serviced every November.", user="u")
    assert a.store.read_many(SCOPE, [rec.id])[rec.id].content.endswith("November.")


def test_what_the_write_path_reads_is_kept_packed(two):  # type: ignore[no-untyped-def]
    # get_many keeps what it read packed (plain values, store/common.py), made again at each
    # read; the read path's read_many turns it into the Record it lends from then on
    a, _ = two
    rec = a.remember("周五的例会改到下午三点。", people=["小王"], user="u").memory
    cache = a.store._records
    first = read(a, rec.id)[rec.id]
    assert type(cache._records[("u", "default", rec.id)]) is dict
    first.people.append("Bob")
    second = read(a, rec.id)[rec.id]
    assert second == rec and second is not first and second.people == ["小王"]
    lent = a.store.read_many(SCOPE, [rec.id])[rec.id]
    assert lent == rec and cache._records[("u", "default", rec.id)] is lent

"""A row read back is the record written: the SQLite store decodes a row it wrote itself
without the dataclass's __init__ (store/common.py), and must give exactly what the checked
way (``Record(**fields)``) gives, field by field and in the class's order; a row whose data
holds other keys than it writes goes the checked way."""

from __future__ import annotations

import copy
import dataclasses
import json
from datetime import UTC, datetime, timedelta

import pytest

import engramdb.store.common as common
from engramdb.model import Kind, Layer, Record
from engramdb.store.common import packed, record_from_values, row_values, unpacked

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FIELDS = [f.name for f in dataclasses.fields(Record)]


def records() -> list[Record]:
    plain = Record(id="a1", user="u", agent="default", content="I moved to Berlin", kind=Kind.FACT,
                   uri=None, priority=common.Priority.P2, lifecycle=common.Lifecycle.LONG,
                   importance=0.5, at=NOW, recorded_at=NOW, updated_at=NOW)
    full = plain.replace(
        id="a2", content="王伟下周去北京开会", kind=Kind.EVENT, uri="core://user/trip",
        metadata={"trip": {"city": "北京"}, "n": 3}, people=["王伟"], places=["北京"],
        topics=["会议"], keywords=["budget"], context="上一句", valence=-0.25, intensity=0.5,
        source_session="s1", source_turn="t2", derived_from=["a1"], invalid_at=NOW,
        superseded_by="a3", expires_at=NOW + timedelta(days=3), due_at=NOW, layer=Layer.ARCHIVED,
        use_count=4, last_uses=[NOW - timedelta(days=2), NOW], version=7, content_hash="h",
        overdue_since=NOW, at_precision="day")
    return [plain, full]


@pytest.mark.parametrize("rec", records(), ids=["plain", "every field"])
def test_a_row_decodes_to_the_record_written(rec: Record) -> None:
    values = row_values(rec)
    fast = record_from_values(values)
    checked = Record(**{f: getattr(fast, f) for f in FIELDS})
    assert fast == rec == checked
    assert list(vars(fast)) == FIELDS
    assert all(type(getattr(fast, f)) is type(getattr(rec, f)) for f in FIELDS)


def test_a_row_with_other_data_keys_goes_the_checked_way() -> None:
    values = row_values(records()[0])
    data = json.loads(values[-1])
    del data["at_precision"]                   # written before the field existed: its default
    older = record_from_values([*values[:-1], json.dumps(data)])
    assert older == records()[0] and older.at_precision is None
    data["unknown"] = 1                        # a key no field takes: the dataclass says so
    with pytest.raises(TypeError):
        record_from_values([*values[:-1], json.dumps(data)])


@pytest.mark.parametrize("rec", records(), ids=["plain", "every field"])
def test_a_packed_record_unpacks_to_itself_and_shares_nothing(rec: Record) -> None:
    # the record cache keeps records packed (store/sqlite/recordcache.py)
    before = copy.deepcopy(rec)
    kept = packed(rec)
    for shared in (False, True):
        out = unpacked(kept, shared)
        assert out == rec and list(vars(out)) == FIELDS
        assert all(type(getattr(out, f)) is type(getattr(rec, f)) for f in FIELDS)
        out.people.append("Bob")
        out.last_uses.clear()
        if not shared:
            out.metadata.setdefault("trip", {})["city"] = "Porto"
    rec.keywords.append("changed in the caller's hands")
    rec.metadata["n"] = 4
    assert unpacked(kept) == before


def test_a_packed_record_is_plain_values() -> None:
    # with flat metadata: strings, numbers, times and tuples of them, none of which the
    # garbage collector keeps tracking (CPython untracks a tuple or a dict of untracked values)
    def plain(value: object) -> bool:
        if type(value) is tuple:
            return all(plain(v) for v in value)
        return type(value) in (str, int, float, bool, datetime, type(None))

    for rec in records():
        kept = packed(rec.replace(metadata={"source": "chat", "n": 3, "ok": True}))
        assert list(kept) == FIELDS and all(plain(v) for v in kept.values())

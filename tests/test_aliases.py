"""The design's names: reflect for sleep, knowledge/emotion/story/idea/interaction as kinds."""

from __future__ import annotations

import pytest

from engramdb import Draft, Invalid, Kind
from engramdb.write.prepare import KIND_ALIASES

MAPPING = {"knowledge": Kind.FACT, "emotion": Kind.EMOTION, "story": Kind.EVENT,
           "idea": Kind.FACT, "interaction": Kind.EVENT}


@pytest.mark.parametrize(("alias", "kind"), list(MAPPING.items()))
def test_each_design_kind_writes_as_its_engramdb_kind(mem, alias, kind):  # type: ignore[no-untyped-def]
    rec = mem.remember(f"a memory written as {alias} 一条记忆", kind=alias).memory
    assert rec.kind == kind and mem.get(rec.id).kind == kind
    got = mem.remember_many([Draft(f"another {alias} memory 另一条", kind=alias)])
    assert got[0].memory.kind == kind


def test_aliases_filter_lists_counts_and_recall(mem):  # type: ignore[no-untyped-def]
    fact = mem.remember("The user works on an order system", kind="knowledge").memory
    event = mem.remember("We talked about the order system at lunch", kind="story").memory
    assert [r.id for r in mem.list(kind="knowledge")] == [fact.id]
    assert [r.id for r in mem.list(kind=["interaction"])] == [event.id]
    assert mem.count(kind="idea") == 1
    assert [h.memory.id for h in mem.recall("order system", kinds=["story"])] == [event.id]


def test_update_takes_an_alias(mem):  # type: ignore[no-untyped-def]
    rec = mem.remember("Maybe cache the search results", kind="fact").memory
    assert mem.update(rec.id, kind="story").kind == Kind.EVENT


def test_public_kind_values_are_unchanged_and_unknown_names_are_invalid(mem):  # type: ignore[no-untyped-def]
    assert [k.value for k in Kind] == ["identity", "preference", "fact", "event", "lesson",
                                       "rule", "procedure", "pending", "gist", "emotion"]
    assert set(KIND_ALIASES) | {"emotion"} == set(MAPPING)
    with pytest.raises(Invalid, match="aliases: knowledge=fact"):
        mem.remember("x y z", kind="thought")
    with pytest.raises(Invalid):
        mem.remember("x y z", kind="Knowledge ")


def test_reflect_is_sleep(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("Went to the office by bus", kind="event").memory
    clock.advance(days=60)
    report = mem.reflect("decay")
    assert [p.phase for p in report.phases] == ["decay"]
    assert mem.get(rec.id).layer.value == "archived"
    me = mem.scope(user="alice")
    assert me.reflect(full=True).mode == mem.sleep(user="alice", full=True).mode
    with pytest.raises(Invalid):
        mem.reflect("dream")

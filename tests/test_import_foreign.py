"""Importing other systems' exports (io/foreign.py): a mem0 get_all dump, a JSONL of LangGraph
store items, a Letta archival export; read back through the adapters' own shapes. A bad item
names itself and nothing is written."""

from __future__ import annotations

import io
import json

import pytest

import engramdb
from engramdb import Invalid
from engramdb.integrations.langgraph_shapes import uri_of
from engramdb.integrations.mem0 import Memory as Mem0
from engramdb.io.foreign import import_foreign

BACKENDS = ("sqlite", "postgres")
MEM0_DUMP = {"results": [
    {"id": "2f9a", "memory": "Is a vegetarian", "hash": "x", "metadata": {"source": "chat"},
     "created_at": "2025-11-03T10:00:00+00:00", "updated_at": None, "user_id": "alex"},
    {"id": "77b1", "memory": "对坚果过敏", "metadata": None,
     "created_at": "2025-11-03T10:00:01+00:00", "user_id": "alex", "agent_id": "chef",
     "run_id": "r9", "role": "user"},
]}
LANGGRAPH = [
    {"namespace": ["memories", "u1"], "key": "home", "value": {"text": "Lives in Lisbon"},
     "created_at": "2025-01-01T00:00:00+00:00", "updated_at": "2025-01-01T00:00:00+00:00"},
    {"namespace": ["prefs", "u1"], "key": "food.likes", "value": {"likes": ["sardines"], "n": 2}},
]
LETTA = [{"id": "passage-1", "text": "The user's sister is called Ana.",
          "created_at": "2025-06-01T09:00:00Z", "agent_id": "agent-1"},
         {"id": "passage-2", "text": "用户每周三去游泳。", "created_at": "2025-06-02T09:00:00Z"}]


def test_a_mem0_dump_reads_back_through_the_mem0_adapter(mem):  # type: ignore[no-untyped-def]
    counts = import_foreign(mem, io.StringIO(json.dumps(MEM0_DUMP)), "mem0")
    assert counts["items"] == 2 and counts["add"] == 2
    m0 = Mem0(memory=mem)
    got = {r["memory"]: r for r in m0.get_all(filters={"user_id": "alex"})["results"]}
    assert got["Is a vegetarian"]["metadata"] == {"source": "chat", "mem0_id": "2f9a"}
    assert "agent_id" not in got["Is a vegetarian"]
    assert got["对坚果过敏"]["agent_id"] == "chef" and got["对坚果过敏"]["run_id"] == "r9"
    assert m0.get_all(filters={"run_id": "r9"})["results"][0]["memory"] == "对坚果过敏"
    rec = mem.get(got["Is a vegetarian"]["id"], user="alex")
    assert rec.at.isoformat() == "2025-11-03T10:00:00+00:00"


def test_a_langgraph_jsonl_reads_back_through_the_store(mem):  # type: ignore[no-untyped-def]
    pytest.importorskip("langgraph")
    from engramdb.integrations.langgraph import EngramStore

    text = "\n".join(json.dumps(row) for row in LANGGRAPH)
    assert import_foreign(mem, io.StringIO(text), "langgraph", user="u1")["put"] == 2
    store = EngramStore(mem, user="u1")
    assert store.get(("memories", "u1"), "home").value == {"text": "Lives in Lisbon"}
    assert store.get(("prefs", "u1"), "food.likes").value == {"likes": ["sardines"], "n": 2}
    assert [i.key for i in store.search(("memories",), query="where does u1 live")] == ["home"]
    assert mem.get(uri_of(("memories", "u1"), "home"), user="u1").content == "Lives in Lisbon"


def test_a_letta_archival_export_becomes_memories(mem):  # type: ignore[no-untyped-def]
    counts = import_foreign(mem, io.StringIO(json.dumps(LETTA)), "letta", user="alice",
                            agent="letta")
    assert counts == {"items": 2, "add": 2}
    me = mem.scope(user="alice", agent="letta")
    assert me.recall("what is the sister's name?")[0].memory.content.startswith("The user's")
    assert me.recall("用户什么时候游泳")[0].memory.content == "用户每周三去游泳。"
    rec = me.recall("sister")[0].memory
    assert rec.metadata["letta"] == {"id": "passage-1", "agent_id": "agent-1"}


@pytest.mark.parametrize("source,text,where", [
    ("mem0", json.dumps({"results": [MEM0_DUMP["results"][0], {"memory": "no ids"}]}), "item 2"),
    ("mem0", json.dumps([MEM0_DUMP["results"][0], {"memory": "x", "user_id": "a b"}]), "item 2"),
    ("mem0", json.dumps([dict(MEM0_DUMP["results"][0], created_at="last Tuesday")]),
     "item 1: created_at: 'last Tuesday' is not an ISO 8601 time"),
    ("mem0", json.dumps([dict(MEM0_DUMP["results"][0], created_at=20251103)]),
     "item 1: created_at must be ISO 8601 text"),
    ("langgraph", json.dumps(LANGGRAPH[0]) + "\n{not json", "line 2"),
    ("langgraph", json.dumps(LANGGRAPH[0]) + "\n" + json.dumps({"namespace": ["a.b"], "key": "k",
                                                                "value": {}}), "line 2"),
    ("letta", json.dumps([LETTA[0], {"text": "  "}]), "item 2"),
    ("letta", "", "empty"),
    ("letta", json.dumps({"passages": "nope"}), "list"),
    ("chroma", "[]", "unknown source"),
])
def test_bad_exports_name_the_item_and_write_nothing(mem, source, text, where):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match=where):
        import_foreign(mem, io.StringIO(text), source, user="u1")
    assert mem.scopes() == []


def test_the_default_store_is_untouched_by_a_failed_import(tmp_path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "x.db", embedder="hashing") as mem:
        bad = json.dumps({"results": [MEM0_DUMP["results"][0], {"memory": 5, "user_id": "u"}]})
        with pytest.raises(Invalid):
            import_foreign(mem, io.StringIO(bad), "mem0")
        assert sum(mem.count(user=s.user, agent=s.agent) for s in mem.scopes()) == 0

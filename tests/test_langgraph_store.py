"""EngramStore: LangGraph's BaseStore over engramdb, driven by a real compiled LangGraph
graph and by LangGraph's own store verbs (put/get/search/delete/list_namespaces, batch,
async, TTL), with LangGraph's errors for bad input and nothing half-written."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any, TypedDict

import pytest

BACKENDS = ("sqlite", "postgres")

pytest.importorskip("langgraph")

from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.runtime import Runtime  # noqa: E402
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp  # noqa: E402

from engramdb import Invalid  # noqa: E402
from engramdb.integrations.langgraph import EngramStore, uri_of  # noqa: E402


@pytest.fixture
def store(mem) -> EngramStore:  # type: ignore[no-untyped-def]
    return EngramStore(mem, user="alice", agent="graph")


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def remember_and_recall(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    ns = ("memories", state["user"])
    runtime.store.put(ns, f"m{len(runtime.store.search(ns, limit=100))}", {"text": state["said"]})
    found = runtime.store.search(ns, query="where does the user live?", limit=3)
    return {"recalled": [item.value["text"] for item in found]}


def test_a_compiled_graph_writes_and_reads_through_the_store(store, mem):  # type: ignore[no-untyped-def]
    builder = StateGraph(State)
    builder.add_node("memory", remember_and_recall)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    graph = builder.compile(store=store)
    graph.invoke({"user": "u1", "said": "I live in Lisbon", "recalled": []})
    graph.invoke({"user": "u1", "said": "I love grilled sardines", "recalled": []})
    out = graph.invoke({"user": "u1", "said": "我住在里斯本的阿尔法玛", "recalled": []})
    assert out["recalled"][0] == "I live in Lisbon"
    assert len(store.search(("memories", "u1"))) == 3
    # they are engramdb memories of the store's scope, under the namespace's URI prefix
    uris = sorted(r.uri for r in mem.list(user="alice", agent="graph"))
    assert uris == [uri_of(("memories", "u1"), k) for k in ("m0", "m1", "m2")]


def test_langgraph_store_semantics(store):  # type: ignore[no-untyped-def]
    store.put(("docs", "a"), "k1", {"text": "red apples", "n": 1})
    store.put(("docs", "a"), "k2", {"text": "green pears", "n": 5})
    store.put(("docs", "b", "deep"), "k3", {"text": "yellow bananas", "n": 3})
    store.put(("other",), "k.1 with spaces/and:colons", {"text": "点心"})
    item = store.get(("docs", "a"), "k1")
    assert item is not None and item.value == {"text": "red apples", "n": 1}
    assert item.namespace == ("docs", "a") and item.key == "k1"
    assert store.get(("docs",), "k1") is None  # namespace is exact for get
    assert store.get(("other",), "k.1 with spaces/and:colons").value == {"text": "点心"}
    store.put(("docs", "a"), "k1", {"text": "red apples", "n": 2})  # value-only change
    assert store.get(("docs", "a"), "k1").value["n"] == 2
    keys = lambda items: sorted(i.key for i in items)  # noqa: E731
    assert keys(store.search(("docs",))) == ["k1", "k2", "k3"]
    assert keys(store.search(("docs",), filter={"n": {"$gte": 3}})) == ["k2", "k3"]
    assert keys(store.search(("docs",), filter={"text": "green pears"})) == ["k2"]
    assert len(store.search(("docs",), limit=2)) == 2
    assert len(store.search(("docs",), limit=2, offset=2)) == 1
    hits = store.search(("docs",), query="bananas", limit=1)
    assert [h.key for h in hits] == ["k3"] and hits[0].score is not None
    assert store.list_namespaces() == [("docs", "a"), ("docs", "b", "deep"), ("other",)]
    assert store.list_namespaces(prefix=("docs",), max_depth=2) == [("docs", "a"),
                                                                    ("docs", "b")]
    assert store.list_namespaces(suffix=("deep",)) == [("docs", "b", "deep")]
    assert store.list_namespaces(prefix=("*", "a")) == [("docs", "a")]
    store.delete(("docs", "a"), "k2")
    assert store.get(("docs", "a"), "k2") is None
    assert keys(store.search(("docs",))) == ["k1", "k3"]
    store.put(("docs", "a"), "k2", {"text": "back again"})
    assert store.get(("docs", "a"), "k2").value == {"text": "back again"}


def test_batch_and_async(store):  # type: ignore[no-untyped-def]
    res = store.batch([PutOp(("b",), "x", {"v": 1}), GetOp(("b",), "x"), GetOp(("b",), "y")])
    assert res[0] is None and res[1].value == {"v": 1} and res[2] is None

    async def run() -> Any:
        await store.aput(("b",), "y", {"v": 2})
        got = await store.aget(("b",), "y")
        found = await store.asearch(("b",))
        spaces = await store.alist_namespaces()
        await store.adelete(("b",), "y")
        return got, found, spaces, await store.aget(("b",), "y")

    got, found, spaces, gone = asyncio.run(run())
    assert got.value == {"v": 2} and len(found) == 2 and spaces == [("b",)] and gone is None


def test_ttl_is_engramdb_expiry(store, clock, mem):  # type: ignore[no-untyped-def]
    store.put(("t",), "short", {"text": "a temporary note"}, ttl=10)
    store.put(("t",), "long", {"text": "a lasting note"})
    rec = mem.get(uri_of(("t",), "short"), user="alice", agent="graph")
    assert rec.expires_at == clock.now() + timedelta(minutes=10) and rec.lifecycle == "temp"
    clock.advance(minutes=8)
    assert store.get(("t",), "short") is not None  # a read refreshes the ttl
    clock.advance(minutes=8)
    assert store.get(("t",), "short", refresh_ttl=False) is not None
    clock.advance(minutes=3)
    assert store.get(("t",), "short") is None
    assert [i.key for i in store.search(("t",))] == ["long"]
    assert [i.key for i in store.search(("t",), query="temporary note")] == ["long"]


def test_a_search_refreshes_the_ttl_of_what_it_returns(store, clock, mem):  # type: ignore[no-untyped-def]
    store.put(("t",), "暂时", {"text": "一条临时的笔记 a temporary note"}, ttl=10)
    store.put(("t",), "kept", {"text": "a lasting note"})
    clock.advance(minutes=8)
    assert {i.key for i in store.search(("t",))} == {"暂时", "kept"}  # refreshes "暂时"
    rec = mem.get(uri_of(("t",), "暂时"), user="alice", agent="graph")
    assert rec.expires_at == clock.now() + timedelta(minutes=10)
    assert mem.get(uri_of(("t",), "kept"), user="alice", agent="graph").expires_at is None
    clock.advance(minutes=8)
    assert "暂时" in [i.key for i in store.search(("t",), query="临时的笔记", refresh_ttl=False)]
    clock.advance(minutes=3)
    assert store.get(("t",), "暂时", refresh_ttl=False) is None


@pytest.mark.parametrize("call,error", [
    (lambda s: s.put((), "k", {"v": 1}), InvalidNamespaceError),
    (lambda s: s.put(("a.b",), "k", {"v": 1}), InvalidNamespaceError),
    (lambda s: s.put(("langgraph",), "k", {"v": 1}), InvalidNamespaceError),
    (lambda s: s.put(("a", ""), "k", {"v": 1}), InvalidNamespaceError),
    (lambda s: s.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("x.y",), "k", {"v": 1})]),
     InvalidNamespaceError),
    (lambda s: s.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("ok",), "", {"v": 1})]),
     ValueError),
    (lambda s: s.put(("ok",), "k", {"v": 1}, ttl=-5), ValueError),
    (lambda s: s.put(("ok",), "k", {"t": "x" * 70000}), Invalid),  # engramdb's content limit
    (lambda s: s.put(("ok",), "k", {"t": "x"}, index=["$.t", 5]), ValueError),
    (lambda s: s.batch([PutOp(("ok",), "k", {"v": 1}), SearchOp(("ok",), filter="v")]),
     ValueError),
    (lambda s: s.batch([PutOp(("ok",), "k", {"v": 1}), SearchOp(("ok",), limit=-1)]),
     ValueError),
])
def test_bad_input_raises_and_writes_nothing(store, mem, call, error):  # type: ignore[no-untyped-def]
    store.put(("keep",), "k", {"v": 0})
    before = mem.count(user="alice", agent="graph")
    with pytest.raises(error):
        call(store)
    assert mem.count(user="alice", agent="graph") == before
    assert store.get(("ok",), "k") is None


def test_a_query_looks_past_memories_outside_the_namespace(store, mem):  # type: ignore[no-untyped-def]
    for i in range(12):  # the scope's own memories, closer to the query than the item
        mem.remember(f"Lisbon trip note {i}: trams, Lisbon tiles, Lisbon food", user="alice",
                     agent="graph")
    store.put(("trips",), "t1", {"text": "a weekend in Lisbon"})
    assert [i.key for i in store.search(("trips",), query="Lisbon trams tiles food",
                                        limit=1)] == ["t1"]


def test_get_checks_each_namespace_every_time(store):  # type: ignore[no-untyped-def]
    """A get remembers the namespaces whose labels passed LangGraph's rules and the URIs it
    built: a good namespace read again, a bad one, a label that is no string (not even
    hashable) and one given as a list all answer as LangGraph's own checks do."""
    store.put(("笔记", "a"), "k", {"v": 1})
    for _ in range(2):
        assert store.get(("笔记", "a"), "k").value == {"v": 1}
        assert store.get(["笔记", "a"], "k").value == {"v": 1}
        assert store.get(("笔记", "b"), "k") is None
        for bad in [("a.b",), ("a", ""), ("a", "\x00"), ("a", ["x"]), ("a", 5)]:
            with pytest.raises(InvalidNamespaceError):
                store.get(bad, "k")

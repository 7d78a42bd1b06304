"""EngramStore's async verbs (aput, aget, asearch, adelete, alist_namespaces, abatch) as
LangGraph's own runtime calls them: an async node of a compiled graph run with ``ainvoke``,
several runs at once on one event loop, and bad input through the async path."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import pytest

BACKENDS = ("sqlite", "postgres")

pytest.importorskip("langgraph")

from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.runtime import Runtime  # noqa: E402
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp  # noqa: E402

from engramdb.integrations.langgraph import EngramStore, uri_of  # noqa: E402


class State(TypedDict):
    user: str
    said: str
    forget: str
    recalled: list[str]
    spaces: list[tuple[str, ...]]
    got: str
    batch: list[Any]


async def remember(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    ns = ("memories", state["user"])
    store = runtime.store
    key = f"m{len(await store.asearch(ns, limit=100))}"
    await store.aput(ns, key, {"text": state["said"]})
    if state["forget"]:
        await store.adelete(ns, state["forget"])
    got = await store.aget(ns, key)
    found = await store.asearch(ns, query="where does the user live?", limit=3)
    put, read, searched = await store.abatch([
        PutOp(("log", state["user"]), key, {"text": f"turn {key}"}),
        GetOp(("log", state["user"]), key),
        SearchOp(("log",), limit=10)])
    return {"recalled": [i.value["text"] for i in found], "got": got.value["text"],
            "spaces": await store.alist_namespaces(prefix=("memories",)),
            "batch": [put, read.value["text"], sorted(i.key for i in searched)]}


def graph(store: EngramStore) -> Any:
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    return builder.compile(store=store)


def start(user: str, said: str, forget: str = "") -> State:
    return {"user": user, "said": said, "forget": forget, "recalled": [], "spaces": [],
            "got": "", "batch": []}


def test_an_async_graph_uses_every_async_store_verb(mem):  # type: ignore[no-untyped-def]
    store = EngramStore(mem, user="alice", agent="graph")
    app = graph(store)

    async def run() -> list[State]:
        first = await app.ainvoke(start("u1", "I live in Lisbon"))
        second = await app.ainvoke(start("u1", "I love grilled sardines"))
        # runs of two users at once on one loop
        both = await asyncio.gather(app.ainvoke(start("u2", "我住在上海")),
                                    app.ainvoke(start("u1", "I moved to Porto", forget="m1")))
        return [first, second, *both]

    first, second, u2, third = asyncio.run(run())
    assert first["got"] == "I live in Lisbon" and first["recalled"] == ["I live in Lisbon"]
    assert first["batch"] == [None, "turn m0", ["m0"]]
    assert second["recalled"][0] == "I live in Lisbon" and len(second["recalled"]) == 2
    assert u2["got"] == "我住在上海" and u2["recalled"] == ["我住在上海"]
    assert ("memories", "u2") in u2["spaces"] and first["spaces"] == [("memories", "u1")]
    assert third["got"] == "I moved to Porto"
    assert "I love grilled sardines" not in third["recalled"]  # adelete removed m1
    # what the graph wrote is there for a sync reader, as engramdb memories of the scope
    assert sorted(i.key for i in store.search(("memories", "u1"))) == ["m0", "m2"]
    assert store.list_namespaces() == [("log", "u1"), ("log", "u2"), ("memories", "u1"),
                                       ("memories", "u2")]
    uris = {r.uri for r in mem.list(user="alice", agent="graph")}
    assert uri_of(("memories", "u2"), "m0") in uris and uri_of(("log", "u1"), "m2") in uris


@pytest.mark.parametrize("call,error", [
    (lambda s: s.aput(("a.b",), "k", {"v": 1}), InvalidNamespaceError),
    (lambda s: s.aput(("ok",), "k", "not a dict"), ValueError),
    (lambda s: s.abatch([PutOp(("ok",), "k", {"v": 1}), PutOp(("x.y",), "k", {"v": 1})]),
     InvalidNamespaceError),
    (lambda s: s.abatch([PutOp(("ok",), "k", {"v": 1}), PutOp(("ok",), "j", {"v": 1}, ttl=-1)]),
     ValueError),
])
def test_async_bad_input_raises_and_writes_nothing(mem, call, error):  # type: ignore[no-untyped-def]
    store = EngramStore(mem, user="alice", agent="graph")
    store.put(("keep",), "k", {"v": 0})
    before = mem.count(user="alice", agent="graph")
    with pytest.raises(error):
        asyncio.run(call(store))
    assert mem.count(user="alice", agent="graph") == before
    assert store.get(("ok",), "k") is None

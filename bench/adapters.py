"""What each adapter costs over the engine call it stands for (target: at most 10 %).

    PYTHONPATH=src python bench/adapters.py [--memories 300] [--rounds 200]

Two SQLite files per adapter filled alike (the engine side on one, the adapter on the other,
so both sides do the same engine work: same memories, same writes, same recalls), the hashing
embedder (the adapters add no embedding work; a real model makes every overhead smaller);
each figure is the median time of one call over ``--rounds`` calls, the two sides
interleaved (which goes first alternates); "paired" is the median of the per-round ratios,
the steadier figure on a loaded machine (writes wait on the disk and vary most).
The engine side is the engine call that answers the adapter's question: mem0's get holds only
an id (the lookup by id in any scope), LangGraph's get an exact URI (built beforehand: turning
a namespace and key into it is the adapter's work). Async session calls share one event
loop."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engramdb
from engramdb.engine.lookup import at_uri, find_by_id
from engramdb.model import Draft

TOPICS = ["Berlin", "hiking", "coffee", "the billing service", "Lisbon", "jazz", "火锅", "Python",
          "the harbour", "tennis"]


def fill(mem: engramdb.Memory, n: int, writer: Callable[[int, str], Any]) -> None:
    for i in range(n):
        writer(i, f"Note {i}: we talked about {TOPICS[i % len(TOPICS)]} on day {i // 10}.")


def pair(direct: Callable[[int], Any], adapter: Callable[[int], Any],
         rounds: int) -> tuple[float, float, float]:
    """(median engine time, median adapter time, median of the per-round adapter/engine
    ratios); a round times the two calls back to back, so a ratio is taken under one load,
    and the side that goes first alternates (the first call of a round is slower)."""
    a, b = [], []
    sides = ((direct, a), (adapter, b))
    for i in range(rounds):
        for fn, out in sides if i % 2 == 0 else sides[::-1]:  # the first call of a round
            start = time.perf_counter()                       # runs colder: take turns
            fn(i)
            out.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b), statistics.median(
        y / x for x, y in zip(a, b, strict=True))


def report(name: str, direct: float, adapter: float, ratio: float, sides: str = "") -> None:
    over = (adapter - direct) / direct * 100
    print(f"{name:30} engine {direct * 1e3:7.3f} ms  adapter {adapter * 1e3:7.3f} ms  "
          f"overhead {over:+6.1f} % (paired {(ratio - 1) * 100:+6.1f} %)")
    if sides:
        print(f"    {sides}")


def bench_mem0(root: Path, n: int, rounds: int) -> None:
    from engramdb.integrations.mem0 import Memory

    mem = engramdb.open(root / "mem0-engine.db", embedder="hashing")
    m0 = Memory(memory=engramdb.open(root / "mem0-adapter.db", embedder="hashing"))
    fill(mem, n, lambda i, t: mem.remember(t, metadata=tag(i), user="u"))
    fill(m0.engine, n, lambda i, t: m0.add(t, user_id="u", infer=False))
    q = lambda i: f"what about {TOPICS[i % len(TOPICS)]}?"  # noqa: E731
    report("mem0 search (top 5)", *pair(
        lambda i: mem.recall(q(i), k=5, user="u", agent="default"),
        lambda i: m0.search(q(i), filters={"user_id": "u"}, top_k=5), rounds))
    report("mem0 add (infer=False)", *pair(  # the adapter stores its messages as one batch
        lambda i: mem.remember_many([Draft(content=f"fact {i} about {TOPICS[i % 10]}",
                                           metadata=tag(i))], user="u"),
        lambda i: m0.add(f"fact {i} about {TOPICS[i % 10]}", user_id="u", infer=False),
        rounds))
    ids = [r.id for r in mem.list(user="u", limit=50)]
    ids2 = [r.id for r in m0.engine.list(user="u", limit=50)]
    # mem0's get holds only the id: the engine's answer to that is the lookup by id alone
    report("mem0 get (by id, any scope)", *pair(lambda i: find_by_id(mem, ids[i % 50]),
                                                lambda i: m0.get(ids2[i % 50]), rounds),
           "engine: find_by_id (Store.locate: one indexed read, the row decoded to a Record); "
           "adapter: Memory.get = id check + the same find_by_id + expiry check + mem0's item "
           "dict (50 memories read in turn: their timestamps' text is remembered after the "
           "first read)")
    mem.close()
    m0.close()


def tag(i: int) -> dict[str, Any]:
    """The metadata the mem0 adapter writes, so that the engine side stores the same."""
    return {"mem0": {"user_id": "u", "role": "user", "metadata": {}}}


def bench_langgraph(root: Path, n: int, rounds: int) -> None:
    from engramdb.integrations.langgraph import EngramStore, uri_of

    mem = engramdb.open(root / "lg-engine.db", embedder="hashing")
    store = EngramStore(engramdb.open(root / "lg-adapter.db", embedder="hashing"), user="u")
    filled = lambda m: fill(m, n, lambda i, t: EngramStore(m, user="u").put(  # noqa: E731
        ("notes", "u"), f"k{i}", {"text": t}))
    filled(mem)
    filled(store.engine)
    q = lambda i: f"what about {TOPICS[i % len(TOPICS)]}?"  # noqa: E731
    report("langgraph search query (limit 5)", *pair(
        lambda i: mem.recall(q(i), k=5, user="u"),
        lambda i: store.search(("notes", "u"), query=q(i), limit=5), rounds))
    # the engine answers "the memory at this exact URI" (the adapter's own path); the URIs
    # are built beforehand, so that turning (namespace, key) into one counts as the adapter's
    scope = mem._scope("u", None)
    uris = [uri_of(("notes", "u"), f"k{i}") for i in range(n)]
    report("langgraph get (exact URI)", *pair(
        lambda i: at_uri(mem, scope, uris[i % n]),
        lambda i: store.get(("notes", "u"), f"k{i % n}", refresh_ttl=False), rounds),
           "engine: at_uri with a URI built beforehand (Store.get_by_uri: one indexed read, "
           "decoded); adapter: EngramStore.get = LangGraph's namespace/key checks + the URI "
           "from (namespace, key) + the same at_uri + expiry check + LangGraph's Item")
    mem.close()
    store.engine.close()


def bench_agents(root: Path, rounds: int) -> None:
    from engramdb.integrations.openai_agents import EngramSession

    mem = engramdb.open(root / "agents-engine.db", embedder="hashing")
    other = engramdb.open(root / "agents-adapter.db", embedder="hashing")
    wm = mem.session("s", budget=2000)
    session = EngramSession("s", other, budget=2000)
    loop = asyncio.new_event_loop()
    text = lambda i: f"Turn {i}: please look at {TOPICS[i % len(TOPICS)]} again."  # noqa: E731

    async def direct_add(i: int) -> None:
        wm.add("user", text(i))

    async def direct_get() -> list[dict[str, str]]:
        return wm.messages()

    report("agents add one item", *pair(
        lambda i: loop.run_until_complete(direct_add(i)),
        lambda i: loop.run_until_complete(
            session.add_items([{"role": "user", "content": text(i)}])), rounds))
    report("agents get items", *pair(
        lambda i: loop.run_until_complete(direct_get()),
        lambda i: loop.run_until_complete(session.get_items()), rounds))
    loop.close()
    mem.close()
    other.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--memories", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bench_mem0(root, args.memories, args.rounds)
        bench_langgraph(root, args.memories, args.rounds)
        bench_agents(root, args.rounds)


if __name__ == "__main__":
    main()

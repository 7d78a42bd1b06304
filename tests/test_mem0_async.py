"""The mem0-compatible AsyncMemory: mem0's own AsyncMemory verbs, as coroutines, with the
shapes mem0's MemoryItem model accepts; concurrent calls on one event loop; bad input gets
mem0's ValueError (an engramdb Invalid too) with nothing written."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from engramdb import Invalid
from engramdb.integrations.mem0 import AsyncMemory, Mem0Error, Memory

BACKENDS = ("sqlite", "postgres")

mem0_main = pytest.importorskip("mem0.memory.main")
MemoryItem = pytest.importorskip("mem0.configs.base").MemoryItem
PLATFORM_ONLY = ("project", "entity_store", "chat")  # mem0's platform parts, not memory verbs


def test_the_verbs_of_mem0s_async_memory_are_here_and_awaitable():
    theirs = {name: fn for name, fn in inspect.getmembers(mem0_main.AsyncMemory)
              if not name.startswith("_") and name not in PLATFORM_ONLY}
    assert {"add", "search", "get", "get_all", "update", "delete", "delete_all", "history",
            "reset", "close", "from_config"} <= set(theirs)
    for name, fn in theirs.items():
        ours = getattr(AsyncMemory, name)
        assert inspect.iscoroutinefunction(ours) == inspect.iscoroutinefunction(fn), name
    assert inspect.iscoroutinefunction(AsyncMemory.__aenter__)


def shaped(item: dict[str, Any]) -> dict[str, Any]:
    """The item as mem0's own MemoryItem model reads it (it raises on a wrong type)."""
    return MemoryItem.model_validate(item).model_dump()


def test_async_verbs_give_mem0_shapes(mem):  # type: ignore[no-untyped-def]
    am = AsyncMemory(memory=mem)

    async def run() -> dict[str, Any]:
        added = await am.add([{"role": "user", "content": "I live in Berlin and I love hiking."}],
                             user_id="alice", metadata={"source": "chat"})
        # many calls at once on one loop: each runs in a worker thread on the one engine
        await asyncio.gather(*(am.add(f"note {i}: 我每周{i}去游泳", user_id=f"u{i % 3}",
                                      infer=False) for i in range(9)))
        found = await am.search("where does she live?", filters={"user_id": "alice"}, top_k=3)
        mid = found["results"][0]["id"]
        got = await am.get(mid)
        listed = await am.get_all(filters={"user_id": "u1"})
        updated = await am.update(mid, "I live in Oslo now")
        after = await am.get(mid)
        deleted = await am.delete(mid)
        history = await am.history(mid)
        cleared = await am.delete_all(user_id="u0")
        return {"added": added, "found": found, "got": got, "listed": listed,
                "updated": updated, "after": after, "deleted": deleted, "history": history,
                "cleared": cleared, "gone": await am.get(mid),
                "u0": await am.get_all(filters={"user_id": "u0"})}

    out = asyncio.run(run())
    assert {r["event"] for r in out["added"]["results"]} == {"ADD"}
    top = out["found"]["results"][0]
    assert "Berlin" in top["memory"] and top["user_id"] == "alice"
    assert shaped(top)["metadata"] == {"source": "chat"} and shaped(top)["score"] is not None
    assert shaped(out["got"]) == {**shaped(top), "score": None}  # get has no score, as mem0's
    assert sorted(r["memory"] for r in out["listed"]["results"]) == [
        "note 1: 我每周1去游泳", "note 4: 我每周4去游泳", "note 7: 我每周7去游泳"]
    for item in out["listed"]["results"]:
        shaped(item)
    assert out["updated"] == {"message": "Memory updated successfully!"}
    assert out["after"]["memory"] == "I live in Oslo now"
    assert out["deleted"] == {"message": "Memory deleted successfully!"}
    assert out["gone"] is None
    assert [h["event"] for h in out["history"]] == ["ADD", "UPDATE", "DELETE"]
    assert out["cleared"] == {"message": "Memories deleted successfully!"}
    assert out["u0"] == {"results": []}
    # the sync adapter reads the same store the same way
    assert Memory(memory=mem).get_all(filters={"user_id": "u1"}) == out["listed"]


def test_async_reset_and_context_manager(tmp_path):  # type: ignore[no-untyped-def]
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with AsyncMemory.from_config({"url": str(tmp_path / "a.db"),
                                            "embedder": "hashing"}) as am:
            await am.add("keep the receipts", user_id="u", infer=False)
            before = await am.get_all(filters={"user_id": "u"})
            await am.reset()
            return before, await am.get_all(filters={"user_id": "u"})

    before, after = asyncio.run(run())
    assert [r["memory"] for r in before["results"]] == ["keep the receipts"]
    assert after == {"results": []}


BAD: list[tuple[str, Any]] = [
    ("no ids", lambda m: m.add("hello")),
    ("half-bad list", lambda m: m.add([{"role": "user", "content": "fine"}, {"role": "user"}],
                                      user_id="u", infer=False)),
    ("search without scope", lambda m: m.search("x")),
    ("bad threshold", lambda m: m.search("x", filters={"user_id": "u"}, threshold=2)),
    ("missing memory", lambda m: m.update("nope", "x")),
    ("delete missing", lambda m: m.delete("nope")),
    ("delete_all unscoped", lambda m: m.delete_all()),
    ("mem0's llm argument", lambda m: m.add("x", user_id="u", llm=object())),
]


@pytest.mark.parametrize("why,call", BAD, ids=[b[0] for b in BAD])
def test_async_bad_input_is_a_value_error_and_writes_nothing(mem, why, call):  # type: ignore[no-untyped-def]
    am = AsyncMemory(memory=mem)
    asyncio.run(am.add("keep me", user_id="u", infer=False))
    before = [(s, mem.count(user=s.user, agent=s.agent)) for s in mem.scopes()]
    with pytest.raises(ValueError) as info:
        asyncio.run(call(am))
    assert isinstance(info.value, Invalid) and isinstance(info.value, Mem0Error)
    assert [(s, mem.count(user=s.user, agent=s.agent)) for s in mem.scopes()] == before

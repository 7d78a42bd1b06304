"""Where an LLM reads the hits (context(), the agent's recall tool, MCP recall, the mem0 and
LangGraph facades), recall drops those under ``Config.answer_floor`` and says nothing is
relevant; the library's own recall drops those under ``Config.relevance_floor`` (0.25 too by
default; 0 keeps every hit). The scope holds enough memories for relevance to be judged
(recall/relevance.py, MIN_BACKGROUND); the hashing embedder gives word evidence only, which is
what these questions differ by."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Draft
from engramdb.agent.builtins import install
from engramdb.agent.tools import ToolRegistry
from engramdb.integrations.langgraph import EngramStore
from engramdb.integrations.mem0 import Memory as Mem0
from test_relevance import BACKGROUND, FACTS

OFF = ("what is next year's semiconductor funding plan?", "量子纠缠实验的结果是什么？")
ON = ("where does the build cache live?", "alder-01")


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as m:
        m.remember_many([Draft(f) for f in FACTS + BACKGROUND], user="alice")
        yield m


def test_the_library_and_the_doors_floor_by_default(mem):  # type: ignore[no-untyped-def]
    assert mem.config.relevance_floor == 0.25 and mem.config.answer_floor == 0.25
    for question in OFF:
        floored = mem.recall(question, user="alice")
        assert floored.abstained and "nothing in memory is about this" in floored.note
        assert mem.recall(question, user="alice", relevance_floor=0)       # 0: every hit
    assert not mem.recall(ON[0], user="alice").abstained


def test_a_library_floor_of_0_keeps_the_doors_floor(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       relevance_floor=0) as m:
        m.remember_many([Draft(f) for f in FACTS + BACKGROUND], user="alice")
        for question in OFF:
            assert m.recall(question, user="alice")
            assert "## Memories" not in m.context(question, user="alice").text


def test_context_shows_no_memory_for_an_off_topic_question(mem):  # type: ignore[no-untyped-def]
    for question in OFF:
        assert "## Memories" not in mem.context(question, user="alice").text
    assert ON[1] in mem.context(ON[0], user="alice").text


def test_the_agents_recall_tool_returns_nothing_off_topic(mem):  # type: ignore[no-untyped-def]
    reg = ToolRegistry()
    install(reg, mem, mem._scope("alice", None), lambda: {})
    for question in OFF:
        assert reg.call("recall", {"query": question}).output == []
    assert ON[1] in reg.call("recall", {"query": ON[0]}).output[0]["content"]


def test_mem0_search_floors_unless_given_its_own_threshold(mem):  # type: ignore[no-untyped-def]
    m0 = Mem0(memory=mem)
    for question in OFF:
        assert m0.search(question, user_id="alice")["results"] == []
        assert m0.search(question, user_id="alice", threshold=0.0)["results"]
    found = m0.search(ON[0], user_id="alice")["results"]
    assert ON[1] in found[0]["memory"]


def test_langgraph_search_floors(mem):  # type: ignore[no-untyped-def]
    store = EngramStore(mem, user="alice")
    store.put(("notes",), "k1", {"text": "The build cache moved to host birch-02"})
    for question in OFF:
        assert store.search(("notes",), query=question) == []
    assert "birch-02" in store.search(("notes",), query=ON[0])[0].value["text"]


@pytest.mark.parametrize("bad", ["-0.1", "2", "x"])
def test_a_bad_answer_floor_is_a_config_error(bad, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ENGRAMDB_ANSWER_FLOOR", bad)
    with pytest.raises(engramdb.ConfigError, match="(?i)answer_floor"):
        engramdb.Config.load()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_recall_abstains_off_topic(tmp_path: Path) -> None:
    from test_mcp import ok, stdio

    db = tmp_path / "m.db"
    with engramdb.open(db, embedder="hashing") as m:
        m.remember_many([Draft(f) for f in FACTS + BACKGROUND], user="alice")
    async with stdio(db, "--user", "alice") as c:
        off: dict[str, Any] = await ok(c, "recall", query=OFF[0])
        assert off["abstained"] and off["hits"] == []
        assert "nothing in memory is about this" in off["_text"]
        on = await ok(c, "recall", query=ON[0])
        assert ON[1] in on["hits"][0]["memory"]["content"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))

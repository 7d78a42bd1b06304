"""EngramSession: the OpenAI Agents SDK's Runner keeps its conversation in engramdb's working
memory. The model is the SDK's chat-completions model talking to the loopback double."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgres")

pytest.importorskip("agents")

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402

from engramdb import Conflict, Invalid  # noqa: E402
from engramdb.integrations.openai_agents import EngramSession  # noqa: E402
from openai_double import openai_double  # noqa: E402


@pytest.fixture(autouse=True)
def offline(monkeypatch):  # type: ignore[no-untyped-def]
    set_tracing_disabled(True)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)


def agent_for(url: str) -> Agent:
    client = AsyncOpenAI(base_url=url, api_key="test-key")
    return Agent(name="helper", instructions="Be brief.",
                 model=OpenAIChatCompletionsModel(model="double", openai_client=client))


def sent(request: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["role"], m["content"] if isinstance(m["content"], str) else str(m["content"]))
            for m in request["body"]["messages"]]


def test_runner_keeps_the_conversation_in_working_memory(mem):  # type: ignore[no-untyped-def]
    session = EngramSession("chat-1", mem, user="alice", agent="helper")
    with openai_double() as (url, seen):
        agent = agent_for(url)
        first = Runner.run_sync(agent, "I live in Lisbon.", session=session)
        Runner.run_sync(agent, "我喜欢吃葡式蛋挞", session=session)
    assert first.final_output == "You said: I live in Lisbon."
    second = sent(seen[1])
    assert ("user", "I live in Lisbon.") in second
    assert ("assistant", "You said: I live in Lisbon.") in second
    assert second[-1] == ("user", "我喜欢吃葡式蛋挞")
    roles = [t.role for t in session.working_memory.turns()]
    assert roles == ["user", "assistant", "user", "assistant"]
    # a new session object for the same id sees the stored turns
    again = EngramSession("chat-1", mem, user="alice", agent="helper")
    assert len(asyncio.run(again.get_items())) == 4
    handover = session.end()
    assert handover.ingested is not None
    assert any("Lisbon" in h.memory.content for h in mem.recall("where do I live?", user="alice",
                                                                  agent="helper"))
    with pytest.raises(Conflict):
        asyncio.run(session.add_items([{"role": "user", "content": "too late"}]))


def test_a_long_session_stays_within_its_budget(mem):  # type: ignore[no-untyped-def]
    session = EngramSession("long", mem, budget=300, keep=2)
    filler = "We discussed the deployment plan for the billing service in detail. "
    with openai_double() as (url, seen):
        agent = agent_for(url)
        for i in range(12):
            Runner.run_sync(agent, f"Step {i}: {filler * 3}", session=session)
    wm = session.working_memory
    assert len(wm.turns()) == 24 and not wm.over_budget and wm.tokens <= 300
    last = sent(seen[-1])
    assert last[1][0] == "system" and "[Summary of earlier turns]" in last[1][1]
    assert len(last) < 24  # the SDK was sent the window, not every turn


def test_pop_clear_limit_and_tool_items(mem):  # type: ignore[no-untyped-def]
    session = EngramSession("tools", mem)
    items = [{"role": "user", "content": "weather in Oslo?"},
             {"type": "function_call", "call_id": "c1", "name": "weather",
              "arguments": '{"city": "Oslo"}'},
             {"type": "function_call_output", "call_id": "c1", "output": "rain, 8°C"},
             {"type": "reasoning", "id": "r1", "summary": []},
             {"type": "message", "role": "assistant",
              "content": [{"type": "output_text", "text": "Rainy, 8°C."}]}]
    asyncio.run(session.add_items(items))
    got = asyncio.run(session.get_items())
    assert [i["content"] for i in got] == ["weather in Oslo?",
                                          '[tool call weather] {"city": "Oslo"}',
                                          "[tool result] rain, 8°C", "Rainy, 8°C."]
    assert {i["role"] for i in got} <= {"user", "assistant"}
    assert asyncio.run(session.get_items(limit=2)) == got[-2:]
    popped = asyncio.run(session.pop_item())
    assert popped == {"role": "assistant", "content": "Rainy, 8°C."}
    assert len(asyncio.run(session.get_items())) == 3
    reopened = EngramSession("tools", mem)  # finds the newest generation
    assert len(asyncio.run(reopened.get_items())) == 3
    asyncio.run(session.clear_session())
    assert asyncio.run(session.get_items()) == [] and asyncio.run(session.pop_item()) is None


@pytest.mark.parametrize("items", [
    "not a list",
    [{"role": "user", "content": "fine"}, {"role": "wizard", "content": "x"}],
    [{"role": "user", "content": "fine"}, {"role": "user", "content": "   "}],
    [{"role": "user", "content": "fine"}, 42],
])
def test_bad_items_raise_invalid_and_write_nothing(mem, items):  # type: ignore[no-untyped-def]
    session = EngramSession("bad", mem)
    asyncio.run(session.add_items([{"role": "user", "content": "kept"}]))
    with pytest.raises(Invalid):
        asyncio.run(session.add_items(items))
    assert len(EngramSession("bad", mem).working_memory.turns()) == 1
    with pytest.raises(Invalid):
        asyncio.run(session.get_items(limit=-1))

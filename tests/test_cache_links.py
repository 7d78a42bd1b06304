"""The agent's semantic cache is linked to the pending items and lessons an answer relied on:
when one closes (forgotten, changed, retired by sleep once overdue), the answers linked to it
are dropped, though the focus never picked it (the cognitive state's open questions and
reflections are shown to the planner, not focused). Against the scripted OpenAI-compatible
server (tests/llm_double.py); time moves with the FrozenClock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engramdb import Memory
from engramdb.agent import Agent, SemanticCache
from engramdb.agent.state import reflect
from test_agent import brain, llm  # noqa: F401 - fixtures: the LLM double, the store


@pytest.fixture
def agent(brain: Memory) -> Agent:  # noqa: F811 - the imported fixture
    cache = SemanticCache(brain._embed_query, max_age=timedelta(days=30))
    return Agent(brain, user="alice", cache=cache)


def test_an_answer_is_dropped_when_the_open_question_it_relied_on_closes(agent, brain, llm):  # type: ignore[no-untyped-def]  # noqa: F811
    uri = agent.ask("Which queue should the billing jobs use?")
    question = brain.get(uri, user="alice")
    llm.say("Settle the billing queue first.")
    asked = "What should I look into next?"
    assert agent.turn(asked).source == "llm"
    assert "Which queue should the billing jobs use?" in llm.system()
    assert agent.cache.links(agent.scope, question.id) == [asked]
    hit = agent.turn(asked)
    assert (hit.source, hit.answer) == ("cache", "Settle the billing queue first.")
    assert question.id not in hit.used          # the focus did not pick it: linked all the same
    brain.forget(question.id, user="alice")
    llm.say("Nothing is open.")
    again = agent.turn(asked)
    assert (again.source, again.answer) == ("llm", "Nothing is open.")
    assert agent.cache.invalidated == 1 and agent.cache.links(agent.scope, question.id) == []


def test_a_changed_reflection_drops_the_answers_linked_to_it_in_chinese(agent, brain, llm):  # type: ignore[no-untyped-def]  # noqa: F811
    lesson = reflect(brain, agent.scope, "部署前先检查预发环境")
    llm.say("先检查预发环境。")
    asked = "部署前要注意什么？"
    agent.turn(asked)
    assert agent.cache.links(agent.scope, lesson.id) == [asked]
    assert agent.turn(asked).source == "cache"
    brain.update(lesson.id, content="部署前先跑冒烟测试", user="alice")   # the lesson revised
    assert agent.cache.size(agent.scope) == 1
    llm.say("先跑冒烟测试。")
    assert agent.turn(asked).answer == "先跑冒烟测试。"
    assert agent.cache.invalidated == 1


def test_a_pending_item_retired_by_sleep_closes_its_answers(agent, brain, llm, clock):  # type: ignore[no-untyped-def]  # noqa: F811
    item = brain.remember("Renew the TLS certificate for api.example.com", kind="pending",
                          due_at=clock.now() + timedelta(days=2), user="alice").memory
    llm.say("Renew the TLS certificate.")
    agent.turn("What is due this week?")
    assert agent.cache.links(agent.scope, item.id) == ["What is due this week?"]
    clock.advance(days=3)
    assert agent.turn("What is due this week?").source == "cache"   # overdue: still open
    brain.sleep(user="alice")          # marked overdue
    clock.advance(days=2)
    brain.sleep(user="alice")          # retired: archived, the item is closed
    assert brain.get(item.id, user="alice").layer.value == "archived"
    llm.say("Nothing is due.")
    assert agent.turn("What is due this week?").answer == "Nothing is due."
    assert agent.cache.invalidated == 1


def test_links_of_unknown_memories_are_empty(agent):  # type: ignore[no-untyped-def]  # noqa: F811
    assert agent.cache.links(agent.scope, "no-such-id") == []
    assert agent.cache.invalidate(agent.scope, "no-such-id") == 0
    assert agent.cache.sweep(agent.memory.store, agent.scope) == 0

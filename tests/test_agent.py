"""The agent's turn against a scripted OpenAI-compatible server on loopback (tests/llm_double.py):
tool turns, failures and their lessons, retries and fallbacks, the finish guard, the cache,
persona and beliefs."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import engramdb
from engramdb import Config, Memory
from engramdb.agent import Agent, Endpoint
from llm_double import Script, serve

QUESTION = "What is my dog called?"


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    yield from serve(monkeypatch)


@pytest.fixture
def brain(tmp_path, clock, llm: Script) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    config = Config(llm_url=llm.url, llm_model="planner-1", llm_api_key="sk-test",
                    llm_timeout=30, auto_sleep_importance=0)
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       config=config) as m:
        yield m


@pytest.fixture
def agent(brain: Memory) -> Agent:
    a = Agent(brain, user="alice")

    @a.tool
    def weather(city: str) -> dict[str, dict[str, str]]:
        """Today's weather in a city.

        city: the city's name
        """
        return {"weather": {city.lower(): "rain"}}

    @a.tool
    def divide(a: float, b: float) -> float:
        """Divide a by b."""
        return a / b

    return a


def dog(brain: Memory) -> str:
    return brain.remember("My dog is called Biscuit", user="alice").memory.id


def test_a_tool_turn_recalls_answers_and_remembers_the_experience(agent, brain, llm):  # type: ignore[no-untyped-def]
    dog_id = dog(brain)
    before = brain.get(dog_id, user="alice").importance
    llm.call("recall", {"query": "dog name"}).say("Your dog is called Biscuit.")
    result = agent.turn(QUESTION)
    assert (result.ok, result.source, result.answer) == (True, "llm",
                                                         "Your dog is called Biscuit.")
    assert [(s.kind, s.tool, s.ok) for s in result.steps] == [
        ("focus", "", True), ("tool", "recall", True), ("answer", "", True)]
    assert "Biscuit" in result.steps[1].output
    assert result.evaluation.reward == 1.0 and result.evaluation.strategy == "recall"
    first = llm.requests[0]
    assert first["auth"] == "Bearer sk-test" and first["body"]["model"] == "planner-1"
    names = [t["function"]["name"] for t in first["body"]["tools"]]
    assert {"recall", "remember", "goal_start", "introspect", "finish", "plan", "weather",
            "divide"} <= set(names)
    assert "## Cognitive state" in llm.system(0) and "weather" in llm.system(0)
    tool_msg = llm.requests[1]["body"]["messages"][-1]
    assert tool_msg["role"] == "tool" and "Biscuit" in tool_msg["content"]
    exp = brain.get(result.experience_id, user="alice")
    assert exp.uri.startswith("system://agent/experience/")
    assert exp.metadata["experience"]["reward"] == 1.0
    assert exp.priority.value == "P3"   # an episode: not loaded at boot as identity (issue 30)
    assert exp.id not in {m.id for m in brain.boot(user="alice").memories}
    sections = brain.context("dog", user="alice").text.split("## ")
    assert not any(x.startswith("Identity") and "agent experience" in x for x in sections)
    assert dog_id in {link.target for link in brain.links(exp.id, user="alice")
                      if link.relation == "derived_from"}
    assert brain.get(dog_id, user="alice").importance > before   # useful: strengthened
    assert llm.overrun == 0
    shown = json.loads(json.dumps(result.to_dict(), ensure_ascii=False))
    assert shown["answer"] == result.answer and shown["steps"][1]["tool"] == "recall"


def test_a_failing_tool_gives_a_lesson_and_twice_a_rule(agent, brain, llm):  # type: ignore[no-untyped-def]
    llm.call("divide", {"a": 1, "b": 0}).say("I cannot divide by zero.")
    result = agent.turn("Divide 1 by 0")
    step = result.steps[1]
    assert (step.kind, step.tool, step.ok) == ("tool", "divide", False)
    assert "ZeroDivisionError" in step.error
    assert result.ok and result.evaluation.reward == 0.75
    assert "divide" in result.evaluation.lesson and "ZeroDivisionError" in result.evaluation.lesson
    assert "ZeroDivisionError" in llm.requests[1]["body"]["messages"][-1]["content"]
    assert result.consolidated["rules"] == []
    llm.call("divide", {"a": 2, "b": 0}).say("Still impossible.")
    again = agent.turn("Divide 2 by 0")
    assert again.consolidated["rules"] and "divide" in again.consolidated["rules"][0]
    assert "divide" in brain.agents_md(user="alice")


def test_chinese_turns_get_chinese_prompts_and_lessons(agent, llm):  # type: ignore[no-untyped-def]
    llm.call("divide", {"a": 1, "b": 0}).say("不能除以零。")
    result = agent.turn("把一除以零")
    assert result.lang == "zh" and "长期记忆" in llm.system(0)
    assert "工具 divide" in result.evaluation.lesson


def test_an_invalid_plan_is_retried_once_with_the_error(agent, llm):  # type: ignore[no-untyped-def]
    llm.call("nosuch", {}).say("Fine.")
    result = agent.turn("Do something")
    assert result.ok and result.answer == "Fine."
    retry = llm.requests[1]["body"]["messages"][-1]["content"]
    assert "not a valid action" in retry and "unknown tool 'nosuch'" in retry
    assert result.steps[-1].data["attempts"] == 2


def test_two_invalid_plans_fall_back_to_a_safe_answer(agent, brain, llm):  # type: ignore[no-untyped-def]
    llm.call("nosuch", {}).call("weather", "{not json")
    result = agent.turn("Do something")
    assert (result.ok, result.source) == (False, "fallback")
    assert result.answer.startswith("Sorry, I could not work out how to answer this")
    assert "not JSON" in result.answer and "not JSON" in result.error
    assert result.evaluation.reward == -1.0 and "planner" in result.evaluation.lesson
    assert llm.overrun == 0 and len(llm.requests) == 2


def test_without_native_tools_the_planner_speaks_json(agent, llm):  # type: ignore[no-untyped-def]
    llm.refuse_tools = True
    llm.say('{"action": "tool", "tool": "weather", "args": {"city": "Oslo"}}')
    llm.say('```json\n{"action": "answer", "text": "Rain in Oslo."}\n```')
    result = agent.turn("Weather in Oslo?")
    assert result.ok and result.answer == "Rain in Oslo."
    assert agent.planner.mode == "json"
    assert "tools" in llm.requests[0]["body"] and "tools" not in llm.requests[1]["body"]
    assert '"action": "tool"' in llm.system(1)
    assert llm.requests[2]["body"]["messages"][-1]["content"].startswith("Result of weather")


def test_a_non_json_answer_in_json_mode_is_retried_then_falls_back(brain, llm):  # type: ignore[no-untyped-def]
    a = Agent(brain, user="alice", mode="json")
    llm.say("Sure! The answer is 4.").say("Four.")
    result = a.turn("What is 2 + 2?")
    assert (result.ok, result.source) == (False, "fallback")
    assert "not a JSON object" in result.error


def test_finish_before_the_required_tools_is_refused(agent, llm):  # type: ignore[no-untyped-def]
    llm.call("plan", {"requires": ["weather"], "note": "check"})
    llm.call("finish", {"answer": "Sunny."})
    llm.call("weather", {"city": "Paris"}).call("finish", {"answer": "Rain in Paris."})
    result = agent.turn("Weather in Paris?")
    assert [s.kind for s in result.steps] == ["focus", "plan", "refused", "tool", "answer"]
    assert result.ok and result.answer == "Rain in Paris."
    refusal = llm.requests[2]["body"]["messages"][-1]
    assert refusal["role"] == "tool" and "refused" in refusal["content"]
    assert "weather" in refusal["content"]


def test_required_tools_given_by_the_caller_guard_a_plain_answer(agent, llm):  # type: ignore[no-untyped-def]
    llm.say("Sunny.").call("weather", {"city": "Rome"}).say("Rain in Rome.")
    result = agent.turn("Weather in Rome?", requires=["weather"])
    assert [s.kind for s in result.steps] == ["focus", "refused", "tool", "answer"]
    assert result.answer == "Rain in Rome."


def test_the_step_limit_ends_the_turn_with_a_message(agent, llm):  # type: ignore[no-untyped-def]
    llm.call("weather", {"city": "Oslo"}).call("weather", {"city": "Bergen"})
    result = agent.turn("Weather?", max_steps=2)
    assert (result.ok, result.source) == (False, "limit")
    assert result.answer.startswith("I stopped after 2 steps")
    assert result.evaluation.reward == -0.75 and "steps" in result.evaluation.lesson
    assert result.experience_id is not None and llm.overrun == 0


def test_a_repeated_question_is_answered_from_the_cache_until_a_memory_changes(agent, brain, llm):  # type: ignore[no-untyped-def]
    dog_id = dog(brain)
    llm.call("recall", {"query": "dog"}).say("Biscuit.")
    assert agent.turn(QUESTION).source == "llm"
    sent = len(llm.requests)
    hit = agent.turn("what is my dog called?")
    assert (hit.source, hit.answer, hit.ok) == ("cache", "Biscuit.", True)
    assert "semantic cache" in hit.note and len(llm.requests) == sent
    assert dog_id in hit.used and agent.cache.hits == 1
    brain.update(dog_id, content="My dog is called Rex", user="alice")
    llm.call("recall", {"query": "dog"}).say("Rex.")
    assert agent.turn(QUESTION).answer == "Rex."
    assert agent.cache.invalidated == 1
    hit = agent.turn(QUESTION)
    assert hit.source == "cache" and hit.answer == "Rex."
    brain.forget(dog_id, user="alice")
    llm.say("I do not know.")
    assert agent.turn(QUESTION).source == "llm" and agent.cache.invalidated == 2


def test_answers_that_ran_a_tool_with_side_effects_are_not_cached(agent, llm):  # type: ignore[no-untyped-def]
    llm.call("weather", {"city": "Oslo"}).say("Rain.").say("Rain again.")
    agent.turn("Weather in Oslo?")
    assert agent.turn("Weather in Oslo?").answer == "Rain again."
    assert agent.cache.hits == 0


def test_the_persona_learns_from_three_feedbacks(agent, brain, llm):  # type: ignore[no-untyped-def]
    brain.remember("I visited Kyoto in spring 2019", user="alice")
    llm.say("Nice.").say("Nice.").say("Nice.")
    assert agent.persona().proactive
    agent.turn("Any tips for Kyoto?")
    assert "## Relevant memories" in llm.system() and "Kyoto in spring" in llm.system()
    for _ in range(3):
        agent.persona_feedback(False)
    assert not agent.persona().proactive and agent.persona().votes == 3
    agent.turn("What should I see in Kyoto?")
    assert "## Relevant memories" not in llm.system()
    assert "Kyoto in spring" not in llm.system()
    agent.turn("谢谢提醒，继续提醒我")   # a reaction: yes, by half a vote
    assert agent.persona().yes == 2.5


def test_feedback_on_an_unprompted_memory_is_a_reaction(agent, brain, llm):  # type: ignore[no-untyped-def]
    kyoto = brain.remember("I visited Kyoto in spring 2019", user="alice").memory.id
    llm.say("Nice.")
    result = agent.turn("Any tips for Kyoto?")
    assert kyoto in result.used
    agent.feedback(kyoto, False)
    assert agent.persona().no == 1.5


def test_a_contradicting_tool_result_lowers_the_belief(agent, llm):  # type: ignore[no-untyped-def]
    agent.believe("weather.paris", "sunny", 0.8)
    agent.believe("weather.london", "fog", 0.6)
    llm.call("weather", {"city": "Paris"}).say("It rains in Paris.")
    result = agent.turn("Is it sunny in Paris?")
    assert result.beliefs == [{"key": "weather.paris", "belief": "sunny", "seen": "rain",
                               "contradicted": True, "confidence_before": 0.8,
                               "confidence": 0.4}]
    state = agent.introspect()
    by_key = {b.key: b for b in state.beliefs}
    assert by_key["weather.paris"].confidence == 0.4
    assert by_key["weather.paris"].contradictions == 1
    assert by_key["weather.london"].confidence == 0.6
    assert "weather" in state.tools and state.to_dict()["persona"]["proactive"]
    assert "weather.paris = sunny (confidence 0.40)" in state.lines()


def test_an_unreachable_endpoint_gives_a_clear_answer_and_no_feedback(brain):  # type: ignore[no-untyped-def]

    dog_id = dog(brain)
    a = Agent(brain, user="alice", endpoint=Endpoint("http://127.0.0.1:9/v1", "m", timeout=2))
    result = a.turn(QUESTION)
    assert (result.ok, result.source) == (False, "fallback")
    assert "could not be reached" in result.answer
    assert result.evaluation.reward == -0.5
    assert brain.get(dog_id, user="alice").version == 1   # the endpoint's failure: no verdict


def test_a_silent_endpoint_times_out(brain, llm):  # type: ignore[no-untyped-def]
    llm.slow(2.0, "too late")
    impatient = Agent(brain, user="alice", endpoint=Endpoint(llm.url, "planner-1", timeout=0.5))
    result = impatient.turn("我的狗叫什么？")
    assert result.source == "fallback" and "did not answer within 0.5s" in result.answer
    assert result.answer.startswith("抱歉")


def test_an_http_error_and_a_body_that_is_no_completion(agent, llm):  # type: ignore[no-untyped-def]
    llm.fail(503).raw(b"<html>busy</html>")
    assert "HTTP 503" in agent.turn("Hello?").error
    assert "no chat completion" in agent.turn("Hello again?").error


def test_an_agent_over_a_scoped_view_uses_its_scope(brain, llm):  # type: ignore[no-untyped-def]
    a = Agent(brain.scope(user="bob", agent="helper"))
    llm.call("remember", {"content": "Bob's favourite colour is teal"}).say("Noted.")
    assert a.turn("Remember that my favourite colour is teal").ok
    kept = brain.list(user="bob", agent="helper", kind="fact")
    assert [r.content for r in kept] == ["Bob's favourite colour is teal"]
    assert brain.count(user="alice") == 0


def test_a_session_keeps_the_conversation_and_a_goal_is_started(agent, brain, llm):  # type: ignore[no-untyped-def]
    llm.say("Hello Alice.")
    agent.turn("Hi, I am Alice", session="s1", goal="Plan the trip")
    wm = brain.session("s1", user="alice")
    assert [(t.role, t.content) for t in wm.turns()] == [("user", "Hi, I am Alice"),
                                                         ("assistant", "Hello Alice.")]
    assert brain.active_goal(user="alice").title == "Plan the trip"
    assert agent.introspect().goals[0].title == "Plan the trip"


def test_consolidation_turns_repeated_successes_into_a_procedure(agent, brain, llm):  # type: ignore[no-untyped-def]
    for city in ("Oslo", "Bergen", "Tromso"):
        llm.call("weather", {"city": city}).say(f"Rain in {city}.")
        result = agent.turn(f"What is the weather in {city} today?")
    assert result.consolidated["procedures"] == ["Answer with weather"]
    proc = brain.procedures(user="alice")[0]
    assert proc.steps == ["weather"] and "weather" in proc.triggers
    llm.call("weather", {"city": "Oslo"}).say("Rain.")
    assert agent.turn("What is the weather in Oslo today?").consolidated["outcomes"]
    assert agent.reflect().startswith("[agent reflection] 4 recent turn(s): 4 succeeded")


def test_traces_stay_out_of_the_agents_recall(agent, brain, llm):  # type: ignore[no-untyped-def]
    dog(brain)
    llm.call("recall", {"query": "dog"}).say("Biscuit.")
    agent.turn(QUESTION)
    llm.call("recall", {"query": "dog called"}).say("Biscuit.")
    result = agent.turn("Tell me again what my dog is called, please")
    recalled = result.steps[1].output
    assert "agent experience" not in recalled and "Biscuit" in recalled


def test_bad_arguments_are_invalid(agent, brain, monkeypatch):  # type: ignore[no-untyped-def]
    for bad in ("", "   ", None):
        with pytest.raises(engramdb.Invalid, match="message is empty"):
            agent.turn(bad)
    with pytest.raises(engramdb.Invalid, match="unknown tool"):
        agent.turn("hi", requires=["nope"])
    with pytest.raises(engramdb.Invalid, match="max_steps"):
        agent.turn("hi", max_steps=0)
    for name in ("OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with engramdb.open(":memory:", embedder="hashing") as bare:
        with pytest.raises(engramdb.ConfigError, match="chat endpoint"):
            Agent(bare)


def test_the_example_runs_against_an_endpoint_from_the_environment(llm, tmp_path):  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys
    from pathlib import Path

    llm.call("percent_of", {"percent": 17, "amount": 2340}).say("17% of 2,340 is 397.8.")
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")}
    env.update(OPENAI_BASE_URL=llm.url, OPENAI_MODEL="local-model", OPENAI_API_KEY="sk-x",
               PYTHONPATH=str(root / "src"))
    done = subprocess.run([sys.executable, str(root / "examples" / "agent.py"), "--db",
                           str(tmp_path / "ex.db"), "What is 17% of 2,340?"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "17% of 2,340 is 397.8."
    assert llm.requests[1]["body"]["messages"][-1]["content"] == "397.8"
    assert llm.requests[0]["body"]["model"] == "local-model"

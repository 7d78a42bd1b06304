"""The agent's drives, action priors, reflection notes and self model (issue 31), against a
scripted OpenAI-compatible server on loopback (tests/llm_double.py), real SQLite files and the
FrozenClock (a slow tool moves it)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Config, Invalid, Memory
from engramdb.agent import Agent
from engramdb.text.tokens import count_tokens
from llm_double import Script, serve


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    yield from serve(monkeypatch)


def config(llm: Script) -> Config:
    return Config(llm_url=llm.url, llm_model="planner-1", llm_api_key="sk-test",
                  llm_timeout=30, auto_sleep_importance=0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "m.db"


@pytest.fixture
def brain(path, clock, llm: Script) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    with engramdb.open(path, embedder="hashing", clock=clock, config=config(llm)) as m:
        yield m


def tooled(memory: Memory, clock, **kw) -> Agent:  # type: ignore[no-untyped-def]
    a = Agent(memory, user="alice", **kw)

    @a.tool
    def weather(city: str) -> dict[str, dict[str, str]]:
        """Today's weather in a city (it takes two seconds).

        city: the city's name
        """
        clock.advance(seconds=2)
        return {"weather": {city.lower(): "rain"}}

    @a.tool
    def divide(a: float, b: float) -> float:
        """Divide a by b."""
        return a / b

    @a.tool
    def search(q: str) -> list[str]:
        """Search the notes (finds nothing)."""
        return []

    return a


@pytest.fixture
def agent(brain: Memory, clock) -> Agent:  # type: ignore[no-untyped-def]
    return tooled(brain, clock)


def near(x: float) -> object:
    """Equal to x as stored (four decimals)."""
    return pytest.approx(x, abs=1e-4)


def beta_sd(a: int, b: int) -> float:
    return math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1))) / math.sqrt(1 / 12)


def test_a_tool_call_leaves_a_prior_a_note_and_drives(agent, brain, llm):  # type: ignore[no-untyped-def]
    llm.call("weather", {"city": "Paris"}).say("Rain in Paris.")
    result = agent.turn("Weather in Paris?")
    prior = agent.priors()["weather"]
    out = result.steps[1].output
    assert (prior.ok, prior.failed, prior.success) == (1, 0, near(2 / 3))
    assert prior.mean_seconds == 2.0   # the slow tool moved the clock by two seconds
    assert prior.tokens == count_tokens(out, brain.config.encoding) > 0
    tool_note, answer_note = agent.notes(5)
    assert (tool_note.action, tool_note.ok, tool_note.step) == ("weather", True, 2)
    assert tool_note.outcome.startswith("weather succeeded in 2.0 s (")
    assert tool_note.insight == "first call of weather: its predicted success is now 0.67"
    assert tool_note.uncertainty == near(beta_sd(2, 1)) and tool_note.question == "none"
    assert result.steps[1].data["note"]["outcome"] == tool_note.outcome
    assert (answer_note.action, answer_note.outcome) == ("answer", "answered after 2 action(s)")
    assert answer_note.insight.startswith("1 of 1 tool call(s) in this turn succeeded")
    assert answer_note.uncertainty == near(1 / 4)
    rec = brain.get(tool_note.id, user="alice")
    assert rec.uri.startswith("system://agent/note/") and rec.kind == "event"
    assert rec.content.startswith("[action note] Outcome: weather succeeded")
    # the second request already saw the record, the note and the drives
    second = llm.system(1)
    assert "- Tool record: weather: 1 of 1 call(s) succeeded, predicted success 0.67, about " \
           "2.0 s" in second
    assert "- After a recent action: [action note] Outcome: weather succeeded" in second
    assert "- My drives: coherence 1.00" in second
    described = {t["function"]["name"]: t["function"]["description"]
                 for t in llm.requests[1]["body"]["tools"]}
    assert described["weather"].endswith("[weather: 1 of 1 call(s) succeeded, predicted "
                                         f"success 0.67, about 2.0 s and {prior.tokens} tokens "
                                         "a call]")
    assert "[" not in described["divide"]   # never called: no record yet
    drives = brain.get("system://agent/drives", user="alice")
    assert drives.metadata["drives"] == agent.drives().to_dict()
    assert len(brain.history(drives.id, user="alice")) == 2   # one version per action
    shown = agent.introspect().to_dict()
    assert shown["priors"]["weather"]["calls"] == 1 and len(shown["notes"]) == 2
    assert set(shown["drives"]) == {"coherence", "competence", "curiosity", "signals"}


def test_drives_follow_beliefs_questions_and_outcomes(agent, llm):  # type: ignore[no-untyped-def]
    start = agent.drives()
    assert start.values() == {"coherence": 1.0, "competence": 0.5, "curiosity": 0.5}
    agent.believe("weather.paris", "sunny", 0.8)
    agent.ask("Will it rain tomorrow?")
    asked = agent.drives()
    assert asked.coherence == near(1 / 2)        # (1 + 0) / (1 + 0 + 0 + 1)
    assert asked.curiosity == near(1 - 0.8 / 2)  # U = 0.2, one open question
    llm.call("weather", {"city": "Paris"}).say("It rains in Paris.")
    result = agent.turn("Is it sunny in Paris?")
    met = agent.drives()
    assert met.coherence == near(1 / 3)          # a contradiction joins the question
    assert met.competence == near(3 / 4)         # two good actions
    tool_note = agent.notes(2)[0]
    # the tool's prior (one call) is less sure than the contradicted belief (0.4)
    assert tool_note.uncertainty == near(max(beta_sd(2, 1), 1 - 0.4))
    unsure = (1 - 0.4 + beta_sd(2, 1) + 1 / 4) / 3          # belief, tool note, answer note
    assert met.curiosity == near(1 - (1 - unsure) / 2)
    assert "contradicts my belief weather.paris = sunny (it says rain; confidence 0.80 -> " \
           "0.40)" in tool_note.insight
    assert tool_note.question == "Which is right for weather.paris: sunny or rain?"
    assert result.steps[1].data["note"]["question"] == tool_note.question
    llm.call("divide", {"a": 1, "b": 0}).say("Cannot.")
    agent.turn("Divide 1 by 0")
    assert agent.drives().competence == near(4 / 6)
    assert agent.drives().competence < met.competence
    line = agent.introspect().lines()
    assert "- My drives: coherence 0.33 (0 confirmation(s), 1 contradiction(s), 1 open " \
           "question(s)); competence 0.67 (3 of 4 recent action(s) succeeded); curiosity" in line
    agent.believe("weather.paris", "rain", 0.9)           # set anew: the conflict is resolved
    assert agent.drives().coherence == near(1 / 2)


def test_priors_learn_warn_and_persist(path, clock, llm):  # type: ignore[no-untyped-def]
    with engramdb.open(path, embedder="hashing", clock=clock, config=config(llm)) as m:
        agent = tooled(m, clock)
        for b in (0, 0):
            llm.call("divide", {"a": 1, "b": b}).say("Cannot.")
            agent.turn(f"Divide 1 by {b}")
        first, second = [n for n in agent.notes(10) if n.action == "divide"]
        assert first.insight == "first call of divide: its predicted success is now 0.33"
        assert second.insight == ("divide failed, as its record predicted (predicted success "
                                  "0.33 -> 0.25)")
        assert second.question == ("What must hold before divide is called again (it failed "
                                   "with ZeroDivisionError)?")
    with engramdb.open(path, embedder="hashing", clock=clock, config=config(llm)) as m:
        agent = tooled(m, clock)                          # a new process, the same file
        prior = agent.priors()["divide"]
        assert (prior.ok, prior.failed, prior.success, prior.low) == (0, 2, 0.25, True)
        llm.call("divide", {"a": 4, "b": 2}).say("2.")
        result = agent.turn("Divide 4 by 2")
        warning = ("you chose divide, whose predicted success is only 0.25 (0 of 2 call(s) "
                   "succeeded)")
        assert result.steps[1].data["caution"] == warning
        assert f"- Caution: {warning}" in llm.system(-1)
        note = agent.notes(2)[0]
        assert note.insight == ("divide worked although its record predicted failure "
                                "(predicted success 0.25 -> 0.40)")
        assert agent.priors()["divide"].success == near(2 / 5)
        assert "Caution" not in agent.introspect().lines()   # a caution lasts its turn


def test_chinese_turns_get_chinese_notes_and_state(agent, brain, llm):  # type: ignore[no-untyped-def]
    agent.set_mission("帮助用户安排旅行")
    agent.set_limits(["不能订票", "不替用户付款"])
    llm.call("weather", {"city": "上海"}).say("上海在下雨。")
    agent.turn("上海天气怎么样？")
    tool_note, answer_note = agent.notes(2)
    assert tool_note.outcome.startswith("weather 成功，用时 2.0 秒（输出")
    assert tool_note.insight == "第一次调用 weather：它的预计成功率现在是 0.67"
    assert tool_note.question == "无" and tool_note.lang == "zh"
    assert answer_note.outcome == "在 2 个动作之后给出了回答"
    assert brain.get(tool_note.id, user="alice").content.startswith("[动作反思] 结果：weather 成功")
    second = llm.system(1)
    for line in ("- 我的使命: 帮助用户安排旅行", "- 我的限制: 不能订票；不替用户付款",
                 "- 工具的过往表现: weather：1 次调用成功 1 次，预计成功率 0.67",
                 "- 我的驱动力: 一致性 1.00（0 次证实，0 次矛盾，0 个未解决的问题）",
                 "- 最近一个动作之后: [动作反思] 结果：weather 成功"):
        assert line in second, line
    drives = brain.get("system://agent/drives", user="alice")
    assert drives.content.startswith("[智能体驱动力] 一致性 1.00，胜任感")
    assert "胜任感 0.75（最近 2 个动作成功 2 个）" in agent.introspect().lines("zh")


def test_mission_and_limits_are_kept_and_shown(path, clock, llm):  # type: ignore[no-untyped-def]
    with engramdb.open(path, embedder="hashing", clock=clock, config=config(llm)) as m:
        m.remember("I am Noah, a travel assistant", kind="identity", user="alice")
        agent = tooled(m, clock)
        assert agent.set_mission("  Help Alice   plan trips ") == "Help Alice plan trips"
        assert agent.set_limits(["Cannot book tickets", "Never pay on her behalf",
                                 "Cannot book tickets"]) == ["Cannot book tickets",
                                                             "Never pay on her behalf"]
        agent.set_mission("Help Alice plan trips and keep her budget")
        rec = m.get("system://agent/self/mission", user="alice")
        assert rec.kind == "identity" and rec.version == 2
    with engramdb.open(path, embedder="hashing", clock=clock, config=config(llm)) as m:
        agent = tooled(m, clock)
        state = agent.introspect()
        assert state.mission == "Help Alice plan trips and keep her budget"
        assert state.limits == ["Cannot book tickets", "Never pay on her behalf"]
        assert state.identity == ["I am Noah, a travel assistant"]
        assert state.to_dict()["self"]["limits"] == state.limits
        llm.say("Sure.")
        agent.turn("Plan my weekend")
        system = llm.system(0)
        assert "- My mission: Help Alice plan trips and keep her budget" in system
        assert "- My limits: Cannot book tickets; Never pay on her behalf" in system
        assert agent.set_mission(None) is None and agent.set_limits([]) == []
        assert (agent.introspect().mission, agent.introspect().limits) == ("", [])
        assert "My mission" not in agent.introspect().lines()
        agent.set_mission("Help Alice again")           # set after a clear
        assert agent.introspect().mission == "Help Alice again"


def test_rationale_refusal_fallback_and_empty_results_are_noted(brain, clock, llm):  # type: ignore[no-untyped-def]
    agent = tooled(brain, clock, mode="json")
    llm.say('{"name": "search", "arguments": {"q": "passport"}, "rationale": "the notes may '
            'say where it is"}')
    llm.say('{"action": "answer", "text": "Not found."}')
    agent.turn("Where is my passport?")
    found = agent.notes(2)[0]
    assert found.outcome == "search succeeded in 0.0 s but returned nothing"
    assert found.insight.startswith("I chose it because: the notes may say where it is; ")
    assert found.question == "Where else could what search was asked for (q=passport) be found?"
    llm.say('{"action": "finish", "text": "Sunny."}')
    llm.say('{"action": "tool", "tool": "weather", "args": {"city": "Rome"}}')
    llm.say('{"action": "answer", "text": "Rain in Rome."}')
    agent.turn("Weather in Rome?", requires=["weather"])
    refused = [n for n in agent.notes(10) if n.action == "refused"][0]
    assert (refused.ok, refused.outcome) == (False, "finishing was refused: weather had not run")
    assert refused.question == "What will weather add to the answer?"
    assert refused.uncertainty == near(2 / 3)   # (1 bad + 1) / (1 action + 2)
    llm.say("not an action").say("still not")
    result = agent.turn("Do something")
    fell = agent.notes(1)[0]
    assert (fell.action, fell.ok) == ("fallback", False)
    assert fell.outcome.startswith("no action could be planned (no valid action after a retry")
    assert result.steps[-1].data["note"]["action"] == "fallback"


def test_the_agents_traces_stay_out_of_the_identity_section(agent, brain, llm):  # type: ignore[no-untyped-def]
    agent.set_mission("Help Alice plan trips")
    for city in ("Oslo", "Bergen"):
        llm.call("weather", {"city": city}).say(f"Rain in {city}.")
        agent.turn(f"Weather in {city}?")
    text = brain.context("Weather in Oslo?", 2000, user="alice").text
    identity = text.split("## Identity", 1)[1].split("\n## ", 1)[0]
    assert "Help Alice plan trips" in identity
    for trace in ("[agent experience]", "[action note]", "[agent tool record]", "[agent drives]"):
        assert trace not in identity, trace


def test_the_text_beside_a_native_tool_call_is_its_rationale(agent, llm):  # type: ignore[no-untyped-def]
    llm.replies.append({"message": {"role": "assistant", "content": "需要先查上海的天气",
                                    "tool_calls": [{"id": "c1", "type": "function", "function": {
                                        "name": "weather", "arguments": '{"city": "上海"}'}}]}})
    llm.say("在下雨。")
    result = agent.turn("上海会下雨吗？")
    assert result.steps[1].data["rationale"] == "需要先查上海的天气"
    insight = agent.notes(2)[0].insight
    assert insight.startswith("我选择它的理由：需要先查上海的天气；第一次调用 weather")


def test_bad_input_is_invalid(agent):  # type: ignore[no-untyped-def]
    for bad in (42, "", "   ", "x" * 2001, ["a"]):
        with pytest.raises(Invalid, match="mission"):
            agent.set_mission(bad)
    for bad, why in (("Cannot book", "list of texts"), (None, "list of texts"),
                     (7, "list of texts"), ([1], "each limit"), ([""], "each limit"),
                     (["ok", "  "], "each limit"), (["x"] * 21, "at most 20")):
        with pytest.raises(Invalid, match=why):
            agent.set_limits(bad)
    for bad in (0, 101, -1, "3", True, 2.0, None):
        with pytest.raises(Invalid, match="n must be an integer"):
            agent.notes(bad)
    assert agent.introspect().mission == "" and agent.introspect().limits == []


def test_the_migrating_section_runs_as_written(tmp_path, clock, monkeypatch):  # type: ignore[no-untyped-def]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "migrating.md").read_text("utf-8")
    start = doc.index("## From the cognitive-agent package: drives, priors and reflection")
    section = doc[start:doc.index("\n## ", start + 1)]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    with engramdb.open(tmp_path / "doc.db", embedder="hashing", clock=clock) as mem:
        names: dict[str, Any] = {"mem": mem}
        exec(compile(block, "docs/migrating.md", "exec"), names)
        state = names["state"]
        assert state.mission == "Help Alice keep track of her documents"
        assert state.limits == ["Never read out document numbers", "不替用户付款"]
        assert names["agent"].drives().competence == near(3 / 4)
        assert names["agent"].priors()["recall"].success == near(2 / 3)
        assert names["agent"].notes(1)[0].outcome == "answered after 2 action(s)"
        assert "- 我的驱动力: 一致性 1.00" in state.lines("zh")

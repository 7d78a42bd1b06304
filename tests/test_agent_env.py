"""The agent's endpoint from the environment names of the cognitive-agent package (issue 31):
OPENAI_COMPATIBLE_* and OPENAI_* (URL, model, key, temperature, max tokens, timeout, proxy),
their precedence under the Config (an argument, then ENGRAMDB_LLM_*), bad values named; and
the planner's own action shape {"name", "arguments", "rationale"} accepted as an alias. Against
the OpenAI-compatible double on loopback (tests/openai_double.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Config, ConfigError
from engramdb.agent import Agent, Endpoint, ToolRegistry
from engramdb.agent.planner import parse
from engramdb.cli import app
from openai_double import openai_double

NAMES = [f"{p}{n}" for p in ("OPENAI_COMPATIBLE_", "OPENAI_", "ENGRAMDB_LLM_")
         for n in ("BASE_URL", "MODEL", "API_KEY", "TEMPERATURE", "MAX_TOKENS", "TIMEOUT",
                   "USE_ENV_PROXY", "URL")]
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*NAMES, *PROXIES, "ENGRAMDB_CONFIG", "ENGRAMDB_URL", "ENGRAMDB_EMBEDDER"):
        monkeypatch.delenv(name, raising=False)


def setenv(monkeypatch: pytest.MonkeyPatch, **values: str) -> None:
    for name, value in values.items():
        monkeypatch.setenv(name, value)


# ---------------------------------------------------------------- precedence


def test_each_setting_comes_from_the_first_source_that_sets_it(monkeypatch):  # type: ignore[no-untyped-def]
    setenv(monkeypatch, OPENAI_BASE_URL="http://openai/v1", OPENAI_MODEL="gpt",
           OPENAI_API_KEY="sk-openai", OPENAI_TEMPERATURE="0.9", OPENAI_TIMEOUT="12",
           OPENAI_MAX_TOKENS="64", OPENAI_COMPATIBLE_BASE_URL="http://compat/v1",
           OPENAI_COMPATIBLE_MODEL="qwen", OPENAI_COMPATIBLE_API_KEY="sk-compat",
           OPENAI_COMPATIBLE_TEMPERATURE="0.3")
    ep = Endpoint.resolve(Config.load())
    assert (ep.base_url, ep.model, ep.api_key) == ("http://compat/v1", "qwen", "sk-compat")
    assert (ep.temperature, ep.timeout, ep.max_tokens, ep.use_env_proxy) == (0.3, 12.0, 64, True)

    setenv(monkeypatch, ENGRAMDB_LLM_URL="http://engramdb/v1", ENGRAMDB_LLM_MODEL="local",
           ENGRAMDB_LLM_TEMPERATURE="0.1", ENGRAMDB_LLM_USE_ENV_PROXY="no")
    ep = Endpoint.resolve(Config.load())
    # the key goes with its own URL only: no OPENAI_* key is sent to the ENGRAMDB_LLM_URL
    assert (ep.base_url, ep.model, ep.api_key) == ("http://engramdb/v1", "local", "")
    assert (ep.temperature, ep.timeout, ep.max_tokens, ep.use_env_proxy) == (0.1, 12.0, 64,
                                                                              False)
    ep = Endpoint.resolve(Config.load(llm_url="http://arg/v1", llm_model="m",
                                      llm_temperature=0.7, llm_max_tokens=32))
    assert (ep.base_url, ep.temperature, ep.max_tokens) == ("http://arg/v1", 0.7, 32)
    # the memory's own LLM features read the Config alone: the OPENAI_* names do not reach them
    assert Endpoint.of(Config.load()) == Endpoint("http://engramdb/v1", "local", "", 30.0, 0.1,
                                                  None, False)


def test_a_group_half_set_is_named(monkeypatch):  # type: ignore[no-untyped-def]
    setenv(monkeypatch, OPENAI_COMPATIBLE_BASE_URL="http://compat/v1",
           OPENAI_BASE_URL="http://openai/v1", OPENAI_MODEL="gpt")
    with pytest.raises(ConfigError, match="OPENAI_COMPATIBLE_BASE_URL is set but "
                                          "OPENAI_COMPATIBLE_MODEL is not"):
        Endpoint.resolve(Config.load())


@pytest.mark.parametrize(("name", "value", "rule"), [
    ("OPENAI_TEMPERATURE", "warm", "a number from 0 to 2"),
    ("OPENAI_COMPATIBLE_TEMPERATURE", "3", "a number from 0 to 2"),
    ("OPENAI_MAX_TOKENS", "-5", "a whole number of at least 1"),
    ("OPENAI_COMPATIBLE_MAX_TOKENS", "2.5", "a whole number of at least 1"),
    ("OPENAI_TIMEOUT", "0", "a number of seconds above 0"),
    ("OPENAI_USE_ENV_PROXY", "maybe", "yes or no"),
    ("ENGRAMDB_LLM_TEMPERATURE", "hot", "a number"),
    ("ENGRAMDB_LLM_MAX_TOKENS", "-5", "a whole number of at least 1"),
])
def test_a_bad_value_is_refused_naming_its_variable(monkeypatch, name, value, rule):  # type: ignore[no-untyped-def]
    setenv(monkeypatch, OPENAI_BASE_URL="http://openai/v1", OPENAI_MODEL="gpt", **{name: value})
    with pytest.raises(ConfigError) as err:
        Endpoint.resolve(Config.load())
    assert name in str(err.value) and rule in str(err.value) and repr(value) in str(err.value)


def test_the_config_checks_and_types_the_tuning_it_is_given():  # type: ignore[no-untyped-def]
    cfg = Config(llm_use_env_proxy="no", llm_timeout=5, llm_max_tokens=256)   # type: ignore[arg-type]
    assert (cfg.llm_use_env_proxy, cfg.llm_timeout, cfg.llm_max_tokens) == (False, 5.0, 256)
    for bad in ({"llm_temperature": 2.5}, {"llm_max_tokens": 0}, {"llm_timeout": -1},
                {"llm_temperature": True}, {"llm_max_tokens": 1.5}):
        name = next(iter(bad))
        with pytest.raises(ConfigError, match=f"^{name} must be"):
            Config(**bad)


# ---------------------------------------------------------------- on the wire


def test_ask_runs_on_the_openai_compatible_names_alone(tmp_path: Path):  # type: ignore[no-untyped-def]
    with openai_double() as (url, seen):
        env = {"OPENAI_COMPATIBLE_BASE_URL": url, "OPENAI_COMPATIBLE_MODEL": "qwen2.5",
               "OPENAI_COMPATIBLE_API_KEY": "sk-compat", "OPENAI_COMPATIBLE_TEMPERATURE": "0.2",
               "OPENAI_MAX_TOKENS": "128", "OPENAI_API_KEY": "sk-not-for-this-server",
               "ENGRAMDB_EMBEDDER": "hashing", "ENGRAMDB_AUTO_SLEEP_IMPORTANCE": "0"}
        got = CliRunner().invoke(app, ["--db", str(tmp_path / "m.db"), "--create", "ask",
                                       "What is my dog called?"], env=env)
        assert got.exit_code == 0, (got.stdout, got.stderr)
        assert got.stdout == "You said: What is my dog called?\n"
        body = seen[0]["body"]
        assert seen[0]["path"] == "/v1/chat/completions" and seen[0]["auth"] == "Bearer sk-compat"
        assert (body["model"], body["temperature"], body["max_tokens"]) == ("qwen2.5", 0.2, 128)

        env["OPENAI_COMPATIBLE_TEMPERATURE"] = "hot"
        got = CliRunner().invoke(app, ["--db", str(tmp_path / "m.db"), "ask", "hi"], env=env)
        assert got.exit_code == 6 and "Traceback" not in got.output
        assert got.stderr.startswith("error: OPENAI_COMPATIBLE_TEMPERATURE must be a number")


def test_use_env_proxy_off_bypasses_a_proxy_from_the_environment(monkeypatch):  # type: ignore[no-untyped-def]
    with openai_double() as (url, seen):
        setenv(monkeypatch, OPENAI_BASE_URL=url, OPENAI_MODEL="m",
               HTTP_PROXY="http://127.0.0.1:9")   # nothing listens there
        said = [{"role": "user", "content": "hi"}]
        with pytest.raises(engramdb.EngramError, match="could not be reached"):
            Endpoint.resolve(Config.load()).complete(said)
        monkeypatch.setenv("OPENAI_USE_ENV_PROXY", "false")
        assert Endpoint.resolve(Config.load()).complete(said) == "You said: hi"
        assert len(seen) == 1


def test_a_max_tokens_setting_caps_a_callers_own():  # type: ignore[no-untyped-def]
    with openai_double() as (url, seen):
        said = [{"role": "user", "content": "hi"}]
        Endpoint(url, "m", max_tokens=50).complete(said, max_tokens=400)
        Endpoint(url, "m", max_tokens=50).complete(said, max_tokens=20)
        Endpoint(url, "m").complete(said)
    assert [s["body"].get("max_tokens") for s in seen] == [50, 20, None]


# ---------------------------------------------------------------- the action alias


def alias_planner(body: dict[str, Any]) -> str:
    """Answers in the cognitive-agent planner's shape: a recall, then finish with its result."""
    results = [m for m in body["messages"] if m["role"] == "tool"
               or str(m.get("content") or "").startswith("Result of recall")]
    if not results:
        return json.dumps({"name": "recall", "arguments": json.dumps({"query": "dog"}),
                           "rationale": "the answer is in long-term memory"})
    found = json.loads(str(results[-1]["content"]).removeprefix("Result of recall: "))
    return json.dumps({"name": "finish", "arguments": {"answer": found[0]["content"]},
                       "rationale": "recall found it"}, ensure_ascii=False)


@pytest.mark.parametrize("mode", ["json", "native"])
def test_the_name_arguments_rationale_shape_is_a_tool_action(tmp_path, mode):  # type: ignore[no-untyped-def]
    with openai_double(alias_planner) as (url, seen), engramdb.open(
            tmp_path / "m.db", embedder="hashing",
            config=Config(llm_url=url, llm_model="m", auto_sleep_importance=0)) as mem:
        mem.remember("我的狗叫饼干, my dog is called Biscuit", user="alice")
        result = Agent(mem, user="alice", mode=mode).turn("What is my dog called?")
    assert result.ok and result.answer == "我的狗叫饼干, my dog is called Biscuit"
    tool, done = result.steps[1], result.steps[2]
    assert (tool.kind, tool.tool, tool.args) == ("tool", "recall", {"query": "dog"})
    assert tool.data["rationale"] == "the answer is in long-term memory"
    assert tool.brief()["rationale"] == "the answer is in long-term memory"
    assert done.kind == "answer" and done.data["rationale"] == "recall found it"
    assert len(seen) == 2


def test_the_alias_is_validated_like_any_action():  # type: ignore[no-untyped-def]
    from engramdb.agent.builtins import install

    tools = ToolRegistry()
    with engramdb.open(":memory:", embedder="hashing") as mem:
        install(tools, mem, mem._scope(None, None), dict)
        said = {"content": '{"name": "recall", "arguments": {"query": "猫"}, "rationale": "找"}'}
        action = parse(said, tools, native=False)
        assert (action.tool, action.args["query"], action.rationale) == ("recall", "猫", "找")
        assert action.to_dict()["rationale"] == "找"
        for bad, why in (('{"name": "teleport", "arguments": {}}', "teleport"),
                         ('{"name": "recall", "arguments": "{oops"}', "not JSON"),
                         ('{"name": "recall", "arguments": {"k": 2}}', "query")):
            with pytest.raises(engramdb.Invalid, match=why):
                parse({"content": bad}, tools, native=False)

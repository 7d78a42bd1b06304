"""The agent's parts on their own: tool schemas and validation, recall feedback (moving the
FrozenClock), the semantic cache, persona cues, beliefs and the endpoint settings."""

from __future__ import annotations

import pytest

import engramdb
from engramdb import Config, ConfigError, Conflict, Invalid, NotFound
from engramdb.agent import Endpoint, SemanticCache, ToolRegistry, schema_of
from engramdb.agent.persona import reaction
from engramdb.agent.planner import parse
from engramdb.agent.state import flatten
from engramdb.agent.texts import lang_of
from engramdb.model import Scope


def convert(amount: float, to: str, exact: bool = False, tags: list[str] | None = None) -> str:
    """Convert an amount of euros.

    Args:
        amount: how many euros
        to (str): the currency code, e.g. NOK
    """
    return f"{amount} {to}"


def test_a_schema_comes_from_the_signature_and_the_docstring():  # type: ignore[no-untyped-def]
    description, schema = schema_of(convert)
    assert description == "Convert an amount of euros."
    assert schema == {"type": "object", "additionalProperties": False,
                      "required": ["amount", "to"], "properties": {
                          "amount": {"type": "number", "description": "how many euros"},
                          "to": {"type": "string", "description": "the currency code, e.g. NOK"},
                          "exact": {"type": "boolean"}, "tags": {"type": "array"}}}


def test_the_registry_validates_and_runs_and_never_raises_from_a_call():  # type: ignore[no-untyped-def]
    reg = ToolRegistry()
    reg.register(convert)
    reg.register(lambda: 1 / 0, name="boom")
    assert reg.call("convert", {"amount": 2, "to": "NOK"}).text == "2 NOK"
    for args, why in (({"to": "NOK"}, "missing argument(s): amount"),
                      ({"amount": 1, "to": "NOK", "x": 1}, "unknown argument(s): x"),
                      ({"amount": "1", "to": "NOK"}, "argument amount must be number"),
                      ({"amount": True, "to": "NOK"}, "argument amount must be number"),
                      ([1], "arguments must be a JSON object")):
        out = reg.call("convert", args)  # type: ignore[arg-type]
        assert not out.ok and why in out.error
    boom = reg.call("boom", {})
    assert not boom.ok and boom.error.startswith("ZeroDivisionError")
    assert "unknown tool 'nope'" in reg.call("nope", {}).error
    with pytest.raises(Conflict):
        reg.register(convert)
    with pytest.raises(Invalid, match="tool name"):
        reg.register(convert, name="has space")
    with pytest.raises(Invalid, match="callable"):
        reg.register(42)  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        reg.get("nope")


def test_a_given_schema_replaces_the_derived_one():  # type: ignore[no-untyped-def]
    reg = ToolRegistry()
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    reg.register(lambda **kw: kw["q"].upper(), name="shout", description="Shout.",
                 parameters=schema)
    assert reg.openai_tools()[0]["function"] == {"name": "shout", "description": "Shout.",
                                                 "parameters": schema}
    assert reg.call("shout", {"q": "hi"}).text == "HI"
    with pytest.raises(Invalid, match="type object"):
        reg.register(convert, name="c2", parameters={"type": "string"})


def test_replies_are_parsed_into_actions_or_refused():  # type: ignore[no-untyped-def]
    reg = ToolRegistry()
    reg.register(convert)
    call = {"tool_calls": [{"id": "c1", "function": {"name": "convert",
                                                     "arguments": '{"amount": 1, "to": "SEK"}'}}]}
    act = parse(call, reg, native=True)
    assert (act.kind, act.tool, act.args, act.call_id) == ("tool", "convert",
                                                           {"amount": 1, "to": "SEK"}, "c1")
    assert parse({"content": "Hello"}, reg, native=True).text == "Hello"
    fin = parse({"content": '{"action": "finish", "text": "好的"}'}, reg, native=False)
    assert (fin.tool, fin.args) == ("finish", {"answer": "好的"})
    for reply, why in (({"content": ""}, "neither a tool call nor any text"),
                       ({"content": "plain"}, "not a JSON object"),
                       ({"content": '{"action": "dance"}'}, "must be tool, answer or finish"),
                       ({"content": '{"action": "answer", "text": ""}'}, "non-empty text")):
        with pytest.raises(Invalid, match=why):
            parse(reply, reg, native=False)


def twins(mem):  # type: ignore[no-untyped-def]
    return [mem.remember(f"Project {name} uses PostgreSQL 16", importance=0.5,
                         user="u").memory.id
            for name in ("alpha", "beta", "gamma")]


def test_useful_feedback_strengthens_and_useless_weakens(mem, clock):  # type: ignore[no-untyped-def]
    useful, plain, useless = twins(mem)
    clock.advance(days=60)
    before = {i: mem.explain(i, user="u").weight for i in (useful, plain, useless)}
    assert before[useful] == before[plain] == before[useless]
    up = mem.feedback(useful, True, user="u")
    down = mem.scope(user="u").feedback(useless, False)
    assert (up.importance_before, up.importance, up.uses) == (0.5, 0.55, 1)
    assert (down.importance, down.uses, down.version) == (0.4, 0, 2)
    for days in (0, 30, 90):
        clock.advance(days=days)
        w = {i: mem.explain(i, user="u").weight for i in (useful, plain, useless)}
        assert w[useful] > w[plain] > w[useless]
    assert mem.history(useless, user="u")[-1].op == "feedback"


def test_feedback_bounds_and_bad_input(mem):  # type: ignore[no-untyped-def]
    a, b, _ = twins(mem)
    for _ in range(8):
        mem.feedback(a, False, user="u")
    assert mem.get(a, user="u").importance == 0.05
    with pytest.raises(Invalid, match="true or false"):
        mem.feedback(a, "yes", user="u")  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        mem.feedback("nope", True, user="u")
    mem.forget(b, user="u")
    with pytest.raises(Conflict, match="forgotten"):
        mem.feedback(b, True, user="u")
    assert mem.get(b, user="u").version == 2   # nothing written by the refused verdict


def test_the_cache_matches_by_meaning_and_checks_versions(mem, clock):  # type: ignore[no-untyped-def]
    rec = mem.remember("The office wifi password is tulip42", user="u").memory
    scope = Scope("u", "default")
    cache = SemanticCache(mem._embed_query, threshold=0.5)  # hashing vectors: a lower gate
    assert cache.lookup(mem.store, scope, "What is the wifi password?") is None
    cache.put(scope, "What is the wifi password?", "tulip42", {rec.id: rec.version},
              clock.now())
    hit = cache.lookup(mem.store, scope, "what is the WiFi password")
    assert hit is not None and hit.answer == "tulip42" and hit.similarity >= 0.5
    hit = cache.lookup(mem.store, scope, "Please tell me again: what is the wifi password?")
    assert hit is not None and hit.answer == "tulip42"
    assert cache.lookup(mem.store, scope, "What was the wifi password?") is None
    assert cache.lookup(mem.store, scope, "Who won the match yesterday?") is None
    assert cache.lookup(mem.store, Scope("v", "default"), "What is the wifi password?") is None
    assert cache.stats() == {"hits": 2, "misses": 4, "invalidated": 0, "size": 1,
                             "threshold": 0.5}
    assert cache.invalidate(scope, rec.id) == 1 and cache.size(scope) == 0
    cache.put(scope, "What is the wifi password?", "tulip42", {rec.id: rec.version},
              clock.now())
    clock.advance(hours=23)
    assert cache.lookup(mem.store, scope, "What is the wifi password?", clock.now())
    clock.advance(hours=2)
    assert cache.lookup(mem.store, scope, "What is the wifi password?", clock.now()) is None
    assert cache.size(scope) == 0


def test_the_same_ask_allows_only_politeness_fillers():  # type: ignore[no-untyped-def]
    from engramdb.agent.cache import same_ask

    assert same_ask("What is my dog called?", "Tell me again what my dog is called, please")
    assert same_ask("我住在哪里？", "请告诉我我住在哪里")
    for other in ("What was my dog called?", "What is your dog called?",
                  "What is my cat called?"):
        assert not same_ask("What is my dog called?", other)
    assert not same_ask("我住在哪里？", "我以前住在哪里？")


def test_persona_cues_in_both_languages():  # type: ignore[no-untyped-def]
    assert reaction("Please don't bring up my old trips") is False
    assert reaction("别再提那件事了") is False
    assert reaction("Thanks for reminding me!") is True
    assert reaction("谢谢提醒") is True
    assert reaction("What time is it?") is None
    assert (lang_of("你好"), lang_of("hello")) == ("zh", "en")


def test_tool_outputs_are_flattened_for_beliefs():  # type: ignore[no-untyped-def]
    assert flatten({"weather": {"Paris": " Rain "}, "n": 3}) == {"weather.Paris": "rain",
                                                                   "n": "3"}
    assert flatten("text") == {} and flatten([1, 2]) == {}


def test_the_endpoint_comes_from_config_then_environment(monkeypatch):  # type: ignore[no-untyped-def]
    cfg = Config(llm_url="http://h/v1", llm_model="m", llm_api_key="k", llm_timeout=3.0)
    assert Endpoint.resolve(cfg) == Endpoint("http://h/v1", "m", "k", 3.0)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://e/v1")
    monkeypatch.setenv("OPENAI_MODEL", "qwen")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-e")
    assert Endpoint.resolve(Config()) == Endpoint("http://e/v1", "qwen", "sk-e", 30.0)
    monkeypatch.delenv("OPENAI_MODEL")
    with pytest.raises(ConfigError, match="OPENAI_MODEL"):
        Endpoint.resolve(Config())
    with pytest.raises(Invalid, match="planner mode"):
        from engramdb.agent import Planner

        Planner(Endpoint("http://h/v1", "m"), mode="telepathy")


def test_the_agent_is_not_in_the_top_level_surface():  # type: ignore[no-untyped-def]
    from engramdb.agent import Agent

    assert "Agent" not in engramdb.__all__ and Agent.__module__ == "engramdb.agent.loop"

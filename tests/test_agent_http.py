"""POST /v1/agent/turn and POST /v1/memories/{id}/feedback over a real uvicorn server, the
agent planning against the scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import engramdb
from engramdb import Config, Memory
from engramdb.agent.persona import load as load_persona
from engramdb.model import Scope
from engramdb.testing import FrozenClock
from live_server import auth, new_key, thread_server
from llm_double import Script, serve

QUESTION = "What is my dog called?"


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    for name in ("OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    yield from serve(monkeypatch)


def open_brain(path: Path, clock: FrozenClock, llm_url: str = "") -> Memory:
    config = Config(llm_url=llm_url, llm_model="planner-1" if llm_url else "",
                    llm_api_key="sk-test", llm_timeout=30, auto_sleep_importance=0)
    return engramdb.open(path, embedder="hashing", clock=clock, config=config)


@pytest.fixture
def brain(tmp_path: Path, clock: FrozenClock, llm: Script) -> Iterator[Memory]:
    with open_brain(tmp_path / "m.db", clock, llm.url) as m:
        yield m


@pytest.fixture
def keys(brain: Memory) -> dict[str, str]:
    return {"write": new_key(brain, "write"), "read": new_key(brain, "read"),
            "bob": new_key(brain, "write", user="bob")}


@pytest.fixture
def api(brain: Memory, keys: dict[str, str]) -> Iterator[httpx.Client]:
    with thread_server(brain) as base, httpx.Client(
            base_url=base, headers=auth(keys["write"]), timeout=30) as client:
        yield client


def error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    return str(body["error"]["message"])


def dog(api: httpx.Client) -> str:
    r = api.post("/v1/memories", json={"content": "My dog is called Biscuit"})
    assert r.status_code == 200, r.text
    return str(r.json()["memory"]["id"])


def test_a_turn_answers_and_its_agent_keeps_its_cache(api, llm) -> None:  # type: ignore[no-untyped-def]
    dog_id = dog(api)
    llm.call("recall", {"query": "dog"}).say("Your dog is called Biscuit.")
    r = api.post("/v1/agent/turn", json={"message": QUESTION, "session": "s1",
                                         "requires": ["recall"], "max_steps": 4})
    assert r.status_code == 200, r.text
    turn = r.json()
    assert (turn["ok"], turn["source"], turn["answer"]) == (True, "llm",
                                                           "Your dog is called Biscuit.")
    assert [s["tool"] for s in turn["steps"] if s["kind"] == "tool"] == ["recall"]
    assert dog_id in turn["used"] and turn["experience_id"]
    sent = len(llm.requests)
    again = api.post("/v1/agent/turn", json={"message": "what is my dog called?"}).json()
    assert (again["source"], again["answer"]) == ("cache", "Your dog is called Biscuit.")
    assert len(llm.requests) == sent and llm.overrun == 0
    session = api.get("/v1/sessions/s1").json()
    assert QUESTION in str(session) and "Your dog is called Biscuit." in str(session)


def test_scopes_have_their_own_agents(api, keys, llm) -> None:  # type: ignore[no-untyped-def]
    dog(api)
    llm.call("recall", {"query": "dog"}).say("Biscuit.").say("我不知道。")
    assert api.post("/v1/agent/turn", json={"message": QUESTION}).json()["answer"] == "Biscuit."
    bob = api.post("/v1/agent/turn", json={"message": QUESTION},
                   headers=auth(keys["bob"])).json()
    assert bob["source"] == "llm" and bob["answer"] == "我不知道。"   # not alice's cache
    assert "Biscuit" not in str(llm.requests[-1]["body"]["messages"])


def test_a_failed_turn_is_200_with_ok_false(api, llm) -> None:  # type: ignore[no-untyped-def]
    llm.call("recall", {"query": "a"}).call("recall", {"query": "b"})
    turn = api.post("/v1/agent/turn", json={"message": "Keep looking", "max_steps": 2}).json()
    assert (turn["ok"], turn["source"]) == (False, "limit") and turn["error"]


def test_turn_refuses_bad_input(api, keys, llm) -> None:  # type: ignore[no-untyped-def]
    assert "message is empty" in error(api.post("/v1/agent/turn", json={"message": "  "}),
                                       422, "invalid")
    assert "max_steps" in error(api.post("/v1/agent/turn", json={"message": "hi",
                                                                   "max_steps": 0}),
                                422, "invalid")
    assert "nosuch" in error(api.post("/v1/agent/turn", json={"message": "hi",
                                                              "requires": ["nosuch"]}),
                             422, "invalid")
    error(api.post("/v1/agent/turn", json={"message": "hi", "colour": "red"}), 422, "invalid")
    error(api.post("/v1/agent/turn", json={"message": 3}), 422, "invalid")
    error(api.post("/v1/agent/turn", json={}), 422, "invalid")
    error(api.post("/v1/agent/turn", content=b"{not json",
                   headers={"Content-Type": "application/json"}), 400, "malformed_json")
    error(api.post("/v1/agent/turn", json={"message": "hi"}, headers=auth(keys["read"])),
          403, "forbidden")
    error(api.post("/v1/agent/turn", json={"message": "hi"}, headers={"Authorization": ""}),
          401, "unauthorized")
    assert llm.requests == []


def test_without_an_endpoint_a_turn_is_a_clear_503(tmp_path, clock, llm) -> None:  # type: ignore[no-untyped-def]
    with open_brain(tmp_path / "bare.db", clock) as bare, thread_server(bare) as base:
        key = new_key(bare, "write")
        r = httpx.post(base + "/v1/agent/turn", json={"message": "hi"}, headers=auth(key))
        assert "the agent needs a chat endpoint" in error(r, 503, "config_error")
        mid = bare.remember("我住在柏林", user="alice", agent="noah").memory.id
        r = httpx.post(f"{base}/v1/memories/{mid}/feedback", json={"useful": True},
                       headers=auth(key))
        assert r.status_code == 200, r.text   # feedback needs no endpoint
    assert llm.requests == []


# ---------------------------------------------------------------- feedback


def test_feedback_strengthens_weakens_and_refuses(api, keys) -> None:  # type: ignore[no-untyped-def]
    mid = dog(api)
    up = api.post(f"/v1/memories/{mid}/feedback", json={"useful": True}).json()
    assert up["id"] == mid and up["importance"] > up["importance_before"]
    down = api.post(f"/v1/memories/{mid}/feedback", json={"useful": False}).json()
    assert down["importance"] < down["importance_before"]
    error(api.post("/v1/memories/nosuch/feedback", json={"useful": True}), 404, "not_found")
    error(api.post(f"/v1/memories/{mid}/feedback", json={"useful": True},
                   headers=auth(keys["bob"])), 404, "not_found")   # another scope's memory
    error(api.post(f"/v1/memories/{mid}/feedback", json={"useful": "yes"}), 422, "invalid")
    error(api.post(f"/v1/memories/{mid}/feedback", json={}), 422, "invalid")
    error(api.post(f"/v1/memories/{mid}/feedback", content=b"[",
                   headers={"Content-Type": "application/json"}), 400, "malformed_json")
    error(api.post(f"/v1/memories/{mid}/feedback", json={"useful": True},
                   headers=auth(keys["read"])), 403, "forbidden")
    assert api.get(f"/v1/memories/{mid}").json()["version"] == 3   # two verdicts, no more


def test_feedback_after_a_turn_reaches_the_scope_agent(api, brain, llm) -> None:  # type: ignore[no-untyped-def]
    kyoto = api.post("/v1/memories", json={"content": "I visited Kyoto in spring 2019"}).json()
    llm.say("Nice.")
    turn = api.post("/v1/agent/turn", json={"message": "Any tips for Kyoto?"}).json()
    assert kyoto["memory"]["id"] in turn["used"]
    before = load_persona(brain, Scope("alice", "noah")).to_dict()
    for _ in range(3):
        r = api.post(f"/v1/memories/{kyoto['memory']['id']}/feedback", json={"useful": False})
        assert r.status_code == 200, r.text
    after = load_persona(brain, Scope("alice", "noah")).to_dict()
    assert after["votes"] == before["votes"] + 3 and after["no"] > before["no"]
    assert after["yes"] == before["yes"]   # reactions to what the agent brought up unasked

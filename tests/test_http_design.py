"""The library's newer verbs through the real HTTP server (uvicorn on a loopback port):
valence and intensity, the design's kind names, every sleep phase and a full sleep, reflect,
the review schedule, the profile's check, and boot's `due` and `warnings`. Bad input is a 4xx
with the one error shape, and writes nothing."""

from __future__ import annotations

import httpx
import pytest

import engramdb
from engramdb.dynamics.sleep import PHASES
from live_server import auth, new_key, thread_server
from test_http import error


@pytest.fixture
def served(mem):  # type: ignore[no-untyped-def]
    keys = {"write": new_key(mem, "write"), "read": new_key(mem, "read")}
    with thread_server(mem) as base:
        with httpx.Client(base_url=base, headers=auth(keys["write"]), timeout=30) as api, \
                httpx.Client(base_url=base, headers=auth(keys["read"]), timeout=30) as reader:
            yield api, reader


def remember(api, content, **fields):  # type: ignore[no-untyped-def]
    r = api.post("/v1/memories", json={"content": content, **fields})
    assert r.status_code == 200, r.text
    return r.json()["memory"]


def total(api) -> int:  # type: ignore[no-untyped-def]
    return int(api.get("/v1/stats").json()["total"])


def test_valence_intensity_and_the_design_kind_names(served):  # type: ignore[no-untyped-def]
    api, _ = served
    felt = remember(api, "We lost the Lisbon contract today", valence=-0.8, intensity=0.9)
    assert (felt["valence"], felt["intensity"]) == (-0.8, 0.9)
    read = remember(api, "我今天非常开心")           # none given: read from the content
    assert read["valence"] > 0 and read["intensity"] > 0
    kinds = {name: remember(api, f"An example of {name} number {i}", kind=name)["kind"]
             for i, name in enumerate(("knowledge", "idea", "story", "interaction", "emotion"))}
    assert kinds == {"knowledge": "fact", "idea": "fact", "story": "event",
                     "interaction": "event", "emotion": "emotion"}
    batch = api.post("/v1/memories/batch", json={"items": [
        {"content": "Ana got the job in Porto", "kind": "story", "valence": 0.7,
         "intensity": 0.4}]})
    assert batch.status_code == 200, batch.text
    assert batch.json()["results"][0]["memory"]["intensity"] == 0.4
    listed = api.get("/v1/memories", params={"kind": "knowledge"}).json()["items"]
    assert {m["kind"] for m in listed} == {"fact"} and len(listed) == 4  # 2 default to fact

    before = total(api)
    for field, value in (("valence", 2), ("intensity", -0.1), ("valence", "sad"),
                         ("kind", "gossip")):
        r = api.post("/v1/memories", json={"content": "x y z", field: value})
        assert field in error(r, 422, "invalid")
    r = api.post("/v1/memories/batch", json={"items": [
        {"content": "fine one here"}, {"content": "bad one here", "intensity": 3}]})
    error(r, 422, "invalid")
    assert total(api) == before


def test_every_phase_a_full_sleep_and_reflect(served):  # type: ignore[no-untyped-def]
    api, reader = served
    remember(api, "Lesson: run the migrations before the deploy", kind="lesson")
    for phase in PHASES:
        r = api.post("/v1/sleep", json={"phase": phase})
        assert r.status_code == 200, r.text
        assert [p["phase"] for p in r.json()["phases"]] == [phase]
    full = api.post("/v1/sleep", json={"full": True}).json()
    assert full["mode"] == "full" and [p["phase"] for p in full["phases"]] == list(PHASES)
    again = api.post("/v1/reflect").json()
    assert again["mode"] == "incremental" and [p["phase"] for p in again["phases"]] == \
        list(PHASES)
    one = api.post("/v1/reflect", json={"phase": "consolidate", "full": True}).json()
    assert [p["phase"] for p in one["phases"]] == ["consolidate"]

    assert "dream" in error(api.post("/v1/sleep", json={"phase": "dream"}), 422, "invalid")
    error(api.post("/v1/reflect", json={"phase": "dream"}), 422, "invalid")
    error(api.post("/v1/sleep", json={"full": "yes"}), 422, "invalid")
    error(api.post("/v1/reflect", json={"when": "now"}), 422, "invalid")
    error(reader.post("/v1/reflect"), 403, "forbidden")


def test_review_schedule_and_the_profile_check(served, clock):  # type: ignore[no-untyped-def]
    api, reader = served
    assert reader.get("/v1/review").json() == {"reviews": []}
    rule = remember(api, "Never push directly to main", kind="rule")
    clock.advance(days=10)
    pref = remember(api, "用户喜欢喝茶，不喜欢咖啡", kind="preference")
    clock.advance(days=10)
    due = reader.get("/v1/review", params={"k": 5}).json()["reviews"]
    assert [x["id"] for x in due] == [rule["id"], pref["id"]]
    assert due[0]["retrievability"] < due[1]["retrievability"] and due[0]["overdue_days"] > 0
    assert [x["id"] for x in reader.get("/v1/review?k=1").json()["reviews"]] == [rule["id"]]
    error(reader.get("/v1/review?k=0"), 422, "invalid")
    error(reader.get("/v1/review?k=many"), 422, "invalid")

    check = reader.get("/v1/profile/check").json()
    assert check["budget"] == 2000 and check["tokens"] > 0 and check["warnings"] == []
    tight = reader.get("/v1/profile/check", params={"budget": 5}).json()
    assert tight["budget"] == 5 and any("budget" in w or "%" in w for w in tight["warnings"])
    error(reader.get("/v1/profile/check?budget=0"), 422, "invalid")
    error(reader.get("/v1/profile/check?budget=big"), 422, "invalid")


def test_boot_carries_due_and_warnings(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "b.db", embedder="hashing", clock=clock, review_due=2,
                       profile_budget=20) as mem:
        mem.scope("alice", "noah").remember("Alice Chen", kind="identity",
                                            uri="core://user/name")
        # a lesson: boot's profile (identity, rules, facts, preferences) does not load it
        fact = mem.scope("alice", "noah").remember("Lesson: Alice's team ships on Thursdays",
                                                   kind="lesson").memory
        clock.advance(days=30)
        with thread_server(mem) as base:
            r = httpx.get(base + "/v1/boot", headers=auth(new_key(mem, "read")), timeout=30)
    assert r.status_code == 200, r.text
    boot = r.json()
    assert [m["content"] for m in boot["memories"]] == ["Alice Chen"]
    assert [m["id"] for m in boot["due"]] == [fact.id]
    assert boot["warnings"] and all(isinstance(w, str) for w in boot["warnings"])

"""The HTTP API unchanged on PostgreSQL: the same server over a Memory on the embedded
PostgreSQL (tests/pg.py), with keys stored there."""

from __future__ import annotations

import httpx
import pytest

from live_server import auth, new_key, thread_server

BACKENDS = ("postgres",)


@pytest.fixture
def served(mem):  # type: ignore[no-untyped-def]
    keys = {"write": new_key(mem, "write"), "read": new_key(mem, "read"),
            "bob": new_key(mem, "write", user="bob")}
    with thread_server(mem) as base:
        yield base, keys


def test_the_http_verbs_work_on_postgresql(served, mem):  # type: ignore[no-untyped-def]
    base, keys = served
    with httpx.Client(base_url=base, headers=auth(keys["write"]), timeout=30) as api:
        made = api.post("/v1/memories", json={"content": "我搬到了柏林", "kind": "fact"})
        assert made.status_code == 200, made.text
        mid = made.json()["memory"]["id"]
        moved = api.post("/v1/memories", json={"content": "我搬到了奥斯陆", "kind": "fact"})
        assert moved.json()["action"] == "supersede"
        hits = api.post("/v1/recall", json={"query": "我住在哪里", "k": 3}).json()["hits"]
        assert hits[0]["memory"]["content"] == "我搬到了奥斯陆"
        versions = api.get(f"/v1/memories/{mid}/history").json()["versions"]
        assert [(v["memory"]["content"], v["current"]) for v in versions][-2:] == [
            ("我搬到了柏林", False), ("我搬到了奥斯陆", True)]  # the whole chain, current last
        assert api.get("/v1/stats").json()["total"] == 2
    with httpx.Client(base_url=base, timeout=30) as anonymous:
        assert anonymous.get(f"/v1/memories/{mid}").status_code == 401
        bob = anonymous.get(f"/v1/memories/{mid}", headers=auth(keys["bob"]))
        assert bob.status_code == 404 and bob.json()["error"]["code"] == "not_found"
        read = anonymous.post("/v1/memories", json={"content": "x y z"},
                              headers=auth(keys["read"]))
        assert read.status_code == 403
    assert mem.count(user="alice", agent="noah") == 2

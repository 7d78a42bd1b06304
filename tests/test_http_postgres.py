"""The HTTP API unchanged on PostgreSQL: the same server over a Memory on the embedded
PostgreSQL (tests/pg.py), with keys stored there."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import engramdb
from live_server import auth, new_key, serve_process, thread_server

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


PASSWORD = "s3cret-pw-29"   # the test server trusts its socket: any password is accepted


def with_password(url: str) -> str:
    user, rest = url.removeprefix("postgresql://").split("@", 1)
    return f"postgresql://{user.split(':')[0]}:{PASSWORD}@{rest}"


def test_serve_with_two_workers_on_postgresql(pg_url, tmp_path):  # type: ignore[no-untyped-def]
    """`engramdb serve --db postgresql://... --workers 2` as a user starts it: every worker
    opens the database (not a file named after the URL); writes are read back, whichever
    worker answers; the password is printed nowhere."""
    url = with_password(pg_url)
    with engramdb.open(url, embedder="hashing") as mem:
        secret = new_key(mem, "write")
    log = tmp_path / "serve.log"
    with serve_process(url, 2, log_to=log) as base:
        def write(n: int) -> list[str]:
            with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as client:
                made = [client.post("/v1/memories", json={
                    "content": f"served note {n}-{i}: 笔记 {n * 100 + i}", "kind": "event"})
                    for i in range(5)]
                assert all(r.status_code == 200 for r in made), made[0].text
                return [r.json()["memory"]["id"] for r in made]

        with ThreadPoolExecutor(4) as pool:
            ids = [i for batch in pool.map(write, range(4)) for i in batch]
        assert len(set(ids)) == 20
        with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as client:
            for mid in ids:   # spread over connections: both workers answer some
                with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as one:
                    assert one.get(f"/v1/memories/{mid}").status_code == 200
            stats = client.get("/v1/stats")
            assert stats.json()["total"] == 20 and PASSWORD not in stats.text
            hits = client.post("/v1/recall", json={"query": "笔记 302", "k": 1}).json()["hits"]
            assert hits[0]["memory"]["content"] == "served note 3-2: 笔记 302"
    printed = log.read_text()
    assert "Started server process" in printed and PASSWORD not in printed
    assert not list(Path.cwd().glob("postgresql:*"))   # no file named after the URL
    with engramdb.open(url, embedder="hashing") as mem:
        assert mem.count(user="alice", agent="noah") == 20

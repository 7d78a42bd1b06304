"""The HTTP API over a real uvicorn server on a loopback port, with httpx as the client."""

from __future__ import annotations

import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import httpx
import pytest

import engramdb
from engramdb.keys import Keys
from helpers import dump, plain
from live_server import auth, new_key, serve_process, thread_server

BERLIN = "I moved to Berlin in March"
ZH = "我搬到了柏林，住在克罗伊茨贝格"


@pytest.fixture
def url(mem):  # type: ignore[no-untyped-def]
    with thread_server(mem) as base:
        yield base


@pytest.fixture
def keys(mem):  # type: ignore[no-untyped-def]
    revoked = Keys(mem).create(user="alice", agent="noah", role="write")
    Keys(mem).revoke(revoked[0].id)
    return {
        "write": new_key(mem, "write"), "read": new_key(mem, "read"),
        "bob": new_key(mem, "write", user="bob"), "admin": new_key(mem, "admin", user="ops"),
        "revoked": revoked[1],
    }


@pytest.fixture
def api(url, keys):  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=url, headers=auth(keys["write"]), timeout=30) as client:
        yield client


def add(api, content, **fields):  # type: ignore[no-untyped-def]
    r = api.post("/v1/memories", json={"content": content, **fields})
    assert r.status_code == 200, r.text
    return r.json()


def error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    return str(body["error"]["message"])


# ---------------------------------------------------------------- the verbs


def test_create_get_update_and_history(api):  # type: ignore[no-untyped-def]
    made = add(api, ZH, kind="fact", metadata={"source": "聊天", "n": [1, 2]})
    assert made["action"] == "add" and made["rule"]
    mid = made["memory"]["id"]
    got = api.get(f"/v1/memories/{mid}").json()
    assert got["content"] == ZH and got["metadata"] == {"source": "聊天", "n": [1, 2]}
    assert (got["user"], got["agent"]) == ("alice", "noah")
    changed = api.patch(f"/v1/memories/{mid}", json={"content": "我现在住在奥斯陆"}).json()
    assert changed["version"] == 2 and changed["content"] == "我现在住在奥斯陆"
    versions = api.get(f"/v1/memories/{mid}/history").json()["versions"]
    assert [(v["version"], v["memory"]["content"], v["current"]) for v in versions] == [
        (1, ZH, False), (2, "我现在住在奥斯陆", True)]


def test_a_uri_slot_is_read_and_updated_by_uri(api):  # type: ignore[no-untyped-def]
    add(api, "Ada", kind="identity", uri="core://user/name")
    again = add(api, "Ada Lovelace", uri="core://user/name")
    assert again["action"] == "update"
    got = api.get("/v1/memories/by-uri", params={"uri": "core://user/name"}).json()
    assert got["content"] == "Ada Lovelace" and got["version"] == 2


def test_batch_writes_all_or_nothing(api, mem):  # type: ignore[no-untyped-def]
    r = api.post("/v1/memories/batch", json={"items": [
        {"content": "I like green tea", "kind": "preference"},
        {"content": "我喜欢爬山", "kind": "preference"}]})
    assert [x["action"] for x in r.json()["results"]] == ["add", "add"]
    before = dump(mem.store.location)
    r = api.post("/v1/memories/batch", json={"items": [
        {"content": "fine"}, {"content": "bad kind", "kind": "nonsense"}]})
    assert "item 1" in error(r, 422, "invalid")
    assert dump(mem.store.location) == before


def test_list_filters_and_pages(api, mem, clock):  # type: ignore[no-untyped-def]
    ids = []
    for i in range(7):
        clock.advance(days=1)
        kind = "event" if i % 2 else "fact"
        ids.append(add(api, f"note {i} about topic {i}", kind=kind)["memory"]["id"])
    add(api, "Ada", kind="identity", uri="core://user/name")
    seen, offset = [], 0
    while offset is not None:
        page = api.get("/v1/memories", params={"kind": ["fact", "event"], "limit": 3,
                                               "offset": offset}).json()
        assert len(page["items"]) <= 3
        seen += [m["id"] for m in page["items"]]
        offset = page["next_offset"]
    assert seen == ids
    events = api.get("/v1/memories", params={"kind": "event"}).json()["items"]
    assert [m["id"] for m in events] == ids[1::2]
    uri = api.get("/v1/memories", params={"uri_prefix": "core://"}).json()["items"]
    assert [m["content"] for m in uri] == ["Ada"]
    since = (clock.now() - timedelta(days=3)).isoformat()
    recent = api.get("/v1/memories", params={"since": since, "kind": "fact"}).json()["items"]
    assert [m["id"] for m in recent] == [ids[4], ids[6]]
    newest = api.get("/v1/memories", params={"newest_first": "true", "limit": 1}).json()
    assert newest["items"][0]["content"] == "Ada" and newest["next_offset"] == 1


def test_forget_restore_and_forgotten_list(api):  # type: ignore[no-untyped-def]
    mid = add(api, BERLIN)["memory"]["id"]
    assert api.delete(f"/v1/memories/{mid}").json()["layer"] == "deleted"
    assert api.get("/v1/memories").json()["items"] == []
    gone = api.get("/v1/memories", params={"layer": "deleted"}).json()["items"]
    assert [m["id"] for m in gone] == [mid]
    assert api.post(f"/v1/memories/{mid}/restore").json()["layer"] == "core"
    erased = api.delete(f"/v1/memories/{mid}", params={"hard": "true"}).json()
    assert erased["content"] == ""
    error(api.post(f"/v1/memories/{mid}/restore"), 409, "conflict")


def test_rollback_says_a_version_again(api):  # type: ignore[no-untyped-def]
    mid = add(api, BERLIN)["memory"]["id"]
    api.patch(f"/v1/memories/{mid}", json={"content": "I moved to Oslo"})
    back = api.post(f"/v1/memories/{mid}/rollback", json={"version": 1}).json()
    assert back["content"] == BERLIN and back["version"] == 3
    error(api.post(f"/v1/memories/{mid}/rollback", json={"version": 9}), 404, "not_found")


def test_recall_explains_each_hit_in_both_languages(api):  # type: ignore[no-untyped-def]
    report, dumplings = "The quarterly report is due on Friday", "我最喜欢的菜是饺子"
    add(api, report)
    add(api, dumplings)
    add(api, "I like green tea", kind="preference")
    for query, expected, why in (
            ("quarterly report", report, "every word asked: 'quarterly', 'report' · today"),
            ("饺子", dumplings, "the word '饺子' · today")):
        hits = api.post("/v1/recall", json={"query": query, "k": 2}).json()
        top = hits["hits"][0]
        assert top["memory"]["content"] == expected
        assert top["why"] == why  # one line a person reads
        assert top["explanation"]["legs"] and top["explanation"]["final"] > 0  # terms stay


def test_recall_within_a_uri_prefix(api):  # type: ignore[no-untyped-def]
    add(api, "The billing deploy failed on Friday", uri="project://billing/d1")
    add(api, "搜索服务的部署失败了", uri="project://search/d1")
    body = api.post("/v1/recall", json={"query": "deploy 部署", "k": 3,
                                        "uri_prefix": "project://search/"}).json()
    assert [h["memory"]["uri"] for h in body["hits"]] == ["project://search/d1"]
    error(api.post("/v1/recall", json={"query": "deploy", "uri_prefix": "nowhere"}), 422,
          "invalid")


def test_a_read_keys_recall_changes_nothing(api, url, keys, mem):  # type: ignore[no-untyped-def]
    mid = add(api, BERLIN)["memory"]["id"]
    before = dump(mem.store.location)
    r = httpx.post(url + "/v1/recall", json={"query": "Berlin"}, headers=auth(keys["read"]))
    assert r.json()["hits"][0]["memory"]["id"] == mid
    assert dump(mem.store.location) == before
    api.post("/v1/recall", json={"query": "Berlin"})  # a write key's recall counts a use
    assert api.get(f"/v1/memories/{mid}").json()["use_count"] == 1


def test_sleep_boot_stats_strength_export(api, clock):  # type: ignore[no-untyped-def]
    ada = add(api, "Ada", kind="identity", uri="core://user/name")["memory"]["id"]
    mid = add(api, "went to the dentist", kind="event")["memory"]["id"]
    clock.advance(days=400)
    report = api.post("/v1/sleep").json()
    decay = next(p for p in report["phases"] if p["phase"] == "decay")
    assert mid in decay["ids"]["archived"]
    assert [p["phase"] for p in api.post("/v1/sleep", json={"phase": "tidy"}).json()[
        "phases"]] == ["tidy"]
    error(api.post("/v1/sleep", json={"phase": "dream"}), 422, "invalid")
    assert [m["content"] for m in api.get("/v1/boot").json()["memories"]] == ["Ada"]
    stats = api.get("/v1/stats").json()
    assert stats["by_layer"] == {"core": 1, "archived": 1, "deleted": 0, "cold": 0}
    strength = api.get(f"/v1/memories/{mid}/strength").json()
    assert strength["layer"] == "archived" and 0 <= strength["weight"] < 1
    lines = api.get("/v1/export").text.strip().splitlines()
    rows = [json.loads(line) for line in lines]
    assert rows[0]["type"] == "header"
    assert sorted(r["memory"]["id"] for r in rows if r["type"] == "memory") == sorted([ada, mid])


def test_openapi_and_an_offline_docs_page(url):  # type: ignore[no-untyped-def]
    spec = httpx.get(url + "/openapi.json").json()
    for path in ("/v1/memories", "/v1/memories/batch", "/v1/memories/{memory_id}",
                 "/v1/memories/{memory_id}/history", "/v1/memories/{memory_id}/restore",
                 "/v1/recall", "/v1/sleep", "/v1/boot", "/v1/stats", "/v1/export"):
        assert path in spec["paths"]
    docs = httpx.get(url + "/docs")
    assert docs.status_code == 200 and "/v1/recall" in docs.text
    page = httpx.get(url + "/").text
    for text in (docs.text, page, httpx.get(url + "/static/app.js").text):
        assert "http://" not in text and "https://" not in text  # nothing loads from outside


# ---------------------------------------------------------------- keys and scopes


def test_no_wrong_or_revoked_key_is_401(url, keys):  # type: ignore[no-untyped-def]
    for headers in ({}, auth("edb_" + "x" * 43), auth(keys["revoked"]), {"Authorization": "Bearer"},
                    {"Authorization": f"Basic {keys['write']}"}, auth("x" * 5000)):
        r = httpx.get(url + "/v1/stats", headers=headers)
        error(r, 401, "unauthorized")
        assert r.headers["www-authenticate"] == "Bearer"
    assert "revoked" in error(httpx.get(url + "/v1/stats", headers=auth(keys["revoked"])),
                              401, "unauthorized")
    assert httpx.get(url + "/v1/stats", headers={"X-API-Key": keys["read"]}).status_code == 200


def test_a_read_key_cannot_write(url, keys, mem):  # type: ignore[no-untyped-def]
    mid = mem.remember(BERLIN, user="alice", agent="noah").memory.id
    before = dump(mem.store.location)
    read = auth(keys["read"])
    for method, path, body in (
        ("POST", "/v1/memories", {"content": "x"}),
        ("POST", "/v1/memories/batch", {"items": [{"content": "x"}]}),
        ("PATCH", f"/v1/memories/{mid}", {"content": "x"}),
        ("DELETE", f"/v1/memories/{mid}", None),
        ("POST", f"/v1/memories/{mid}/restore", None),
        ("POST", "/v1/sleep", None),
    ):
        error(httpx.request(method, url + path, json=body, headers=read), 403, "forbidden")
    assert httpx.get(url + f"/v1/memories/{mid}", headers=read).status_code == 200
    assert dump(mem.store.location) == before


def test_a_key_never_reaches_another_scope(url, keys, mem):  # type: ignore[no-untyped-def]
    theirs = mem.remember("Bob's secret plan", user="bob", agent="noah").memory.id
    mem.remember(BERLIN, user="alice", agent="noah")
    before = dump(mem.store.location)
    alice = auth(keys["write"])
    for method, path, body in (
        ("GET", f"/v1/memories/{theirs}", None),
        ("GET", f"/v1/memories/{theirs}/history", None),
        ("GET", f"/v1/memories/{theirs}/strength", None),
        ("PATCH", f"/v1/memories/{theirs}", {"content": "mine now"}),
        ("DELETE", f"/v1/memories/{theirs}", None),
        ("POST", f"/v1/memories/{theirs}/restore", None),
    ):
        other = httpx.request(method, url + path, json=body, headers=alice)
        missing = httpx.request(method, url + path.replace(theirs, "01NOSUCHID"), json=body,
                                headers=alice)
        error(other, 404, "not_found")
        assert other.json()["error"]["message"].replace(theirs, "ID") == \
            missing.json()["error"]["message"].replace("01NOSUCHID", "ID")  # no leak
    query = {"query": "secret plan Berlin", "k": 10, "track": False}
    hits = httpx.post(url + "/v1/recall", json=query, headers=alice).json()["hits"]
    assert {h["memory"]["user"] for h in hits} == {"alice"}
    for params in ({"user": "bob"}, {"agent": "other"}, {"user": "bob", "agent": "noah"}):
        error(httpx.get(url + "/v1/memories", params=params, headers=alice), 403, "forbidden")
        error(httpx.post(url + "/v1/memories", params=params, json={"content": "x"},
                         headers=alice), 403, "forbidden")
    assert dump(mem.store.location) == before


def test_an_admin_key_acts_on_any_scope(url, keys, mem):  # type: ignore[no-untyped-def]
    theirs = mem.remember("Bob's secret plan", user="bob", agent="noah").memory.id
    admin = auth(keys["admin"])
    bob = {"user": "bob", "agent": "noah"}
    assert httpx.get(url + f"/v1/memories/{theirs}", params=bob,
                     headers=admin).json()["user"] == "bob"
    error(httpx.get(url + f"/v1/memories/{theirs}", headers=admin), 404, "not_found")
    made = httpx.post(url + "/v1/memories", params={"user": "carol"}, json={"content": "hi"},
                      headers=admin).json()["memory"]
    assert (made["user"], made["agent"]) == ("carol", "noah")  # the rest from the key
    assert httpx.get(url + "/v1/me", headers=admin).json()["user"] == "ops"
    error(httpx.get(url + "/v1/stats", params={"user": " "}, headers=admin), 422, "invalid")


# ---------------------------------------------------------------- bad input


BAD_REQUESTS = [
    ("malformed JSON", "POST", "/v1/memories", b'{"content": ', 400, "malformed_json"),
    ("not UTF-8", "POST", "/v1/memories", b'{"content": "\xff\xfe"}', 400, "malformed_json"),
    ("a list body", "POST", "/v1/memories", b'["x"]', 422, "invalid"),
    ("deeply nested", "POST", "/v1/memories", b"[" * 100000 + b"]" * 100000, 400,
     "malformed_json"),
    ("NaN importance", "POST", "/v1/memories", b'{"content": "x", "importance": NaN}', 422,
     "invalid"),
    ("time zone +25:00", "POST", "/v1/memories",
     {"content": "x", "at": "2026-01-01T00:00:00+25:00"}, 422, "invalid"),
    ("missing content", "POST", "/v1/memories", {"kind": "fact"}, 422, "invalid"),
    ("content a number", "POST", "/v1/memories", {"content": 5}, 422, "invalid"),
    ("importance text", "POST", "/v1/memories", {"content": "x", "importance": "high"}, 422,
     "invalid"),
    ("importance 7", "POST", "/v1/memories", {"content": "x", "importance": 7}, 422, "invalid"),
    ("metadata a list", "POST", "/v1/memories", {"content": "x", "metadata": [1]}, 422,
     "invalid"),
    ("unknown field", "POST", "/v1/memories", {"content": "x", "contnet": "y"}, 422, "invalid"),
    ("unknown kind", "POST", "/v1/memories", {"content": "x", "kind": "dream"}, 422, "invalid"),
    ("empty content", "POST", "/v1/memories", {"content": "  "}, 422, "invalid"),
    ("lone surrogate", "POST", "/v1/memories", b'{"content": "a\\ud800b"}', 422, "invalid"),
    ("oversized content", "POST", "/v1/memories", {"content": "长" * 30000}, 422, "invalid"),
    ("body over the limit", "POST", "/v1/memories", {"content": "a" * 1_100_000}, 413,
     "too_large"),
    ("invalid URI", "POST", "/v1/memories", {"content": "x", "uri": "core://a b"}, 422,
     "invalid"),
    ("unknown URI domain", "POST", "/v1/memories", {"content": "x", "uri": "http://x/y"}, 422,
     "invalid"),
    ("SQL in a URI", "POST", "/v1/memories", {"content": "x", "uri": "core://x'; DROP--"}, 422,
     "invalid"),
    ("month 13", "POST", "/v1/memories", {"content": "x", "at": "2026-13-01T00:00:00"}, 422,
     "invalid"),
    ("at a number", "POST", "/v1/memories", {"content": "x", "at": 20260101}, 422, "invalid"),
    ("not a time", "POST", "/v1/memories", {"content": "x", "at": "yesterday"}, 422, "invalid"),
    ("empty batch", "POST", "/v1/memories/batch", {"items": []}, 422, "invalid"),
    ("batch too big", "POST", "/v1/memories/batch", {"items": [{"content": f"m{i}"}
                                                               for i in range(501)]}, 422,
     "invalid"),
    ("batch not a list", "POST", "/v1/memories/batch", {"items": "x"}, 422, "invalid"),
    ("k zero", "POST", "/v1/recall", {"query": "x", "k": 0}, 422, "invalid"),
    ("k too big", "POST", "/v1/recall", {"query": "x", "k": 101}, 422, "invalid"),
    ("k a string", "POST", "/v1/recall", {"query": "x", "k": "5"}, 422, "invalid"),
    ("k a float", "POST", "/v1/recall", {"query": "x", "k": 2.5}, 422, "invalid"),
    ("empty query", "POST", "/v1/recall", {"query": ""}, 422, "invalid"),
    ("missing query", "POST", "/v1/recall", {"k": 3}, 422, "invalid"),
    ("unknown preset", "POST", "/v1/recall", {"query": "x", "preset": "magic"}, 422, "invalid"),
    ("nothing to update", "PATCH", "/v1/memories/{id}", {}, 422, "invalid"),
    ("update bad URI", "PATCH", "/v1/memories/{id}", {"uri": "nowhere"}, 422, "invalid"),
    ("unknown id", "GET", "/v1/memories/01NOSUCH", None, 404, "not_found"),
    ("SQL in an id", "GET", "/v1/memories/x' OR '1'='1", None, 404, "not_found"),
    ("unknown id history", "GET", "/v1/memories/nope/history", None, 404, "not_found"),
    ("unknown id update", "PATCH", "/v1/memories/nope", {"content": "x"}, 404, "not_found"),
    ("unknown id forget", "DELETE", "/v1/memories/nope", None, 404, "not_found"),
    ("rollback to 0", "POST", "/v1/memories/{id}/rollback", {"version": 0}, 422, "invalid"),
    ("bad by-uri", "GET", "/v1/memories/by-uri?uri=abc", None, 422, "invalid"),
    ("unknown by-uri", "GET", "/v1/memories/by-uri?uri=core://no/one", None, 404, "not_found"),
    ("limit 0", "GET", "/v1/memories?limit=0", None, 422, "invalid"),
    ("limit huge", "GET", "/v1/memories?limit=100000", None, 422, "invalid"),
    ("offset negative", "GET", "/v1/memories?offset=-1", None, 422, "invalid"),
    ("limit text", "GET", "/v1/memories?limit=ten", None, 422, "invalid"),
    ("unknown layer", "GET", "/v1/memories?layer=attic", None, 422, "invalid"),
    ("bad prefix", "GET", "/v1/memories?uri_prefix=nope", None, 422, "invalid"),
    ("since not a time", "GET", "/v1/memories?since=soon", None, 422, "invalid"),
    ("until not a time", "GET", "/v1/timeline?until=下周", None, 422, "invalid"),
    ("budget 0", "GET", "/v1/boot?budget=0", None, 422, "invalid"),
    ("unknown route", "GET", "/v1/nothing", None, 404, "not_found"),
    ("wrong method", "PUT", "/v1/stats", None, 405, "method_not_allowed"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "code"),
                         [case[1:] for case in BAD_REQUESTS], ids=[c[0] for c in BAD_REQUESTS])
def test_bad_requests_are_4xx_json_and_write_nothing(  # type: ignore[no-untyped-def]
        api, mem, method, path, body, status, code):
    mid = mem.remember(BERLIN, user="alice", agent="noah").memory.id
    before = dump(mem.store.location)
    path = path.replace("{id}", mid)
    if isinstance(body, bytes):
        r = api.request(method, path, content=body, headers={"Content-Type": "application/json"})
    else:
        r = api.request(method, path, json=body)
    plain(error(r, status, code))
    assert dump(mem.store.location) == before


@pytest.mark.parametrize("query", ['"', "a OR b", "NEAR(a b)", "*", "x' OR 1=1 --", "^col:",
                                   "柏林\" AND \"", "(((", "-", "{body}: x", "%_\\"])
def test_fts_and_sql_metacharacters_are_plain_words(api, query):  # type: ignore[no-untyped-def]
    add(api, BERLIN)
    r = api.post("/v1/recall", json={"query": query, "k": 3})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        error(r, 422, "invalid")
    made = api.post("/v1/memories", json={"content": f"note: {query}"})
    assert made.status_code == 200 and made.json()["memory"]["content"] == f"note: {query}"


# ---------------------------------------------------------------- several workers


def test_two_workers_write_one_file_safely(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "shared.db"
    with engramdb.open(db, embedder="hashing") as mem:
        secret = new_key(mem, "write")
    with serve_process(db, workers=2) as base:
        def write(n: int) -> str:
            with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as client:
                ids = []
                for i in range(15):
                    r = client.post("/v1/memories", json={
                        "content": f"worker note {n}-{i}: 笔记 {n * 100 + i}", "kind": "event"})
                    assert r.status_code == 200, r.text
                    ids.append(r.json()["memory"]["id"])
                return ids

        with ThreadPoolExecutor(6) as pool:
            ids = [i for batch in pool.map(write, range(6)) for i in batch]
        assert len(set(ids)) == 90
        with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as client:
            for mid in ids:  # every id is readable, whichever worker answers
                assert client.get(f"/v1/memories/{mid}").status_code == 200
            assert client.get("/v1/stats").json()["total"] == 90
            hits = client.post("/v1/recall", json={"query": "笔记 507", "k": 1}).json()["hits"]
            assert hits[0]["memory"]["content"] == "worker note 5-7: 笔记 507"
    with engramdb.open(db, embedder="hashing") as mem:
        assert mem.count(user="alice", agent="noah") == 90
        assert len(mem.store.list_keys()) == 1


def test_a_store_busy_past_its_timeout_is_503_and_writes_nothing(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "busy.db"
    with engramdb.open(db, embedder="hashing", busy_timeout_ms=200) as mem:
        secret = new_key(mem, "write")
        with thread_server(mem) as base:
            blocker = sqlite3.connect(db, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            try:
                r = httpx.post(base + "/v1/memories", json={"content": "I like green tea"},
                               headers=auth(secret), timeout=30)
            finally:
                blocker.execute("ROLLBACK")
                blocker.close()
            error(r, 503, "store_error")
            assert r.headers["retry-after"] == "1"
            assert mem.count(user="alice", agent="noah") == 0
            ok = httpx.post(base + "/v1/memories", json={"content": "I like green tea"},
                            headers=auth(secret), timeout=30)
            assert ok.status_code == 200  # once the lock is gone, the same write goes through

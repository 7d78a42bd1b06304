"""The /v1 routes the web page manages memory with (issue 30), over a real uvicorn server
and the seeded store (tests/web_seed.py): the text filter of a listing, the list of entities,
the scopes an admin key may switch to, and their bad input (4xx in the error shape)."""

from __future__ import annotations

import httpx
import pytest

from live_server import auth, new_key, thread_server
from test_http import error
from web_seed import seed


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    s = seed(tmp_path / "memory.db")
    s.mem.scope(user="bob", agent="noah").remember("Bob lives in Berlin too", kind="fact")
    with thread_server(s.mem) as url, httpx.Client(base_url=url, timeout=30) as api:
        yield s, api
    s.mem.close()


def test_a_listing_filters_by_the_text_held(site):  # type: ignore[no-untyped-def]
    s, api = site
    key = auth(new_key(s.mem, "read"))
    got = api.get("/v1/memories", params={"contains": "harbin", "layer": ["core", "archived"]},
                  headers=key).json()
    assert len(got["items"]) == 3 and all("Harbin" in m["content"] for m in got["items"])
    zh = api.get("/v1/memories", params={"contains": "饺子"}, headers=key).json()["items"]
    assert {m["content"] for m in zh} >= {"我最喜欢的菜是饺子"}
    assert api.get("/v1/count", params={"contains": "BERLIN"}, headers=key).json() == {
        "count": 1}   # alice's only: bob's Berlin is another scope
    assert api.get("/v1/count", params={"contains": "  "}, headers=key).json()["count"] == \
        api.get("/v1/count", headers=key).json()["count"]   # blank: no filter
    message = error(api.get("/v1/memories", params={"contains": "x" * 201}, headers=key),
                    422, "invalid")
    assert "contains" in message


def test_the_entities_list_names_people_and_places(site):  # type: ignore[no-untyped-def]
    s, api = site
    key = auth(new_key(s.mem, "read"))
    found = api.get("/v1/entities", headers=key).json()["entities"]
    by_name = {e["name"]: e for e in found}
    # written as the memories write them, most named first
    assert by_name["Wang"]["kind"] == "person" and by_name["Harbin"]["kind"] == "place"
    assert "wang" not in by_name and all(e["memories"] >= 1 for e in found)
    assert [e["memories"] for e in found] == sorted((e["memories"] for e in found),
                                                    reverse=True)
    assert len(api.get("/v1/entities", params={"limit": 1}, headers=key).json()[
        "entities"]) == 1
    assert "limit" in error(api.get("/v1/entities", params={"limit": 0}, headers=key), 422,
                            "invalid")
    error(api.get("/v1/entities"), 401, "unauthorized")


def test_an_admin_key_lists_the_scopes_and_switches(site):  # type: ignore[no-untyped-def]
    s, api = site
    admin = auth(new_key(s.mem, "admin"))
    scopes = api.get("/v1/scopes", headers=admin).json()["scopes"]
    assert {"user": "alice", "agent": "noah"} in scopes and \
        {"user": "bob", "agent": "noah"} in scopes
    bob = api.get("/v1/memories", params={"user": "bob", "agent": "noah"}, headers=admin)
    assert [m["content"] for m in bob.json()["items"]] == ["Bob lives in Berlin too"]
    error(api.get("/v1/scopes", headers=auth(new_key(s.mem, "write"))), 403, "forbidden")
    error(api.get("/v1/scopes"), 401, "unauthorized")

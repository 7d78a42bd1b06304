"""Errors in words at every door (issue 30): a call whose arguments do not fit the schema is
answered with the field, what was wrong and what to give, never the validator's text or a link
(MCP through the SDK's own client over stdio, HTTP through a real uvicorn server, the CLI);
and a time without a time zone is read as UTC at each door, as the library reads it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from engramdb.cli import app
from engramdb.mcp.schema import RecallArgs, RememberArgs, RememberManyArgs
from engramdb.schema_errors import HTTP_PLACES, field_name, sentences
from engramdb.server.dto import BatchIn, RememberIn
from helpers import plain
from live_server import auth, new_key, thread_server
from test_mcp import ok, stdio

NAIVE, AWARE = "2026-01-01T10:00:00", "2026-01-01T18:00:00+08:00"   # the same instant
IN_UTC = "2026-01-01T10:00:00+00:00"

# (model, arguments, what the message must say) for a wrong type, a missing field, a value
# outside an enum, a bad time, an unknown field, a bound, an empty list, a nested item
SCHEMA_CASES: list[tuple[Any, dict[str, Any], str]] = [
    (RememberArgs, {"content": 5}, "content must be text, not the number 5"),
    (RememberArgs, {}, "content is missing: it is required"),
    (RememberArgs, {"content": "x", "kind": "dream"},
     "kind 'dream' is not one of identity, preference, fact"),
    (RememberArgs, {"content": "x", "contnet": "y"},
     "contnet is not a known field: remove it, or check its spelling"),
    (RememberArgs, {"content": "x", "importance": 7}, "importance is 7: it must be at most 1"),
    (RememberArgs, {"content": "x", "metadata": [1]}, "metadata must be an object"),
    (RememberArgs, {"content": "x", "priority": "P9"}, "priority 'P9' is not one of P0, P1"),
    (RememberArgs, {"content": ""}, "content is empty: give at least one character"),
    (RememberManyArgs, {"items": []}, "items is empty: give at least one item"),
    (RememberManyArgs, {"items": [{"content": "好"}, {"kind": "fact"}]},
     "items[1].content is missing"),
    (RecallArgs, {"query": "x", "k": "five"}, "k must be a whole number, not the text 'five'"),
    (RememberIn, {"content": "x", "at": 20260101}, "at must be text, not the number 20260101"),
    (BatchIn, {"items": "x"}, "items must be a list"),
]


@pytest.mark.parametrize(("model", "args", "said"), SCHEMA_CASES,
                         ids=[c[2][:30] for c in SCHEMA_CASES])
def test_schema_errors_are_said_in_words(model, args, said):  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as caught:
        model.model_validate(args)
    message = plain(sentences(caught.value.errors()))
    assert said in message, message


def test_a_time_the_schema_refuses_says_what_to_give():  # type: ignore[no-untyped-def]
    errors = [{"type": "datetime_from_date_parsing", "loc": ("body", "at"), "input": "soon",
               "msg": "Input should be a valid datetime", "ctx": {"error": "too short"},
               "url": "https://errors.pydantic.dev/2/v/datetime_from_date_parsing"}]
    assert sentences(errors, HTTP_PLACES) == ("at 'soon' is not a time: give ISO 8601 such as "
                                 "2026-01-01T10:00:00Z (without a time zone it is read as UTC)")


def test_field_names_and_a_long_list_of_errors():  # type: ignore[no-untyped-def]
    assert field_name(("body", "items", 3, "content"), HTTP_PLACES) == "items[3].content"
    assert field_name(("query", "limit"), HTTP_PLACES) == "limit"
    assert field_name(("query",)) == "query"      # an MCP argument named query
    assert field_name(("kind", "literal['a','b']")) == "kind"
    many = [{"type": "missing", "loc": (f"f{i}",)} for i in range(8)]
    assert sentences(many).endswith("(and 3 more)")
    assert sentences([]) == "the arguments do not fit the schema: check them against it"
    unknown = [{"type": "some_new_check", "loc": ("x",), "input": 3, "msg": "Input should be"}]
    assert plain(sentences(unknown)) == "x 3 is not accepted here: check it against the schema"


# ---------------------------------------------------------------- MCP, over stdio

@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


MCP_BAD = [
    ("remember", {"content": 5}, "content must be text"),
    ("remember", {"kind": "fact"}, "content is missing"),
    ("remember", {"content": "我喜欢绿茶", "kind": "dream"}, "kind 'dream' is not one of"),
    ("remember", {"content": "I like green tea", "at": "yesterday"},
     "at: 'yesterday' is not an ISO 8601 time; give one such as 2026-01-01T10:00:00Z"),
    ("remember", {"content": "我喜欢绿茶", "at": "昨天"}, "at: '昨天' is not an ISO 8601 time"),
    ("remember", {"content": "x", "contnet": "y"}, "contnet is not a known field"),
    ("remember_many", {"items": [{"content": "a"}, {"kind": "fact"}]},
     "items[1].content is missing"),
    ("recall", {"query": "tea", "k": "five"}, "k must be a whole number"),
    ("list", {"since": "2026-13-01"}, "since: '2026-13-01' is not an ISO 8601 time"),
]


@pytest.mark.anyio
async def test_mcp_says_errors_in_words_and_reads_a_time_without_a_zone_as_utc(  # one server
        tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db") as client:
        for tool, args, said in MCP_BAD:
            r = await client.call_tool(tool, args)
            assert r.is_error, (tool, args)
            text = plain(r.content[0].text)
            assert text.startswith("invalid: ") and said in text, (tool, args, text)
            assert r.structured_content == {"error": {"code": "invalid",
                                                      "message": text.removeprefix("invalid: ")}}
        assert (await ok(client, "status"))["events"] == 0   # nothing was written

        naive = await ok(client, "remember", "I moved to Berlin", "event", at=NAIVE)
        aware = await ok(client, "remember", "我搬到了柏林", "event", at=AWARE)
        assert naive["memory"]["at"] == aware["memory"]["at"] == IN_UTC
        listed = await ok(client, "list", since=NAIVE)
        assert len(listed["memories"]) == 2
        assert (await ok(client, "list", since="2026-01-01T10:00:01"))["memories"] == []


# ---------------------------------------------------------------- HTTP


@pytest.fixture
def api(mem):  # type: ignore[no-untyped-def]
    with thread_server(mem) as base, httpx.Client(
            base_url=base, headers=auth(new_key(mem, "write")), timeout=30) as client:
        yield client


HTTP_BAD = [
    ({"content": 5}, "content must be text, not the number 5"),
    ({"kind": "fact"}, "content is missing: it is required"),
    ({"content": "我喜欢绿茶", "kind": "dream"}, "unknown kind 'dream'"),
    ({"content": "I like tea", "at": "2026-01-01T25:00:00"},
     "at: '2026-01-01T25:00:00' is not an ISO 8601 time"),
    ({"content": "我喜欢绿茶", "at": "明天"}, "at: '明天' is not an ISO 8601 time"),
    ({"content": "x", "importance": "high"}, "importance must be a number, not the text"),
    ({"content": "x", "contnet": 1}, "contnet is not a known field"),
]


@pytest.mark.parametrize(("body", "said"), HTTP_BAD, ids=[c[1][:30] for c in HTTP_BAD])
def test_http_errors_are_said_in_words(api, body, said):  # type: ignore[no-untyped-def]
    r = api.post("/v1/memories", json=body)
    assert r.status_code == 422, r.text
    message = plain(r.json()["error"]["message"])
    assert said in message, message


def test_http_names_a_route_that_does_not_exist(api):  # type: ignore[no-untyped-def]
    missing = api.get("/v1/nothing")
    assert missing.status_code == 404
    assert missing.json()["error"] == {
        "code": "not_found", "message": "no route GET /v1/nothing: the routes are listed at /docs"}
    wrong = api.delete("/v1/recall")
    assert wrong.status_code == 405
    assert "DELETE /v1/recall is not a route" in wrong.json()["error"]["message"]
    assert api.get("/v1/memories/01NOPE0000").json()["error"]["message"].startswith("no memory")


def test_http_reads_a_time_without_a_zone_as_utc(api):  # type: ignore[no-untyped-def]
    naive = api.post("/v1/memories", json={"content": "I moved to Berlin", "kind": "event",
                                           "at": NAIVE}).json()
    aware = api.post("/v1/memories", json={"content": "我搬到了柏林", "kind": "event",
                                           "at": AWARE}).json()
    assert naive["memory"]["at"] == aware["memory"]["at"] == IN_UTC
    assert len(api.get("/v1/memories", params={"since": NAIVE}).json()["items"]) == 2
    assert api.get("/v1/memories", params={"since": "2026-01-01T18:00:01+08:00"}).json()[
        "items"] == []
    assert api.post("/v1/memories", json={"content": "Dentist on Monday", "kind": "pending",
                                          "due_at": "2026-01-05T09:00:00"}).json()["memory"][
        "due_at"] == "2026-01-05T09:00:00+00:00"


# ---------------------------------------------------------------- CLI


def test_cli_reads_a_time_without_a_zone_as_utc_and_says_a_bad_one_in_words(  # type: ignore[no-untyped-def]
        tmp_path):
    db = str(tmp_path / "c.db")
    env = {"ENGRAMDB_EMBEDDER": "hashing"}
    run = CliRunner().invoke

    ats = []
    for text, at in (("I moved to Berlin", NAIVE), ("我搬到了柏林", AWARE)):
        r = run(app, ["--db", db, "--create", "--json", "remember", text, "--kind", "event",
                      "--at", at], env=env)
        assert r.exit_code == 0, r.output
        ats.append(json.loads(r.stdout)["memory"]["at"])
    assert ats == [IN_UTC, IN_UTC]
    r = run(app, ["--db", db, "remember", "我喜欢绿茶", "--at", "下周二"], env=env)
    assert r.exit_code == 4
    message = plain(r.stderr.strip())
    assert message.startswith("error: ")
    assert "'下周二' is not an ISO 8601 time; give one such as" in message
    assert datetime.fromisoformat(ats[0]) == datetime(2026, 1, 1, 10, tzinfo=UTC)

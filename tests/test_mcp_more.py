"""The MCP tools for association, context, conversations, working memory and attention,
through the SDK's own client over a real stdio subprocess (helpers from test_mcp.py): each
result is checked against its tool's output schema by the client."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import plain
from test_mcp import anyio_backend, fails, ok, state, stdio  # noqa: F401 - fixture

pytestmark = pytest.mark.anyio


async def test_links_related_path_and_sources(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice") as c:
        a = (await ok(c, "remember", content="Alice Chen", kind="identity",
                      uri="core://user/name"))["memory"]
        b = (await ok(c, "remember", content="我在柏林工作", kind="fact"))["memory"]
        d = (await ok(c, "remember", content="Berlin winters are dark", kind="fact"))["memory"]
        made = await ok(c, "link", source="core://user/name", target=b["id"],
                        relation="caused", weight=0.8)
        assert (made["source"], made["target"], made["relation"]) == (a["id"], b["id"], "caused")
        await ok(c, "link", source=b["id"], target=d["id"])
        links = (await ok(c, "links", id=b["id"]))["links"]
        assert {(x["source"], x["target"]) for x in links} == {(a["id"], b["id"]),
                                                                (b["id"], d["id"])}
        two = await ok(c, "related", id=a["id"], hops=2)
        assert [h["memory"]["id"] for h in two["hits"]] == [b["id"], d["id"]]
        assert "我在柏林工作" in two["_text"]
        one = await ok(c, "related", id=a["id"], hops=1)
        assert [h["memory"]["id"] for h in one["hits"]] == [b["id"]]
        path = await ok(c, "recall_path", uri="core://user/", hops=1)
        assert [h["memory"]["id"] for h in path["hits"]][:2] == [a["id"], b["id"]]
        gone = await ok(c, "unlink", source=d["id"], target=b["id"])
        assert gone["removed"] == 1
        assert len((await ok(c, "links", id=b["id"]))["links"]) == 1

        report = await ok(c, "ingest", session="chat-1", messages=[
            {"role": "user", "content": "I moved to Oslo last month", "at": "2026-01-10"},
            {"role": "assistant", "content": "Nice, how is it?"},
            {"role": "user", "content": "我喜欢吃饺子"}])
        assert report["session"] == "chat-1" and report["turns"] == 3
        assert len(report["events"]) == 3 and report["extracted"]
        fact = next(x["memory"] for x in report["extracted"] if "Oslo" in x["memory"]["content"])
        src = await ok(c, "sources", id=fact["id"])
        assert [m["content"] for m in src["memories"]] == ["I moved to Oslo last month"]

        before = await state(c)
        for tool, args, expected in [
            ("link", {"source": a["id"], "target": b["id"], "relation": "likes"}, "relation"),
            ("link", {"source": a["id"], "target": b["id"], "weight": 3}, "weight"),
            ("link", {"source": a["id"], "target": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}, "not_found"),
            ("link", {"source": a["id"], "target": a["id"]}, "invalid"),
            ("related", {"id": a["id"], "hops": 9}, "hops"),
            ("recall_path", {"uri": "nope"}, "invalid"),
            ("links", {"id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}, "not_found"),
            ("ingest", {"messages": []}, "messages"),
            ("ingest", {"messages": [{"role": "user"}]}, "content"),
            ("ingest", {"messages": [{"role": "user", "content": "x", "at": "soon"}]},
             "ISO 8601"),
            ("sources", {"id": "core://user/nobody"}, "not_found"),
        ]:
            text = await fails(c, tool, **args)
            assert expected in text, f"{tool}{args}: {text}"
        assert await state(c) == before
    async with stdio(tmp_path / "m.db", "--user", "bob") as bob:  # another scope's ids
        assert "not_found" in await fails(bob, "links", id=b["id"])
        assert "not_found" in await fails(bob, "link", source=b["id"], target=d["id"])
        assert "not_found" in await fails(bob, "related", id=a["id"])


async def test_context_session_goal_procedure_focus(tmp_path: Path) -> None:
    async with stdio(tmp_path / "m.db", "--user", "alice") as c:
        await ok(c, "remember", content="Alice Chen", kind="identity", uri="core://user/name")
        await ok(c, "remember", content="我对花生过敏", kind="fact")
        goal = await ok(c, "goal", action="start", title="Plan the Berlin trip",
                        open_loops=["book a hotel"])
        gid = goal["goals"][0]["id"]
        assert goal["active"]["id"] == gid and "Plan the Berlin trip" in goal["_text"]
        noted = await ok(c, "goal", action="note", evidence=["hotel booked"],
                         close_loops=["book a hotel"])
        assert noted["goals"][0]["evidence"] == ["hotel booked"]
        assert noted["goals"][0]["open_loops"] == []
        assert (await ok(c, "goal", action="pause"))["active"] is None
        assert (await ok(c, "goal", action="resume", id=gid))["active"]["id"] == gid
        proc = await ok(c, "procedure", action="add", title="Book travel",
                        steps=["compare prices", "book"], triggers=["trip", "旅行"])
        pid = proc["procedures"][0]["id"]
        fired = await ok(c, "procedure", action="triggered", query="my 旅行 plans")
        assert [p["id"] for p in fired["procedures"]] == [pid]
        await ok(c, "procedure", action="outcome", id=pid, success=True)
        assert [p["id"] for p in (await ok(c, "procedure"))["procedures"]] == [pid]

        await ok(c, "session", action="add", id="s1", role="user", content="我们聊聊柏林的行程")
        shown = await ok(c, "session", id="s1")
        assert "我们聊聊柏林的行程" in shown["session"]["prompt"]
        assert (await ok(c, "session", action="list"))["sessions"] == ["s1"]
        block = await ok(c, "context", query="what should I eat in Berlin?", budget=400,
                         session="s1")
        names = [x["name"] for x in block["sections"]]
        assert "identity" in names and "goal" in names
        assert "Alice Chen" in block["text"] and block["tokens"] <= 400
        assert "花生" in block["text"]
        focus = await ok(c, "focus", query="花生过敏", k=3)
        assert focus["goal"]["id"] == gid and focus["memories"]
        assert any("花生" in m["content"] for m in focus["memories"])
        ended = await ok(c, "session", action="end", id="s1")
        assert ended["handover"]["session"] == "s1"
        learned = await ok(c, "learn", mistake="booked the wrong date",
                           rule="Confirm dates before booking")
        assert learned["added"]
        md = await ok(c, "markdown", format="agents-md")
        assert "Confirm dates before booking" in md["text"]
        assert "Alice Chen" in (await ok(c, "markdown"))["text"]
        assert (await ok(c, "goal", action="done"))["goals"][0]["status"] == "done"

        before = await state(c)
        for tool, args, expected in [
            ("goal", {"action": "start"}, "needs a title"),
            ("goal", {"action": "resume"}, "needs the goal's id"),
            ("goal", {"action": "resume", "id": "nope"}, "not_found"),
            ("goal", {"action": "fly"}, "action"),
            ("session", {"action": "add", "id": "s2", "role": "user"}, "needs content"),
            ("session", {"action": "add", "id": "s3", "role": "robot", "content": "hi"},
             "role must be"),
            ("session", {"action": "add", "id": "s3", "role": "user", "content": "  "},
             "content is empty"),
            ("session", {"action": "add", "id": "s1", "role": "user", "content": "x"},
             "conflict"),
            ("session", {"id": "nope"}, "not_found"),
            ("session", {"action": "fetch", "id": "s1", "ref": "wm-nope"}, "not_found"),
            ("procedure", {"action": "add", "title": "t"}, "needs steps"),
            ("procedure", {"action": "outcome", "id": "nope", "success": True}, "not_found"),
            ("context", {"query": "x", "budget": 0}, "budget"),
            ("context", {"query": "x", "session": "nope"}, "not_found"),
            ("focus", {"query": ""}, "query is empty: give at least one character"),
            ("markdown", {"format": "html"}, "format"),
        ]:
            text = plain(await fails(c, tool, **args))
            assert expected in text, f"{tool}{args}: {text}"
        assert await state(c) == before
        assert (await ok(c, "session", action="list"))["sessions"] == ["s1"]

"""`update` and emotion (issue 21): new content with no valence or intensity given reads them
again from the new text, in English and Chinese; given values win; a value given alone keeps
the other; bad values are Invalid and write nothing. The library on both stores, the CLI and
the HTTP door."""

from __future__ import annotations

import httpx
import pytest

import test_cli
from engramdb import Invalid
from live_server import auth, new_key, thread_server
from test_cli import remember
from test_http import error

BACKENDS = ("sqlite", "postgres")
clean_env, db, cli, cli_json = test_cli.clean_env, test_cli.db, test_cli.cli, test_cli.cli_json


@pytest.mark.parametrize(("before", "after", "sign"), [
    ("We shipped the release", "The release failed and I am furious", -1),
    ("我们今天开会", "今天太开心了，项目终于上线了", 1),
    ("I adore this little café", "The café is on Main Street", 0),
])
def test_new_content_reads_the_feeling_again(me, before, after, sign):  # type: ignore[no-untyped-def]
    rec = me.remember(before, kind="event").memory
    new = me.update(rec.id, content=after)
    assert (new.valence > 0) - (new.valence < 0) == sign
    assert (new.intensity > 0) == (sign != 0)
    assert me.get(rec.id).valence == new.valence and new.version == 2


def test_given_values_win_and_one_alone_keeps_the_other(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I love my new bike", kind="event").memory
    assert rec.valence > 0 and rec.intensity > 0
    set_ = me.update(rec.id, content="My bike was stolen", valence=0.2, intensity=0.1)
    assert (set_.valence, set_.intensity) == (0.2, 0.1)
    only = me.update(rec.id, valence=-0.6)
    assert (only.valence, only.intensity) == (-0.6, 0.1)
    same = me.update(rec.id, importance=0.9)              # no content, no feeling: kept
    assert (same.valence, same.intensity) == (-0.6, 0.1)
    for field, value in (("valence", 1.5), ("intensity", -0.2), ("valence", "sad")):
        with pytest.raises(Invalid, match=field):
            me.update(rec.id, content="changed text here", **{field: value})
    assert me.get(rec.id).version == 4                    # the bad ones wrote nothing


@pytest.mark.sqlite_only
def test_cli_update_takes_and_rereads_the_feeling(cli, cli_json):  # type: ignore[no-untyped-def]
    mid = remember(cli_json, "The meeting is at noon", "--kind", "event")
    sad = cli_json("update", mid, "--content", "我很难过，我们输掉了比赛")
    assert sad["valence"] < 0 and sad["intensity"] > 0
    given = cli_json("update", mid, "--intensity", "0.3")
    assert given["intensity"] == 0.3 and given["valence"] == sad["valence"]
    cli("update", mid, "--valence", "4", code=4)


@pytest.mark.sqlite_only
def test_http_patch(mem):  # type: ignore[no-untyped-def]
    rec = mem.scope(user="alice", agent="noah").remember("Lunch is at one", kind="event").memory
    with thread_server(mem) as base, httpx.Client(
            base_url=base, headers=auth(new_key(mem, "write")), timeout=30) as api:
        glad = api.patch(f"/v1/memories/{rec.id}", json={"content": "What a wonderful lunch!"})
        assert glad.status_code == 200 and glad.json()["valence"] > 0
        set_ = api.patch(f"/v1/memories/{rec.id}", json={"valence": -0.5, "intensity": 0.5})
        assert (set_.json()["valence"], set_.json()["intensity"]) == (-0.5, 0.5)
        error(api.patch(f"/v1/memories/{rec.id}", json={"intensity": 2}), 422, "invalid")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.sqlite_only
@pytest.mark.anyio
async def test_mcp_update(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from test_mcp import fails, ok, stdio

    async with stdio(tmp_path / "m.db") as c:
        mid = (await ok(c, "remember", content="The bus is late", kind="event"))["memory"]["id"]
        glad = await ok(c, "update", id=mid, content="I am so happy, the bus came early!")
        assert glad["valence"] > 0 and glad["intensity"] > 0
        kept = await ok(c, "update", id=mid, intensity=0.25)
        assert (kept["valence"], kept["intensity"]) == (glad["valence"], 0.25)
        await fails(c, "update", id=mid, valence=-3)

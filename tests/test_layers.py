"""Layered session summaries (issue 21, working/layers.py): a summary every N turns, a higher
one every M summaries, a keyframe around each important turn, each sentence mapped to the turns
it came from; English and Chinese; the same after the store is reopened; through the library,
the CLI (`session show --layers`) and the HTTP door (GET /v1/sessions/{id})."""

from __future__ import annotations

import httpx
import pytest

import engramdb
import test_cli
from engramdb import Invalid
from live_server import auth, new_key, thread_server

clean_env, db, cli, cli_json = test_cli.clean_env, test_cli.db, test_cli.cli, test_cli.cli_json

TALK = [("user", "Hi, how are you?"), ("assistant", "Fine, thanks!"),
        ("user", "We decided to move the launch to June 12."), ("assistant", "OK."),
        ("user", "The contract with Globex is worth 40000 dollars."), ("assistant", "Noted."),
        ("user", "Ravi will review the slides."), ("assistant", "Great."),
        ("user", "我们决定用 PostgreSQL 16。"), ("assistant", "好的。"),
        ("user", "哈哈"), ("assistant", "收到"),
        ("user", "重要：周五之前不要部署。"), ("assistant", "明白。"),
        ("user", "陈静下周二来北京。"), ("assistant", "好的")]


def talk(session, pairs=TALK) -> None:  # type: ignore[no-untyped-def]
    for role, text in pairs:
        session.add(role, text)


def test_levels_and_sources(me):  # type: ignore[no-untyped-def]
    s = me.session("s1")
    talk(s)
    found = s.layers(every=4, higher=2)
    assert [x.turns for x in found.summaries] == [(1, 4), (5, 8), (9, 12), (13, 16)]
    assert [x.turns for x in found.higher_summaries] == [(1, 8), (9, 16)]
    assert [x.parts for x in found.higher_summaries] == [(0, 1), (2, 3)]
    by_seq = {t.seq: t.content for t in s.turns()}
    for summary in [*found.summaries, *found.higher_summaries, *found.keyframes]:
        for sentence in summary.sentences:
            said = sentence.text.split(": ", 1)[1]
            assert all(said in by_seq[n] for n in sentence.sources)     # checkable
            assert all(summary.turns[0] <= n <= summary.turns[1] for n in sentence.sources)
    first = found.summaries[0].text
    assert "June 12" in first and "Hi, how are you" not in first and "Fine" not in first
    assert "PostgreSQL 16" in found.summaries[2].text and "哈哈" not in found.summaries[2].text
    assert "周五之前不要部署" in found.higher_summaries[1].text
    # the higher summary holds the best of its parts' sentences, nothing else
    parts = {x.text for i in (0, 1) for x in found.summaries[i].sentences}
    assert {x.text for x in found.higher_summaries[0].sentences} <= parts


def test_a_layer_waits_for_its_turns(me):  # type: ignore[no-untyped-def]
    s = me.session("s2")
    talk(s, TALK[:7])
    found = s.layers(every=4, higher=2)
    assert len(found.summaries) == 1 and found.higher_summaries == []
    talk(s, TALK[7:8])
    assert len(s.layers(every=4, higher=2).higher_summaries) == 1
    for bad in ({"every": 1}, {"higher": 0}, {"every": "8"}, {"higher": True}):
        with pytest.raises(Invalid):
            s.layers(**bad)


def test_keyframes_marked_said_or_felt(me):  # type: ignore[no-untyped-def]
    s = me.session("s3")
    s.add("user", "Where should we host it?")
    s.add("assistant", "Frankfurt has the lowest latency for you.")
    s.add("user", "Never store card numbers in the logs", pin=True)
    s.add("user", "Remember this: the API key rotates every 30 days.")
    s.add("user", "We decided to cancel the trip, I'm furious and heartbroken!")
    s.add("user", "我们决定了，太开心了，终于签约了！")
    s.add("user", "The weather is nice")
    frames = s.layers().keyframes
    assert [(f.turns, f.reason) for f in frames] == [
        ((2, 3), "pinned"), ((3, 4), "said to be important"),
        ((4, 5), "a decision said with strong feeling"),
        ((5, 6), "a decision said with strong feeling")]
    assert frames[0].sentences[0].sources == (2,)          # what the marked turn answered
    assert frames[0].sentences[-1].text == "user: Never store card numbers in the logs"


def test_the_same_after_reopening(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        s = mem.session("s4")
        talk(s)
        before = s.layers(4, 2).to_dict()
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock) as mem:
        assert mem.session("s4", create=False).layers(4, 2).to_dict() == before


def test_cli_and_http(cli, cli_json, mem):  # type: ignore[no-untyped-def]
    for role, text in TALK[:8]:
        cli("session", "add", "c1", role, text)
    shown = cli("session", "show", "c1", "--layers", "--every", "4", "--higher", "2").stdout
    assert "[summary, turns 1-4]" in shown and "[higher summary, turns 1-8]" in shown
    assert "June 12." in shown and "(turn 3)" in shown
    data = cli_json("session", "show", "c1", "--layers", "--every", "4", "--higher", "2")
    assert [x["turns"] for x in data["summaries"]] == [[1, 4], [5, 8]]
    cli("session", "show", "c1", "--layers", "--every", "1", code=4)

    talk(mem.scope(user="alice", agent="noah").session("h1"), TALK)
    with thread_server(mem) as base, httpx.Client(
            base_url=base, headers=auth(new_key(mem, "read")), timeout=30) as api:
        got = api.get("/v1/sessions/h1").json()
        assert len(got["layers"]["summaries"]) == 2 and got["layers"]["every"] == 8
        assert got["layers"]["keyframes"][0]["reason"] == "said to be important"

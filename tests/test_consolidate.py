"""The consolidate phase: near-duplicates merge into one record, clusters of at least three
settled episodes become one traceable gist, later clusters reinforce it, a second sleep changes
nothing, and an optional LLM may reword a gist without adding or dropping a fact."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import ConfigError, Invalid
from engramdb.cli import app
from engramdb.write.prepare import index_text

WANG = ["Went to Harbin with Wang to see the ice sculptures. It was minus 25 degrees.",
        "Wang booked the hotel in Harbin for 3 nights.",
        "Dinner with Wang: dumplings near the Central Street."]
XIAOWANG = ["和小王去哈尔滨看冰雕。零下25度。", "小王在哈尔滨订了3晚的酒店。",
            "和小王在中央大街吃饺子。"]
NO_AUTO = {"auto_sleep_importance": 0}


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO) as m:
        yield m


def episodes(mem, texts, people, places=(), topics=()):  # type: ignore[no-untyped-def]
    return [mem.remember(t, kind="event", people=list(people), places=list(places),
                         topics=list(topics)).memory for t in texts]


def gists(mem):  # type: ignore[no-untyped-def]
    return list(mem.list(kind="gist", layer=["core", "archived"]))


@pytest.mark.parametrize(("texts", "person", "place", "cue"), [
    (WANG, "Wang", "Harbin", "that trip with Wang to Harbin"),
    (XIAOWANG, "小王", "哈尔滨", "和小王去哈尔滨的那次"),
])
def test_three_settled_episodes_make_one_traceable_gist(mem, clock, texts, person, place, cue):  # type: ignore[no-untyped-def]
    sources = episodes(mem, texts, [person], [place])
    clock.advance(days=14)  # unused for one half-life: weight 0.5, settled
    report = mem.sleep().phase("consolidate")
    (gist,) = gists(mem)
    assert report.ids("gist_created") == [gist.id]
    assert sorted(report.ids("consolidated")) == sorted(s.id for s in sources)
    assert (gist.kind.value, gist.priority.value, gist.layer.value) == ("gist", "P2", "core")
    assert gist.metadata["support"] == 3 and gist.metadata["theme"] == f"person:{person.lower()}"
    assert gist.derived_from == [s.id for s in sources]
    sentences = gist.metadata["sentences"]
    assert 1 <= len(sentences) <= 3
    by_id = {s.id: s for s in sources}
    for item in sentences:  # every sentence is copied from the source it names
        assert item["text"] in by_id[item["source"]].content
        assert item["text"].rstrip("。.") in gist.content
    assert "25" not in gist.content or "25" in by_id[sentences[0]["source"]].content
    assert gist.people == [person] and gist.places == [place]
    for s in sources:  # archived, never deleted, pointing at the gist, in its history
        now = mem.get(s.id)
        assert (now.layer.value, now.metadata["gist"]) == ("archived", gist.id)
        last = mem.history(s.id)[-1]
        assert (last.op, last.actor) == ("consolidate", "sleep") and gist.id in last.reason
        (link,) = mem.links(s.id)  # and linked to it
        assert (link.source, link.target, link.relation) == (s.id, gist.id, "gist_of")
    hits = mem.recall(cue, k=5, track=False)  # a strong cue still wakes the sources
    # the gist and its woken sources are one piece of evidence: the better-ranked level keeps
    # the place and names the other (recall/collapse.py)
    named = [n for h in hits for n in h.explanation.notes if gist.id in n and "level" in n]
    assert gist.id in [h.memory.id for h in hits] or named
    assert {h.memory.id for h in hits if h.woken} <= set(by_id) and any(h.woken for h in hits)


def test_two_episodes_or_fresh_ones_make_no_gist(mem, clock):  # type: ignore[no-untyped-def]
    episodes(mem, WANG[:2], ["Wang"])
    clock.advance(days=30)
    assert mem.sleep().phase("consolidate").counts() == {}
    fresh = episodes(mem, ["Lunch with Li", "Call with Li", "Walk with Li"], ["Li"])
    clock.advance(days=13)  # weight 0.5 ** (13 / 14) = 0.53: not settled yet
    assert mem.sleep().phase("consolidate").counts() == {}
    assert all(mem.get(e.id).layer.value == "core" for e in fresh)
    clock.advance(days=1)   # 14 days: exactly one half-life, weight 0.5
    assert mem.sleep().phase("consolidate").counts() == {"gist_created": 1, "consolidated": 3}
    assert gists(mem)[0].metadata["theme"] == "person:li"


def test_a_use_keeps_an_episode_out_until_it_settles(mem, clock):  # type: ignore[no-untyped-def]
    first, *_ = episodes(mem, WANG, ["Wang"])
    clock.advance(days=10)
    mem.store.record_uses(first.scope, [first.id], clock.now(), 60)
    clock.advance(days=4)  # the two unused ones settled, the used one not: 2 < 3, no gist
    assert mem.sleep().phase("consolidate").counts() == {}
    clock.advance(days=30)  # the use made it younger: weight 0.54 at day 44, still unsettled
    report = mem.sleep()
    assert report.phase("consolidate").counts() == {}
    assert len(report.phase("decay").ids("archived")) == 2  # the unused two fade meanwhile
    assert mem.get(first.id).layer.value == "core"
    assert mem.explain(first.id).weight == pytest.approx(0.5357, abs=1e-3)


def test_a_later_cluster_reinforces_and_another_theme_gets_its_own(mem, clock):  # type: ignore[no-untyped-def]
    episodes(mem, WANG, ["Wang"], ["Harbin"])
    clock.advance(days=15)
    mem.sleep()
    (gist,) = gists(mem)
    later = episodes(mem, ["Wang sent the photos of the ice lanterns.",
                           "Wang wants to go back to Harbin in 2027."], ["Wang"], ["Harbin"])
    other = episodes(mem, ["Budget call with Li about Q3.", "Li approved 12 hires.",
                           "Li moved the budget review to Friday."], ["Li"], topics=["budget"])
    clock.advance(days=15)
    report = mem.sleep().phase("consolidate")
    assert report.ids("gist_reinforced") == [gist.id]
    assert len(report.ids("gist_created")) == 1
    assert len(report.ids("consolidated")) == 5
    again = mem.get(gist.id)
    assert (again.version, again.metadata["support"]) == (2, 5)
    assert again.derived_from[-2:] == [e.id for e in later]
    assert len(again.metadata["sentences"]) == 3
    assert [v.op for v in mem.history(gist.id)] == ["create", "reinforce"]
    li = [g for g in gists(mem) if g.id != gist.id]
    assert [g.metadata["theme"] for g in li] == ["person:li"]
    assert set(li[0].derived_from) == {e.id for e in other}
    assert len(gists(mem)) == 2
    for e in later:  # the reinforced gist keeps its id: the new sources point to it
        assert mem.get(e.id).metadata["gist"] == gist.id
    assert {(link.source, link.relation) for link in mem.links(gist.id)} == {
        (i, "gist_of") for i in again.derived_from}


def test_an_archived_gist_is_reinforced_back_to_core_and_stays(mem, clock):  # type: ignore[no-untyped-def]
    episodes(mem, WANG, ["Wang"])
    clock.advance(days=15)
    mem.sleep()
    (gist,) = gists(mem)
    clock.advance(days=400)  # unused for 400 days: the gist fades to the archive
    assert mem.sleep().phase("decay").ids("archived") == [gist.id]
    told = [mem.remember(t, kind="event", people=["Wang"], at=gist.at + timedelta(days=2))
            for t in ["Wang called about 2 tickets.", "Wang sent a postcard.",
                      "Lunch with Wang at noon."]]  # told late, from the gist's own period
    assert len(told) == 3
    clock.advance(days=15)
    assert mem.sleep().phase("consolidate").ids("gist_reinforced") == [gist.id]
    again = mem.get(gist.id)
    assert (again.layer.value, again.use_count, again.metadata["support"]) == ("core", 1, 6)
    assert mem.explain(gist.id).weight > 0.9
    assert mem.sleep().changes == 0 and mem.sleep(full=True).changes == 0


def test_a_second_sleep_right_after_changes_nothing(mem, clock):  # type: ignore[no-untyped-def]
    episodes(mem, WANG, ["Wang"])
    episodes(mem, XIAOWANG, ["小王"])
    clock.advance(days=20)
    assert mem.sleep().changes > 0
    events = mem.stats().events
    again = mem.sleep()
    assert again.changes == 0 and again.visited == 0  # its own changes are not revisited
    assert mem.sleep(full=True).changes == 0
    assert mem.sleep("consolidate").changes == 0
    assert mem.stats().events == events


def imported_copy(mem, rec, content):  # type: ignore[no-untyped-def]
    """A near-duplicate that came in past the write guard (as an import or an old version
    would bring it): written to the store directly."""
    from engramdb.ids import new_id
    from engramdb.text.checks import content_hash

    copy = rec.replace(id=new_id(mem.clock.now()), content=content,
                       content_hash=content_hash(content), recorded_at=mem.clock.now())
    vec = mem.embedder.embed_batch([content])[0]
    mem.store.insert(copy, index_text(copy), vec, actor="import")
    return copy


@pytest.mark.parametrize(("text", "dup", "other"), [
    ("The weekly team standup is at 9:30 in room B every Monday morning",
     "The weekly team standup is at 9:30 in room B every Monday morning!",
     "The weekly team standup is at 10:30 in room B every Monday morning"),
    ("每周一上午九点半在B会议室开团队例会，请大家准时参加",
     "每周一上午九点半在B会议室开团队例会，请大家准时参加！！",
     "每周二上午九点半在C会议室开团队例会，请大家准时参加"),
])
def test_near_duplicates_merge_into_the_older_one(mem, clock, text, dup, other):  # type: ignore[no-untyped-def]
    first = mem.remember(text, kind="fact", people=["Ana"], importance=0.4).memory
    clock.advance(hours=1)
    second = imported_copy(mem, first, dup).replace(importance=0.9)
    mem.store.save(second, "update")
    mem.store.record_uses(second.scope, [second.id], clock.now(), 60)
    third = imported_copy(mem, first, other)  # another number or place: another fact
    clock.advance(hours=1)
    report = mem.sleep().phase("consolidate")
    assert report.ids("merged") == [second.id] and report.ids("merge_survivor") == [first.id]
    kept, gone = mem.get(first.id), mem.get(second.id)
    assert (kept.layer.value, kept.version, kept.importance, kept.use_count) == (
        "core", 2, 0.9, 1)
    assert kept.derived_from == [second.id] and kept.metadata["merged"] == [second.id]
    assert (gone.layer.value, gone.metadata["merged_into"]) == ("archived", first.id)
    assert mem.history(first.id)[-1].op == "merge" and second.id in mem.history(first.id)[-1].reason
    assert mem.history(second.id)[-1].op == "merged"
    assert mem.get(third.id).layer.value == "core"
    assert mem.sleep().changes == 0


def test_events_and_uri_memories_never_merge(mem, clock):  # type: ignore[no-untyped-def]
    event = mem.remember("Coffee with Ana at the station at 9", kind="event").memory
    imported_copy(mem, event, "Coffee with Ana at the station at 9!")
    page = mem.remember("The deploy runbook lives in the wiki", uri="knowledge://runbook").memory
    imported_copy(mem, page.replace(uri=None), "The deploy runbook lives in the wiki!")
    assert mem.sleep().phase("consolidate").ids("merged") == []


# ---------------------------------------------------------------- the optional LLM


class Chat(BaseHTTPRequestHandler):
    answer: str | None = ""
    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Chat.seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                          "body": body})
        if Chat.answer is None:
            self.send_response(500)
            self.end_headers()
            return
        payload = json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": Chat.answer}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def llm(tmp_path, clock, monkeypatch) -> Iterator[engramdb.Memory]:  # type: ignore[no-untyped-def]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Chat)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Chat.seen = []
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, llm_url=url,
                       llm_model="tiny-chat", llm_api_key="sk-test", **NO_AUTO) as m:
        yield m
    server.shutdown()


def test_a_polish_that_keeps_every_fact_is_used(llm, clock):  # type: ignore[no-untyped-def]
    Chat.answer = ("In Harbin, Wang and I saw the ice sculptures; Wang booked the hotel for "
                   "3 nights and we had dumplings near the Central Street.")
    episodes(llm, WANG, ["Wang"], ["Harbin"])
    clock.advance(days=15)
    llm.sleep()
    (gist,) = gists(llm)
    assert gist.content == Chat.answer and gist.metadata["polish"] == "polished"
    assert "Wang booked the hotel in Harbin for 3 nights." in gist.metadata["polished_from"]
    (call,) = Chat.seen
    assert call["path"] == "/v1/chat/completions" and call["auth"] == "Bearer sk-test"
    assert call["body"]["model"] == "tiny-chat"
    assert call["body"]["messages"][1]["content"] == gist.metadata["polished_from"]


@pytest.mark.parametrize(("answer", "why"), [
    ("Wang and I saw the ice sculptures in Harbin and stayed a few nights.", "dropped the number"),
    ("Wang booked 3 nights in Harbin for 400 euros near the Central Street.", "added the number"),
    ("Went to Harbin with Wang and Maria; the hotel was 3 nights; dumplings near Central "
     "Street.", "added the name"),
    (None, "failed"),
])
def test_a_polish_that_changes_a_fact_is_refused(llm, clock, answer, why):  # type: ignore[no-untyped-def]
    Chat.answer = answer
    episodes(llm, WANG, ["Wang"], ["Harbin"])
    clock.advance(days=15)
    report = llm.sleep().phase("consolidate")
    (gist,) = gists(llm)
    assert report.ids("polish_refused") == [gist.id]
    assert gist.content == " ".join(s["text"] for s in gist.metadata["sentences"])
    assert gist.metadata["polish"].startswith("kept extractive") and why in gist.metadata["polish"]


def test_a_polish_that_drops_a_chinese_name_is_refused(llm, clock):  # type: ignore[no-untyped-def]
    Chat.answer = "去哈尔滨看冰雕，订了3晚酒店，吃了饺子。"
    episodes(llm, XIAOWANG, ["小王"], ["哈尔滨"])
    clock.advance(days=15)
    llm.sleep()
    assert "小王" in gists(llm)[0].metadata["polish"]


# ---------------------------------------------------------------- doors and bad input


def test_the_cli_runs_consolidate_alone(tmp_path, clock):  # type: ignore[no-untyped-def]
    db = tmp_path / "cli.db"
    with engramdb.open(db, embedder="hashing", clock=clock) as m:
        episodes(m, WANG, ["Wang"])  # written in March 2026: long settled by the real clock
    runner = CliRunner()
    result = runner.invoke(app, ["sleep", "--phase", "consolidate", "--db", str(db),
                                 "--embedder", "hashing", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [p["phase"] for p in data["phases"]] == ["consolidate"]
    assert data["phases"][0]["counts"] == {"gist_created": 1, "consolidated": 3}
    for flags, mode in (([], "full"), ([], "incremental"), (["--full"], "full")):
        result = runner.invoke(app, ["sleep", *flags, "--db", str(db), "--embedder", "hashing",
                                     "--json"])
        assert result.exit_code == 0 and json.loads(result.output)["mode"] == mode
    result = runner.invoke(app, ["sleep", "--db", str(db), "--embedder", "hashing"])
    assert "incremental sleep, 0 memories visited" in result.output
    result = runner.invoke(app, ["sleep", "--phase", "dream", "--db", str(db),
                                 "--embedder", "hashing"])
    assert result.exit_code == 4


def test_bad_settings_and_arguments(mem, tmp_path):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="full"):
        mem.sleep(full="yes")
    with pytest.raises(ConfigError, match="llm_model"):
        engramdb.open(tmp_path / "x.db", embedder="hashing", llm_url="http://x/v1")
    for bad in (-1, float("inf")):
        with pytest.raises(ConfigError, match="auto_sleep_importance"):
            engramdb.open(tmp_path / "y.db", embedder="hashing", auto_sleep_importance=bad)


def test_the_polish_waits_as_long_as_the_configured_timeout(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO,
                       llm_url="http://127.0.0.1:9/v1", llm_model="m", llm_timeout=7.5) as m:
        polisher = m._polisher()
        assert polisher.endpoint.timeout == 7.5 and polisher._client.timeout.read == 7.5

"""Each recall hit's verdict (recall/judge.py): "approved" or "questionable" with a confidence,
from a superseding value, a newer conflicting value, a contradiction with another current
memory, the time since it was last confirmed, weak strength and who worded it; said in the
question's language, and carried by a real `engramdb serve` process and a real MCP stdio
server."""

from __future__ import annotations

import httpx
import pytest

import engramdb
from engramdb.decode import hits as decoded
from live_server import auth, new_key, serve_process


def codes(hit):  # type: ignore[no-untyped-def]
    return {r.code for r in hit.verdict.reasons if r.weight >= 0.05}


def hit_of(hits, text):  # type: ignore[no-untyped-def]
    return next(h for h in hits if h.memory.content == text)


def test_a_fresh_fact_the_user_stated_is_approved(me):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin", kind="fact")
    hit = me.recall("where do I live?", k=1)[0]
    assert hit.verdict.label == "approved" and hit.verdict.confidence > 0.99
    assert codes(hit) == set()
    assert hit.verdict.text() == "approved (1.00)"
    assert "approved" not in hit.why                       # the why stays recall/why.py's
    assert hit.to_dict()["verdict"]["label"] == "approved"


def test_a_superseded_value_is_questionable(me, clock):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin", kind="fact")
    clock.advance(days=10)
    assert me.remember("I moved to Oslo", kind="fact").action.value == "supersede"
    hits = me.recall("where did I live before?", k=3)
    old = hit_of(hits, "I live in Berlin")
    assert old.verdict.label == "questionable" and old.verdict.confidence >= 0.9
    assert "superseded" in codes(old)
    said = old.verdict.text()
    assert said.startswith("questionable (0.9") and "superseded by a newer value" in said
    assert hit_of(hits, "I moved to Oslo").verdict.label == "approved"


def test_a_newer_conflicting_value_makes_the_older_questionable(me, clock):  # type: ignore[no-untyped-def]
    turn = {"role": "user"}   # turns of a conversation are never superseded, only ordered
    me.remember("The standup is at 9:15", kind="event", metadata=turn)
    clock.advance(days=3)
    me.remember("The standup is now at 9:30", kind="event", metadata=turn)
    hits = me.recall("when is the standup?", k=2)
    older = hit_of(hits, "The standup is at 9:15")
    newer = hit_of(hits, "The standup is now at 9:30")
    assert "newer_value" in codes(older) and older.verdict.label == "questionable"
    detail = next(r.detail for r in older.verdict.reasons if r.code == "newer_value")
    assert detail == newer.memory.id
    assert newer.verdict.label == "approved"


def test_two_current_values_of_one_slot_contradict(me):  # type: ignore[no-untyped-def]
    a = me.remember("I live in Berlin", kind="fact").memory
    b = me.remember("I work at Tyrell", kind="fact").memory
    me.update(b.id, content="I live in Paris")          # an edit runs no supersession
    hits = me.recall("where do I live?", k=2)
    assert {h.memory.id for h in hits} == {a.id, b.id}
    for h in hits:
        assert "contradicted" in codes(h) and h.verdict.label == "questionable"
    me.forget(b.id)
    assert me.recall("where do I live?", k=1)[0].verdict.label == "approved"


def test_time_unconfirmed_and_a_confirmation(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I prefer green tea", kind="preference", importance=0.5).memory
    clock.advance(days=90)
    half = me.recall("green tea", k=1, track=False)[0]
    assert half.verdict.label == "approved" and "unconfirmed" in codes(half)
    assert 0.65 < half.verdict.confidence < 0.75            # 2 ** -0.5 of the period
    clock.advance(days=200)
    late = me.recall("green tea", k=1, track=False)[0]
    assert late.verdict.label == "questionable"
    assert "unconfirmed for 290 days" in late.verdict.text()
    me.confirm(rec.id)
    assert me.recall("green tea", k=1, track=False)[0].verdict.label == "approved"


def test_weak_memories_and_the_assistants_words_are_doubted(me, clock):  # type: ignore[no-untyped-def]
    me.remember("We hiked up the Brocken in the rain", kind="event")
    clock.advance(days=200)                              # an episode fades in weeks
    hit = me.recall("Brocken hike", k=1, track=False)[0]
    assert "weak" in codes(hit) and hit.verdict.label == "approved"
    me.ingest([{"role": "user", "content": "Book the table for Friday"},
               {"role": "assistant", "content": "The table is booked for 8 pm at Lucia"}],
              extractor="rules")
    hits = me.recall("table booked Lucia", k=3, track=False)
    said = hit_of(hits, "The table is booked for 8 pm at Lucia")
    assert "by_assistant" in codes(said)
    user = next(h for h in hits if h.memory.content == "Book the table for Friday")
    assert "by_assistant" not in codes(user)


def test_the_verdict_in_chinese_and_back_from_its_dict(me, clock):  # type: ignore[no-untyped-def]
    me.remember("我住在北京", kind="fact", importance=0.5)
    clock.advance(days=400)
    hits = me.recall("我住在哪里？", k=1, track=False)
    assert hits[0].verdict.label == "questionable"
    said = hits[0].verdict.text()
    assert said.startswith("存疑 (0.") and "400 天未确认" in said
    assert hits[0].verdict.text("en").startswith("questionable (0.")
    again = decoded(hits.to_dict())
    assert again[0].verdict.to_dict() == hits[0].verdict.to_dict()
    assert again[0].why == hits[0].why
    assert hits.to_dict()["hits"][0]["verdict"]["text"] == said


def test_http_and_mcp_hits_carry_the_verdict(tmp_path):  # type: ignore[no-untyped-def]
    import anyio

    from test_mcp import ok, stdio

    db = tmp_path / "m.db"
    with engramdb.open(db, embedder="hashing") as mem:
        mem.remember("I live in Berlin", kind="fact", at="2020-01-01")
        key = new_key(mem, "read", user="default", agent="default")
    with serve_process(db) as url, httpx.Client(base_url=url, headers=auth(key)) as http:
        r = http.post("/v1/recall", json={"query": "where do I live?", "k": 1})
        assert r.status_code == 200
        verdict = r.json()["hits"][0]["verdict"]
        assert verdict["label"] == "questionable" and verdict["confidence"] > 0.9
        assert [x["code"] for x in verdict["reasons"]] == ["unconfirmed"]
        assert verdict["text"].startswith("questionable (")

    async def over_mcp() -> None:
        async with stdio(db) as c:
            found = await ok(c, "recall", query="where do I live?", k=1)
            assert found["hits"][0]["verdict"]["label"] == "questionable"
            assert "verdict: questionable (" in found["_text"]

    anyio.run(over_mcp)


@pytest.mark.parametrize("query", ["where do I live?", "我住在哪里？"])
def test_every_hit_has_a_verdict(me, query):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin", kind="fact")
    me.remember("我住在北京", kind="fact")
    for h in me.recall(query, k=5):
        assert h.verdict is not None and 0.5 <= h.verdict.confidence <= 1
        assert h.verdict.label in ("approved", "questionable")

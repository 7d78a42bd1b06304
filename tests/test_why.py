"""A hit's why in one line a person can read (recall/why.py): for each way a hit is found, in
English and Chinese, on a real SQLite file with a frozen clock; the line at the MCP door (the
CLI's and the HTTP server's are in test_cli.py and test_http.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

import engramdb
from engramdb.mcp import Door, Options, build_server
from engramdb.recall.why import age, describe
from engramdb.testing import FrozenClock


def days_ago(clock: FrozenClock, n: float) -> datetime:
    return clock.now() - timedelta(days=n)


def whys(hits: Any) -> dict[str, str]:
    return {h.memory.content: h.why for h in hits}


# ---------------------------------------------------------------- words, as written


def test_the_words_asked_as_the_memory_writes_them(mem, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember("The quarterly report is due on Friday", at=days_ago(clock, 2))
    mem.remember("Maya lives in Berlin now", at=days_ago(clock, 3))
    mem.remember("我最喜欢的菜是饺子", kind="preference", at=days_ago(clock, 5))
    mem.remember("I like green tea", kind="preference", at=days_ago(clock, 10))
    top = mem.recall("quarterly report", k=1, track=False)[0]
    assert top.why == "every word asked: 'quarterly', 'report' · 2 days ago"
    assert mem.recall("Maya", k=1, track=False)[0].why == "the word 'Maya' · 3 days ago"
    assert mem.recall("饺子", k=1, track=False)[0].why == "the word '饺子' · 5 days ago"
    assert mem.recall("我最喜欢的菜", k=1, track=False)[0].why.startswith(
        "every word asked: '最喜欢', '菜' · 5 days ago")
    # a hit that holds no word of the query says so, rather than naming legs
    rest = whys(mem.recall("green tea", k=3, track=False))
    assert rest["I like green tea"] == "every word asked: 'green', 'tea' · 10 days ago"
    weak = [w for c, w in rest.items() if c != "I like green tea"]
    assert weak and all(w.startswith("no word asked; only loosely related") for w in weak)


def test_the_line_is_in_to_dict_and_the_terms_stay(mem, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember("The quarterly report is due on Friday", at=days_ago(clock, 2))
    hit = mem.recall("report", k=1, track=False).to_dict()["hits"][0]
    assert hit["why"] == "the word 'report' · 2 days ago"
    assert {"legs", "fused", "strength", "terms", "final", "notes"} <= set(hit["explanation"])
    assert hit["explanation"]["terms"]["relevance"] > 0 and hit["woken"] is False


# ---------------------------------------------------------------- people, places, topics


@pytest.mark.parametrize(("content", "people", "places", "query", "line"), [
    ("Ana moved to Berlin", ["Ana"], ["Berlin"], "what about Ana in Berlin?",
     "same person as asked: Ana · same place as asked: Berlin · 3 days ago"),
    ("我和安娜在柏林喝咖啡", ["安娜"], ["柏林"], "安娜在柏林做什么",
     "same person as asked: 安娜 · same place as asked: 柏林 · 3 days ago"),
])
def test_the_person_and_place_asked(mem, clock, content, people, places, query, line) -> None:  # type: ignore[no-untyped-def]
    mem.remember(content, people=people, places=places, at=days_ago(clock, 3))
    mem.remember("The quarterly report is due on Friday")
    assert mem.recall(query, k=1, track=False)[0].why == line


def test_an_anchor_and_other_words(mem, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember("Ski trip to Hokkaido with Wang", kind="event", people=["Wang"],
                 at=days_ago(clock, 20))
    assert mem.recall("that ski trip with Wang", k=1, track=False)[0].why == \
        "same person as asked: Wang · the words 'Ski', 'trip' · 3 weeks ago"


# ---------------------------------------------------------------- newest and earlier values


@pytest.mark.parametrize(("old", "new", "now_q", "past_q", "name"), [
    ("Maya lives in Paris", "Maya lives in Berlin now", "where does Maya live?",
     "where did Maya live before?", "Maya"),
    ("王磊住在成都", "王磊搬到了上海", "王磊住在哪里", "王磊以前住在哪里", "王磊"),
])
def test_newest_and_earlier_values_of_the_asked_slot(mem, clock, old, new, now_q, past_q,  # type: ignore[no-untyped-def]
                                                      name) -> None:
    mem.remember(old, at=days_ago(clock, 40))
    assert mem.remember(new, at=days_ago(clock, 2)).action.value == "supersede"
    current = mem.recall(now_q, k=1, track=False)[0]
    assert current.memory.content == new
    assert f"newest value of {name}'s residence · 2 days ago" in current.why
    past = whys(mem.recall(past_q, k=2, track=False))
    replaced = (datetime(2026, 2, 27, 12, tzinfo=UTC)).date()
    assert (f"earlier value of {name}'s residence, replaced by '{new}' on {replaced} "
            "· 6 weeks ago") in past[old]
    assert f"newest value of {name}'s residence (was '{old}') · 2 days ago" in past[new]


# ---------------------------------------------------------------- the archive, links


WORK = ["The quarterly report is due on Friday", "My manager asked for the budget slides",
        "I work at Acme as an engineer", "The team moved to the new office"]


@pytest.mark.parametrize(("content", "people", "places", "cue", "line"), [
    ("went to Harbin with Wang to see the ice sculptures", ["Wang"], ["Harbin"],
     "that trip with Wang to Harbin", "woken from the archive by person Wang, place Harbin"),
    ("和小王去哈尔滨看冰雕", ["小王"], ["哈尔滨"], "那次和小王去哈尔滨的旅行",
     "woken from the archive by person 小王, place 哈尔滨"),
])
def test_woken_from_the_archive_by_the_cues(mem, clock, content, people, places, cue,  # type: ignore[no-untyped-def]
                                            line) -> None:
    trip = mem.remember(content, kind="event", people=people, places=places).memory
    for text in WORK:
        mem.remember(text)
    clock.advance(days=120)
    assert mem.sleep().phase("decay").ids("archived") == [trip.id]
    assert mem.recall(cue, k=3, track=False)[0].why == f"{line} · 4 months ago"
    assert mem.recall(cue, k=3)[0].why == f"{line}, brought back · 4 months ago"


def test_linked_to_a_top_hit_and_links_away(mem, clock) -> None:  # type: ignore[no-untyped-def]
    a = mem.remember("Ski trip to Hokkaido with Wang", kind="event").memory
    b = mem.remember("The snow season starts in December", kind="fact").memory
    mem.link(a.id, b.id, "reminds", 0.8)
    clock.advance(days=1)
    lines = whys(mem.recall("that ski trip with Wang", k=3, track=False, preset="lexical"))
    assert lines[b.content] == "linked to a top hit: 'Ski trip to Hokkaido with Wang' · yesterday"
    assert [h.why for h in mem.related(a.id, 1)] == ["1 link away by reminds · yesterday"]


# ---------------------------------------------------------------- time


@pytest.mark.parametrize(("query", "expr"), [
    ("what did I do in February 2026?", "February 2026"), ("2026年2月我做了什么", "2026年2月")])
def test_the_time_asked(mem, clock, query, expr) -> None:  # type: ignore[no-untyped-def]
    mem.remember("Dinner with Lee at the ramen place", kind="event", at=days_ago(clock, 9))
    mem.remember("我在Acme工作", at=days_ago(clock, 60))
    lines = whys(mem.recall(query, k=3, track=False))
    assert lines["Dinner with Lee at the ramen place"] == \
        f"in the time asked: {expr} · 9 days ago"          # an event: it happened then
    assert lines["我在Acme工作"] == f"held during the time asked: {expr} · 2 months ago"


@pytest.mark.parametrize(("delta", "said"), [
    (timedelta(hours=3), "today"), (timedelta(hours=30), "yesterday"),
    (timedelta(days=3), "3 days ago"), (timedelta(days=20), "3 weeks ago"),
    (timedelta(days=100), "3 months ago"), (timedelta(days=800), "2 years ago"),
    (timedelta(days=-5), "in 5 days"), (timedelta(days=-1.5), "tomorrow"),
])
def test_age_in_the_largest_unit_that_fits(delta: timedelta, said: str) -> None:
    now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert age(now - delta, now) == said


def test_the_line_needs_no_store(mem, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember("Maya lives in Berlin now", at=days_ago(clock, 3))
    hits = mem.recall("where does Maya live?", k=1, track=False)
    line = hits[0].why
    hits[0].explanation.summary = ""
    mem.close()  # nothing left to ask: the line comes from the hit, the plan and the clock
    describe(hits, "where does Maya live?", clock.now(), hits.plan)
    assert hits[0].why == line == ("every word asked: 'Maya', 'lives' · newest value of Maya's "
                                   "residence · 3 days ago")


# ---------------------------------------------------------------- across languages


def test_matched_across_languages(tmp_path: Path, clock: FrozenClock) -> None:
    """The default embedder (two models): a question in one language, a memory in the other."""
    with engramdb.open(tmp_path / "m.db", clock=clock) as mem:
        for text in ("Ana moved to Berlin last spring", "I love hiking in the Alps",
                     "The quarterly report is due on Friday", "我最喜欢的菜是饺子",
                     "周末和小王去爬山", "我的猫叫咪咪"):
            mem.remember(text, at=days_ago(clock, 4))
        moved = mem.recall("她搬到哪个城市了", k=1, track=False)[0]
        assert moved.memory.content == "Ana moved to Berlin last spring"
        assert moved.why == "matched across languages: close in meaning · 4 days ago"
        food = mem.recall("what is my favourite food?", k=1, track=False)[0]
        assert food.memory.content == "我最喜欢的菜是饺子"
        assert food.why == "matched across languages: close in meaning · 4 days ago"


# ---------------------------------------------------------------- the MCP door


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_mcp_recall_gives_the_line(tmp_path: Path, clock: FrozenClock) -> None:
    def opener(*_: Any, **__: Any) -> engramdb.Memory:
        return engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock)

    async with Client(build_server(Door(Options(tools="all"), opener=opener))) as c:
        await c.call_tool("remember", {"content": "我周末喜欢去吃火锅", "kind": "preference",
                                       "at": "2026-02-22"})
        await c.call_tool("remember", {"content": "I moved to Berlin", "at": "2026-02-28"})
        for query, line in (("火锅", "the word '火锅' · 7 days ago"),
                            ("Berlin", "the word 'Berlin' · yesterday")):
            r = await c.call_tool("recall", {"query": query, "k": 1, "track": False})
            assert not r.is_error and isinstance(r.structured_content, dict)
            hit = r.structured_content["hits"][0]
            assert hit["why"] == line and hit["explanation"]["legs"]  # the terms stay too
            assert f"why: {line}" in r.content[0].text

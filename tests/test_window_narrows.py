"""A time window read from the question narrows, it does not erase: what falls inside it is
ranked first, the best matches outside it still come back, each explained as outside the asked
window, and recall abstains only when nothing matches the rest of the question either. In
English and Chinese, on real SQLite files, with the clock frozen at Wednesday 4 March 2026."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.testing import FrozenClock, HashingEmbedder

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def d(y: int, m: int, day: int) -> datetime:
    return datetime(y, m, day, tzinfo=UTC)


@pytest.fixture
def mem(tmp_path) -> Iterator[engramdb.Memory]:  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "window.db", embedder="hashing", clock=FrozenClock(NOW)) as m:
        yield m


def outside(hit) -> bool:  # type: ignore[no-untyped-def]
    return any(n.startswith("outside the asked window") for n in hit.explanation.notes)


def inside(hit) -> bool:  # type: ignore[no-untyped-def]
    return any(n.startswith("in the window") for n in hit.explanation.notes)


def contents(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.memory.content for h in hits]


@pytest.fixture
def mel(mem):  # type: ignore[no-untyped-def]
    """A conversation from 2023 stored turn by turn, each turn at its session's date: Mel
    tells on 2 April what she painted in March."""
    me = mem.scope(user="caroline", agent="chat")
    me.remember("Mel: we went camping by the lake", kind="event", at=d(2023, 3, 15))
    me.remember("Mel: last month I painted a sunrise over the lake", kind="event",
                at=d(2023, 4, 2))
    me.remember("Mel: the kids start school next week", kind="event", at=d(2023, 8, 20))
    return me


def test_the_window_ranks_what_falls_inside_first_and_keeps_the_answer(mel):  # type: ignore[no-untyped-def]
    hits = mel.recall("What did Mel paint in March 2023?", k=5, track=False)
    assert hits.plan["window"]["applied"] and not hits.abstained
    assert hits[0].memory.content == "Mel: we went camping by the lake" and inside(hits[0])
    painted = next(h for h in hits if "painted" in h.memory.content)
    assert outside(painted)
    assert ("outside the asked window between 2023-03-01 and 2023-04-01 (at 2023-04-02)"
            in "; ".join(painted.explanation.notes))
    assert hits.note == ""  # something fell inside the window
    assert hits.plan["stages"]["window"]["inside"] == 1


def test_nothing_inside_the_window_still_returns_the_best_matches(mel):  # type: ignore[no-untyped-def]
    hits = mel.recall("What did Mel paint on 20 March 2023?", k=5, track=False)
    assert not hits.abstained and hits
    assert hits[0].memory.content == "Mel: last month I painted a sunrise over the lake"
    assert all(outside(h) for h in hits)
    assert hits.note.startswith("nothing remembered on 2023-03-20 matches this query; "
                                "the nearest related memory is from 2023-03-15")
    assert hits.note.endswith("the best matches outside the window are returned")


def test_a_full_window_keeps_the_outside_ones_out(mel):  # type: ignore[no-untyped-def]
    mel.remember("Mel: we hiked to the lake", kind="event", at=d(2023, 3, 20))
    hits = mel.recall("Where did Mel go to the lake in March 2023?", k=2, track=False)
    assert len(hits) == 2 and all(inside(h) for h in hits)
    assert set(contents(hits)) == {"Mel: we went camping by the lake",
                                   "Mel: we hiked to the lake"}


def test_chinese_last_week_ranks_first_and_keeps_the_rest(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="li")
    me.remember("我和小王去看了电影", kind="event", at=d(2026, 2, 25))       # 上周
    me.remember("我画了一幅西湖的日出", kind="event", at=d(2026, 3, 3))       # 昨天
    me.remember("我画了一只猫", kind="event", at=d(2026, 1, 20))             # 一月
    hits = me.recall("我上周画了什么", k=5, track=False)
    assert hits.plan["window"]["label"] == "between 2026-02-23 and 2026-03-02"
    assert hits.plan["window"]["applied"] and not hits.abstained
    first, *rest = hits
    assert inside(first) and first.memory.content == "我和小王去看了电影"
    assert {"我画了一幅西湖的日出", "我画了一只猫"} <= set(contents(rest))
    assert all(outside(h) for h in rest)


def test_chinese_empty_window_says_so_and_returns_the_matches(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="li")
    me.remember("我画了一幅西湖的日出", kind="event", at=d(2026, 3, 3))
    me.remember("我画了一只猫", kind="event", at=d(2026, 1, 20))
    hits = me.recall("我三天前画了什么", k=5, track=False)   # 2026-03-01: nothing then
    assert not hits.abstained and set(contents(hits)) == {"我画了一幅西湖的日出", "我画了一只猫"}
    assert all(outside(h) for h in hits)
    assert hits.note.startswith("nothing remembered on 2026-03-01 matches this query; "
                                "the nearest related memory is from 2026-03-03")


def test_english_in_march_2023_on_facts(mem):  # type: ignore[no-untyped-def]
    """A fact is inside a window its span meets; one written later follows it."""
    me = mem.scope(user="bo")
    me.remember("Bo works at the bakery", kind="fact", at=d(2023, 1, 5))
    me.remember("Bo works at the library", kind="fact", at=d(2024, 6, 1))
    hits = me.recall("where did Bo work in March 2023", k=5, track=False)
    assert contents(hits)[0] == "Bo works at the bakery" and inside(hits[0])
    assert "Bo works at the library" in contents(hits[1:])
    assert outside(hits[contents(hits).index("Bo works at the library")])


class FlooredEmbedder(HashingEmbedder):
    relevance_floor = 0.5


def test_abstains_only_when_nothing_matches_the_rest_either(tmp_path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "floor.db", embedder=FlooredEmbedder(),
                       clock=FrozenClock(NOW)) as mem:
        mem.remember("Mel: I painted a sunrise", kind="event", at=d(2023, 4, 2))
        off = mem.recall("zebra migration patterns in March 2023", k=3, track=False)
        assert off.abstained and not off and "relevance floor" in off.note
        on = mem.recall("what did Mel paint in March 2023", k=3, track=False)
        assert not on.abstained and contents(on) == ["Mel: I painted a sunrise"]
        assert outside(on[0]) and on.note.startswith("nothing remembered between 2023-03-01")


def test_a_range_is_one_window_in_english_and_chinese(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="john")
    me.remember("John: I'm in Chicago for a tournament", kind="event", at=d(2023, 8, 11))
    me.remember("John: back home from Chicago with the team", kind="event", at=d(2023, 8, 17))
    hits = me.recall("Where was John between August 11 and August 15 2023?", k=5, track=False)
    assert hits.plan["window"]["label"] == "between 2023-08-11 and 2023-08-16"
    assert contents(hits) == ["John: I'm in Chicago for a tournament",
                              "John: back home from Chicago with the team"]
    assert inside(hits[0]) and outside(hits[1])
    zh = mem.scope(user="wang")
    zh.remember("我在杭州开会", kind="event", at=d(2023, 5, 3))
    zh.remember("我从杭州回来了", kind="event", at=d(2023, 5, 20))
    hits = zh.recall("我2023年5月1日到5月8日在哪里", k=5, track=False)
    assert hits.plan["window"]["label"] == "between 2023-05-01 and 2023-05-09"
    assert contents(hits)[0] == "我在杭州开会" and inside(hits[0])
    assert all(outside(h) for h in hits[1:])

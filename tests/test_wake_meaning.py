"""Waking by meaning (recall/wakemeaning.py): a query that means an archived memory's topic
wakes it next to a named anchor, in English and Chinese; with the real USE model (pure numpy,
no download)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.testing import FrozenClock

WORK = ["The quarterly report is due on Friday", "My manager asked for the budget slides",
        "I work at Acme as an engineer", "The team moved to the new office"]


@pytest.fixture(scope="module")
def archived(tmp_path_factory):  # type: ignore[no-untyped-def]
    clock = FrozenClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    with engramdb.open(tmp_path_factory.mktemp("wm") / "m.db", embedder="use",
                       clock=clock) as mem:
        trip = mem.remember("travelled around Norway with Wang for two weeks", kind="event",
                            people=["Wang"], topics=["travel"]).memory
        for text in WORK:
            mem.remember(text)
        clock.advance(days=120)
        assert mem.sleep().phase("decay").ids("archived") == [trip.id]
        yield mem, trip


@pytest.mark.parametrize("cue", ["that trip with Wang", "Wang's journey", "和Wang的旅行"])
def test_a_query_that_means_the_topic_wakes_it(archived, cue):  # type: ignore[no-untyped-def]
    mem, trip = archived
    hits = mem.recall(cue, k=5, track=False)
    woken = [h for h in hits if h.woken]
    assert [h.memory.id for h in woken] == [trip.id]
    assert "person Wang, meaning" in woken[0].explanation.notes[0]


def test_the_exact_word_alone_is_no_longer_needed_but_a_cue_still_is(archived):  # type: ignore[no-untyped-def]
    mem, _ = archived
    assert not [h for h in mem.recall("how is work going", k=5, track=False) if h.woken]
    # the person named, but the rest means something else: no second kind
    assert not [h for h in mem.recall("what did Wang cook", k=5, track=False) if h.woken]


DAYS = ["I work at Acme as an engineer", "My manager asked for the budget slides",
        "The team moved to the new office", "I play five-a-side football on Tuesdays",
        "My sister lives in Leeds", "I prefer tea to coffee", "The car needs new tyres",
        "I am reading a novel about whales", "Our landlord raised the rent", "I take the bus",
        "我每天早上跑步", "我喜欢吃辣", "我妹妹在上海读书", "周末常去图书馆", "我在学日语",
        "公司搬到了新大楼", "我对猫毛过敏", "家里的洗衣机是新买的", "我习惯晚上写日记",
        "我们组下个月团建"]
PIPE = "Our kitchen pipe burst at three in the morning and soaked the hallway carpet"


def fade_one(path, episode: str, embedder: str):  # type: ignore[no-untyped-def]
    """``episode`` archived among the DAYS facts in two languages (the background), at
    ``path``; (path, clock, the episode's record)."""
    clock = FrozenClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    with engramdb.open(path, embedder=embedder, clock=clock) as mem:
        record = mem.remember(episode, kind="event").memory
        for text in DAYS:
            mem.remember(text, kind="fact", priority="P0")
        clock.advance(days=120)
        mem.sleep()
        assert mem.get(record.id).layer.value == "archived"
    return path, clock, record


@pytest.fixture(scope="module")
def faded(tmp_path_factory):  # type: ignore[no-untyped-def]
    return fade_one(tmp_path_factory.mktemp("wm2") / "m.db", PIPE, "use")


@pytest.mark.parametrize("cue", ["the night the plumbing leaked all over the floor",
                                 "厨房水管半夜爆了那次"])
def test_a_cue_that_means_it_wakes_it_without_anchors(faded, cue):  # type: ignore[no-untyped-def]
    path, clock, pipe = faded
    with engramdb.open(path, embedder="use", clock=clock) as mem:
        hits = mem.recall(cue, k=3, track=False)
        woken = [h for h in hits if h.woken]
        assert [h.memory.id for h in woken] == [pipe.id]
        assert "meaning stands out by" in woken[0].explanation.notes[0]
        assert woken[0].explanation.terms["strong_cue"] == 0.0   # a weak wake: not promoted
        assert hits[0].memory.id == pipe.id


@pytest.mark.parametrize("cue", ["how do I bake sourdough bread", "推荐一部好看的电影"])
def test_a_cue_about_something_else_wakes_nothing(faded, cue):  # type: ignore[no-untyped-def]
    path, clock, _ = faded
    with engramdb.open(path, embedder="use", clock=clock) as mem:
        assert not [h for h in mem.recall(cue, k=5, track=False) if h.woken]


@pytest.fixture(scope="module")
def faded_mixed(tmp_path_factory):  # type: ignore[no-untyped-def]
    """With the default embedder, whose final ranking of a scope in both languages re-scores
    the first candidates on the cross-lingual leg (recall/mixedrank.py)."""
    return fade_one(tmp_path_factory.mktemp("wm3") / "m.db",
                    "At the Porto marina, Captain Ruiz lent us his dinghy for the regatta",
                    "default")


def test_a_woken_memory_keeps_its_place_in_a_scope_of_two_languages(faded_mixed):  # type: ignore[no-untyped-def]
    path, clock, boat = faded_mixed
    with engramdb.open(path, clock=clock) as mem:
        hits = mem.recall("Porto marina Ruiz dinghy regatta", k=3, track=False)
        assert hits[0].memory.id == boat.id and hits[0].woken


def test_a_standing_against_the_question_bank_lifts_a_wake_by_at_most_its_cap() -> None:
    from engramdb.recall.wakemeaning import BANK_SHIFT, LIFT, lift

    standing = {"near": 1.8, "far": 0.2, "high": 4.0, "unbanked": 1.0}
    banked = {"near": BANK_SHIFT + 2.2, "far": BANK_SHIFT + 9.0, "high": BANK_SHIFT + 3.0}
    assert lift(standing, banked) == pytest.approx({"near": 2.2, "far": 0.2 + LIFT})
    assert lift(standing, {}) == {}


def test_waking_reads_the_bank_for_memories_in_the_questions_language_only(faded_mixed,  # type: ignore[no-untyped-def]
                                                                          monkeypatch):
    from engramdb.recall import wakemeaning

    path, clock, boat = faded_mixed
    seen: list[dict[str, float]] = []

    def spy(standing, banked):  # type: ignore[no-untyped-def]
        seen.append(dict(banked))
        return {}

    monkeypatch.setattr(wakemeaning, "lift", spy)
    with engramdb.open(path, clock=clock) as mem:
        chinese = {m.id for m in mem.list(limit=100) if not m.content.isascii()}
        mem.recall("Do you remember the day we borrowed a little boat for a race?", k=3,
                   track=False)
        mem.recall("还记得那次借小船去参加帆船比赛吗？", k=3, track=False)
    assert len(seen) == 2
    assert boat.id in seen[0] and not set(seen[0]) & chinese   # English memories only
    assert boat.id not in seen[1] and set(seen[1]) <= chinese  # the archived boat is English


WINE = "At Priya's housewarming I knocked a glass of red wine over her new cream rug"
MOONCAKES = "去年中秋在姑姑家做月饼，烤箱温度调太高，一盘全烤焦了"


@pytest.fixture(scope="module", params=[WINE, MOONCAKES])
def faded_episode(request, tmp_path_factory):  # type: ignore[no-untyped-def]
    return fade_one(tmp_path_factory.mktemp("wm4") / "m.db", request.param, "default")


ASKED = {WINE: ["What's the best stain remover for wine?"],
         MOONCAKES: ["烤月饼的时候烤箱温度设多少比较好？", "月饼怎么做才不会烤焦？"]}
CUED = {WINE: ["the party where I spilled wine on Priya's rug"],
        MOONCAKES: ["那次做月饼全烤糊了", "the mooncakes I burnt at my aunt's"]}


def test_a_question_about_the_world_wakes_no_episode_of_its_topic(
        faded_episode, monkeypatch):  # type: ignore[no-untyped-def]
    """Its topic is the episode's, and its meaning stands out toward it as a cue's would (with
    the test off, each wakes it); but it asks about the world (recall/worldly.py
    ``wakes_nothing``), and a cue of the episode still wakes it, in either language."""
    from engramdb.recall import worldly

    path, clock, episode = faded_episode
    questions, cues = ASKED[episode.content], CUED[episode.content]
    with engramdb.open(path, clock=clock) as mem:
        for question in questions:
            assert not [h for h in mem.recall(question, k=3, track=False) if h.woken]
        for cue in cues:
            woken = [h for h in mem.recall(cue, k=3, track=False) if h.woken]
            assert [h.memory.id for h in woken] == [episode.id]
        monkeypatch.setattr(worldly, "WAKES_NOT", float("inf"))
        for question in questions:
            woken = [h for h in mem.recall(question, k=3, track=False) if h.woken]
            assert [h.memory.id for h in woken] == [episode.id]
            assert "meaning stands out by" in woken[0].explanation.notes[0]

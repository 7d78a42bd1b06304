"""Reading with time, in English and Chinese: the window a query names, present and past
questions over superseded facts, and honest abstention. The clock is frozen at Wednesday
4 March 2026, 12:00 UTC, so every window below can be checked on a calendar."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engramdb
from engramdb.model import Record
from engramdb.testing import FrozenClock, HashingEmbedder
from engramdb.text.timewindow import LATEST, occasion, parse_window

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday


def d(y: int, m: int, day: int) -> datetime:
    return datetime(y, m, day, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "anchored"), [
    ("what did I do yesterday", d(2026, 3, 3), d(2026, 3, 4), False),
    ("我昨天做了什么", d(2026, 3, 3), d(2026, 3, 4), False),
    ("the day before yesterday", d(2026, 3, 2), d(2026, 3, 3), False),
    ("前天", d(2026, 3, 2), d(2026, 3, 3), False),
    ("what happened last week", d(2026, 2, 23), d(2026, 3, 2), False),
    ("上周发生了什么", d(2026, 2, 23), d(2026, 3, 2), False),
    ("last month", d(2026, 2, 1), d(2026, 3, 1), False),
    ("上个月", d(2026, 2, 1), d(2026, 3, 1), False),
    ("上一个月花了多少", d(2026, 2, 1), d(2026, 3, 1), False),
    ("上一周去了哪里", d(2026, 2, 23), d(2026, 3, 2), False),
    ("上一个星期", d(2026, 2, 23), d(2026, 3, 2), False),
    ("上一年在哪工作", d(2025, 1, 1), d(2026, 1, 1), False),
    ("this year", d(2026, 1, 1), d(2027, 1, 1), False),
    ("今年", d(2026, 1, 1), d(2027, 1, 1), False),
    ("last year", d(2025, 1, 1), d(2026, 1, 1), False),
    ("去年", d(2025, 1, 1), d(2026, 1, 1), False),
    ("what did Li do in May 2023", d(2023, 5, 1), d(2023, 6, 1), True),
    ("李2023年5月做了什么", d(2023, 5, 1), d(2023, 6, 1), True),
    ("on 8 May 2023", d(2023, 5, 8), d(2023, 5, 9), True),
    ("on May 8, 2023", d(2023, 5, 8), d(2023, 5, 9), True),
    ("2023-05-08", d(2023, 5, 8), d(2023, 5, 9), True),
    ("2023年5月8日", d(2023, 5, 8), d(2023, 5, 9), True),
    ("2024-03", d(2024, 3, 1), d(2024, 4, 1), True),
    ("in 2024", d(2024, 1, 1), d(2025, 1, 1), True),
    ("3 days ago", d(2026, 3, 1), d(2026, 3, 2), False),
    ("三天前", d(2026, 3, 1), d(2026, 3, 2), False),
    ("two weeks ago", d(2026, 2, 16), d(2026, 2, 23), False),
    ("去年三月", d(2025, 3, 1), d(2025, 4, 1), False),
    ("上周三", d(2026, 2, 25), d(2026, 2, 26), False),
    ("上周日", d(2026, 3, 1), d(2026, 3, 2), False),
    ("last Friday", d(2026, 2, 27), d(2026, 2, 28), False),
    ("last Wednesday", d(2026, 2, 25), d(2026, 2, 26), False),
    ("what did I do today", d(2026, 3, 4), d(2026, 3, 5), False),
    ("what's on tomorrow", d(2026, 3, 5), d(2026, 3, 6), False),
    ("明天有什么安排", d(2026, 3, 5), d(2026, 3, 6), False),
    ("next week", d(2026, 3, 9), d(2026, 3, 16), False),
    ("下周", d(2026, 3, 9), d(2026, 3, 16), False),
    ("next month", d(2026, 4, 1), d(2026, 5, 1), False),
    ("下个月", d(2026, 4, 1), d(2026, 5, 1), False),
    ("next year", d(2027, 1, 1), d(2028, 1, 1), False),
    ("明年", d(2027, 1, 1), d(2028, 1, 1), False),
    ("this Friday", d(2026, 3, 6), d(2026, 3, 7), False),
    ("这周五", d(2026, 3, 6), d(2026, 3, 7), False),
    ("this Monday", d(2026, 3, 9), d(2026, 3, 10), False),      # this week's is past
    ("本周一", d(2026, 3, 9), d(2026, 3, 10), False),
    ("this Wednesday", d(2026, 3, 4), d(2026, 3, 5), False),    # today
    ("next Friday", d(2026, 3, 13), d(2026, 3, 14), False),
    ("下星期五", d(2026, 3, 13), d(2026, 3, 14), False),
    ("this weekend", d(2026, 3, 7), d(2026, 3, 9), False),
    ("这个周末", d(2026, 3, 7), d(2026, 3, 9), False),
    ("this coming weekend", d(2026, 3, 7), d(2026, 3, 9), False),
    ("the coming Monday", d(2026, 3, 9), d(2026, 3, 10), False),  # as "this Monday"
    ("next weekend", d(2026, 3, 14), d(2026, 3, 16), False),
    ("下周末", d(2026, 3, 14), d(2026, 3, 16), False),
    ("last weekend", d(2026, 2, 28), d(2026, 3, 2), False),
    ("上周末", d(2026, 2, 28), d(2026, 3, 2), False),
    ("these few days", d(2026, 3, 3), d(2026, 3, 6), False),        # a few around now
    ("这几天", d(2026, 3, 3), d(2026, 3, 6), False),
    ("这两周", d(2026, 2, 23), d(2026, 3, 16), False),
    ("the next few days", d(2026, 3, 4), d(2026, 3, 8), False),     # from now on
    ("接下来几天", d(2026, 3, 4), d(2026, 3, 8), False),
    ("the past few weeks", d(2026, 2, 9), d(2026, 3, 9), False),    # up to now
])
def test_windows(query: str, start: datetime, end: datetime, anchored: bool) -> None:
    clock = FrozenClock(NOW)
    window = parse_window(query, clock.now())
    assert window is not None
    assert (window.start, window.end, window.anchored) == (start, end, anchored)


def test_open_ended_windows() -> None:
    before = parse_window("where did Li live before May 2023", NOW)
    assert before is not None and before.end == d(2023, 5, 1) and before.label() == (
        "before 2023-05-01")
    zh = parse_window("2023年5月之前", NOW)
    assert zh is not None and zh.end == d(2023, 5, 1)
    after = parse_window("what changed after 2024", NOW)
    assert after is not None and after.start == d(2025, 1, 1) and after.label() == (
        "since 2025-01-01")
    zh_after = parse_window("2024年以后", NOW)
    assert zh_after is not None and (zh_after.start, zh_after.end) == (after.start, after.end)


@pytest.mark.parametrize(("text", "expr"), [
    ("Standup moved to 9:45 from today.", "from today"),
    ("Since yesterday I work from home.", "Since yesterday"),
    ("从今天起站会改到九点四十五。", "今天起"),
    ("今天开始药改成一整片。", "今天开始"),
])
def test_a_time_said_as_where_something_starts_is_open_ended(text: str, expr: str) -> None:
    window = parse_window(text, NOW)
    assert window is not None and window.expr == expr
    assert window.start <= NOW and window.end == LATEST


def test_after_a_relative_time_starts_at_its_end() -> None:
    last_week = parse_window("上周我在做什么", NOW)
    after = parse_window("上周以后我在做什么", NOW)
    assert last_week is not None and after is not None
    assert (after.start, after.end) == (last_week.end, LATEST)


def test_a_time_alone_stays_its_own_span() -> None:
    for text in ("This week the standup is at 10.", "今天在家办公。"):
        window = parse_window(text, NOW)
        assert window is not None and window.end < LATEST


@pytest.mark.parametrize(("query", "start", "end", "expr"), [
    ("Where was John between August 11 and August 15 2023?", d(2023, 8, 11), d(2023, 8, 16),
     "between August 11 and August 15 2023"),
    ("what did I do from 1 May to 8 May 2023", d(2023, 5, 1), d(2023, 5, 9),
     "from 1 May to 8 May 2023"),
    ("from May 2023 to July 2023", d(2023, 5, 1), d(2023, 8, 1), "from May 2023 to July 2023"),
    ("from 2023 to 2024", d(2023, 1, 1), d(2025, 1, 1), "from 2023 to 2024"),
    ("我2023年5月1日到5月8日做了什么", d(2023, 5, 1), d(2023, 5, 9), "2023年5月1日到5月8日"),
    ("我从2023年5月到7月住在哪", d(2023, 5, 1), d(2023, 8, 1), "2023年5月到7月"),
    # not ranges of time: the one time named is read
    ("What happened between Caroline and Mel in May 2023", d(2023, 5, 1), d(2023, 6, 1),
     "May 2023"),
    ("where did I go from Berlin to Paris in 2024", d(2024, 1, 1), d(2025, 1, 1), "2024"),
    ("我到2024年5月才搬家", d(2024, 5, 1), d(2024, 6, 1), "2024年5月"),
])
def test_ranges(query: str, start: datetime, end: datetime, expr: str) -> None:
    window = parse_window(query, NOW, ranges=True)
    assert window is not None and window.anchored
    assert (window.start, window.end, window.expr) == (start, end, expr)


def test_ranges_only_when_asked() -> None:
    """Without ``ranges`` (dating an extracted episode) the time named in full is read."""
    window = parse_window("between August 11 and August 15 2023", NOW)
    assert window is not None and (window.start, window.end) == (d(2023, 8, 15), d(2023, 8, 16))


@pytest.mark.parametrize("query", ["where does Li live now", "I know now", "李现在住在哪",
                                   "where did Li live before", "release 2.0.3", "port 8420",
                                   "the week before May 8, 2023",
                                   "the choir sings on Fridays", "周五开组会", "every weekend",
                                   # 一下 / 周末, 晚上 / 周五, 以下 / 周报: no 下周 or 上周 in them
                                   "帮我查一下周末的潮汐表", "晚上周五的账再对",
                                   "以下周报格式为准"])
def test_no_window(query: str) -> None:
    assert parse_window(query, NOW) is None


@pytest.mark.parametrize(("text", "named"), [
    ("This weekend the pottery club meets in the church hall.", True),
    ("下周末去爬山。", True),
    ("这个星期五的例会改到下午。", True),
    ("Next Tuesday the boiler gets serviced.", True),
    ("This coming Sunday the pottery club meets in the church hall.", True),
    ("From this weekend the pottery club meets in the church hall.", False),  # a change starts
    ("下周一起改成九点上班。", False),
    ("Last Saturday I repainted the shed.", False),
    ("上周末去水库钓鱼了。", False),
    ("帮我看一下周末的潮汐表。", False),
    ("The pottery club meets on Saturdays.", False),
])
def test_one_coming_occasion_of_a_weekday_or_weekend(text: str, named: bool) -> None:
    assert occasion(text) is named


def test_a_month_without_a_year_is_loose() -> None:
    window = parse_window("where did we go in March", NOW)
    assert window is not None and window.loose and window.start == d(2026, 3, 1)
    assert parse_window("5月8日", NOW).start == d(2025, 5, 8)  # type: ignore[union-attr]


# ---------------------------------------------------------------- recall


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(NOW)


def supersede(mem: engramdb.Memory, old: Record, new: Record) -> None:
    """Mark ``old`` as replaced by ``new`` unless the write path already did."""
    scope = old.scope
    current = mem.store.get(scope, old.id)
    assert current is not None
    if current.invalid_at is None:
        mem.store.save(current.replace(invalid_at=new.at, superseded_by=new.id,
                                       version=current.version + 1), "supersede")


@pytest.fixture
def li(mem):  # type: ignore[no-untyped-def]
    """Li lived in Lisbon (from 2024-01-10), then Berlin (from 2025-02-01), now Oslo
    (from 2026-02-10)."""
    rows = [("Li lives in Lisbon", "李住在里斯本", d(2024, 1, 10)),
            ("Li lives in Berlin", "李住在柏林", d(2025, 2, 1)),
            ("Li lives in Oslo", "李住在奥斯陆", d(2026, 2, 10))]
    out: dict[str, list[Record]] = {"en": [], "zh": []}
    for en, zh, at in rows:
        for lang, text in (("en", en), ("zh", zh)):
            rec = mem.remember(text, kind="fact", at=at, user=lang).memory
            if out[lang]:
                supersede(mem, out[lang][-1], rec)
            out[lang].append(rec)
    return out


def contents(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.memory.content for h in hits]


def test_present_and_neutral_questions_get_the_current_value(mem, li):  # type: ignore[no-untyped-def]
    for query in ("where does Li live now", "where does Li live"):
        hits = mem.recall(query, k=5, track=False, user="en")
        assert contents(hits) == ["Li lives in Oslo"]
        assert hits.plan["routing"]["mode"] == "current"
        assert hits.plan["filtered"]["superseded"] == 2
    hits = mem.recall("李现在住在哪", k=5, track=False, user="zh")
    assert contents(hits) == ["李住在奥斯陆"]
    assert "现在" in hits.plan["routing"]["reason"]


def test_know_is_not_now(mem, li):  # type: ignore[no-untyped-def]
    hits = mem.recall("do you know where Li lives", k=5, track=False, user="en")
    assert hits.plan["routing"]["reason"].startswith("no past marker (neutral)")
    assert contents(hits) == ["Li lives in Oslo"]


def test_past_questions_put_former_values_first(mem, li):  # type: ignore[no-untyped-def]
    hits = mem.recall("where did Li live before", k=3, track=False, user="en")
    assert contents(hits) == ["Li lives in Berlin", "Li lives in Lisbon", "Li lives in Oslo"]
    assert hits.plan["routing"]["mode"] == "past"
    assert any("former value" in n for n in hits[0].explanation.notes)
    for query in ("李以前住在哪", "李之前住在哪里", "李原来住在哪"):
        zh = mem.recall(query, k=3, track=False, user="zh")
        assert contents(zh) == ["李住在柏林", "李住在里斯本", "李住在奥斯陆"], query
    for query in ("where did Li use to live", "Li used to live where?"):
        assert contents(mem.recall(query, k=3, track=False, user="en"))[0] == (
            "Li lives in Berlin"), query
    tools = mem.recall("what do I use to deploy", k=3, track=False, user="en")
    assert tools.plan["routing"]["mode"] == "current"  # "use to" without "did": not the past


def test_the_old_one_is_the_past_and_an_age_is_not() -> None:
    from engramdb.recall.temporal import route
    for query in ("What was my old work number?", "When did the old passport expire?",
                  "旧护照什么时候到期？"):
        assert route(query, None).mode == "past", query
    for query in ("How old is my daughter?", "他依旧住在北京吗？", "她在旧金山哪家公司上班？"):
        assert route(query, None).mode == "current", query


def test_before_a_step_in_the_present_is_no_question_about_the_past() -> None:
    """"before" with words after it, in a question whose first auxiliary is in the present,
    places a step or a routine; in the past tense, or at the end, it asks about before."""
    from engramdb.recall.temporal import route
    for query in ("Which drops do I put in before I sleep?", "What should I stretch before a run?",
                  "How many minutes do I rest the dough before baking?"):
        assert route(query, None).mode == "current", query
    for query in ("Which vitamins did I take before the new prescription?",
                  "Who kept the club's accounts before?",
                  "Which ward was Gran on before the transfer?",
                  "Where had the choir rehearsed before the fire?"):
        assert route(query, None).mode == "past", query


def test_the_previous_one_is_the_past_in_chinese_as_in_english() -> None:
    """上一台 / 上一次 / 上一任 say "the previous one" as "previous" does; 上 inside another
    word before 一 (早上一般: "in the morning, usually"; 网上一搜) says nothing of the past."""
    from engramdb.recall.temporal import route
    for query in ("What was my previous router?", "上一台路由器是什么型号？",
                  "上一次体检在哪做的？", "我们上一任房东是谁？"):
        assert route(query, None).mode == "past", query
    for query in ("我早上一般喝什么？", "晚上一般几点睡？", "网上一搜就有吗？"):
        assert route(query, None).mode == "current", query


def test_the_previous_one_asked_in_chinese_gets_the_former_value(mem, li):  # type: ignore[no-untyped-def]
    hits = mem.recall("李住的上一个城市是哪里", k=3, track=False, user="zh")
    assert hits.plan["routing"]["mode"] == "past"
    assert "上一个" in hits.plan["routing"]["reason"]
    assert contents(hits) == ["李住在柏林", "李住在里斯本", "李住在奥斯陆"]


def test_a_window_finds_the_fact_that_held_then(mem, li):  # type: ignore[no-untyped-def]
    hits = mem.recall("where did Li live in 2024", k=5, track=False, user="en")
    # Lisbon held 2024-01-10..2025-02-01 and Berlin from 2025-02-01: only Lisbon meets 2024,
    # so it comes first; the others follow, each explained as outside the window.
    assert contents(hits)[0] == "Li lives in Lisbon"
    assert hits.plan["stages"]["window"]["inside"] == 1
    assert all(outside(h) for h in hits[1:]) and not outside(hits[0])
    assert hits.plan["window"]["label"] == "between 2024-01-01 and 2025-01-01"
    assert hits.plan["routing"]["mode"] == "window"
    assert hits.note == ""  # something fell inside: no "nothing in the window" note
    # 2025: Berlin from February, Lisbon in January
    zh = mem.recall("李去年住在哪", k=5, track=False, user="zh")
    assert set(contents(zh)[:2]) == {"李住在柏林", "李住在里斯本"}
    assert contents(zh)[2:] == ["李住在奥斯陆"] and outside(zh[2])


def test_a_while_that_holds_now_puts_the_value_now_held_first(mem, li):  # type: ignore[no-untyped-def]
    """Berlin held until 10 February 2026 and Oslo since: both fall in "this year", and a
    question about this year asks what holds now, the former value after it (it stays: it
    held in that year too)."""
    for query, user, now, before in (
            ("where does Li live this year", "en", "Li lives in Oslo", "Li lives in Berlin"),
            ("李今年住在哪", "zh", "李住在奥斯陆", "李住在柏林")):
        hits = mem.recall(query, k=5, track=False, user=user)
        assert hits.plan["routing"]["mode"] == "window"
        assert contents(hits)[:2] == [now, before], query
        assert any("a while that holds now" in n for n in hits[1].explanation.notes)
    # a while wholly past keeps the order of its matches: 2025 held Berlin and Lisbon
    past = mem.recall("where did Li live last year", k=5, track=False, user="en")
    assert not any("holds now" in n for h in past for n in h.explanation.notes)


def outside(hit) -> bool:  # type: ignore[no-untyped-def]
    return any(n.startswith("outside the asked window") for n in hit.explanation.notes)


def test_only_superseded_matches_abstain(mem, clock):  # type: ignore[no-untyped-def]
    old = mem.remember("the service port is 8420", at=d(2026, 1, 5)).memory
    new = mem.remember("we moved to 9000", at=d(2026, 2, 5)).memory
    supersede(mem, old, new)
    hits = mem.recall("service port", k=5, track=False, preset="lexical")
    assert hits.abstained and not hits
    assert "only superseded memories match" in hits.note and "2026-02-05" in hits.note


@pytest.fixture
def diary(mem):  # type: ignore[no-untyped-def]
    rows = [("I went hiking in the Alps", d(2026, 3, 3)),          # yesterday
            ("I went hiking near Bergen", d(2026, 3, 1)),          # last week (its Sunday)
            ("I went hiking in Wales", d(2026, 2, 10)),            # last month
            ("I went hiking in Yosemite", d(2023, 5, 8)),          # 8 May 2023
            ("我去了杭州爬山", d(2026, 3, 3)),
            ("我去了黄山爬山", d(2026, 2, 10))]
    return {text: mem.remember(text, kind="event", at=at, user=_lang(text)).memory
            for text, at in rows}


def _lang(text: str) -> str:
    return "en" if text.isascii() else "zh"


@pytest.mark.parametrize(("query", "expected"), [
    ("where did I go hiking yesterday", ["I went hiking in the Alps"]),
    ("where did I go hiking last week", ["I went hiking near Bergen"]),
    ("where did I go hiking last month", ["I went hiking in Wales"]),
    ("where did I go hiking on 8 May 2023", ["I went hiking in Yosemite"]),
    ("where did I go hiking in May 2023", ["I went hiking in Yosemite"]),
    ("where did I go hiking before 2024", ["I went hiking in Yosemite"]),
    ("我昨天去哪里爬山", ["我去了杭州爬山"]),
    ("我上个月去哪里爬山", ["我去了黄山爬山"]),
])
def test_event_windows(mem, diary, query, expected):  # type: ignore[no-untyped-def]
    """The window ranks: what falls inside it first, the other hikes after it, each
    explained as outside the asked window."""
    hits = mem.recall(query, k=5, track=False, user=_lang(query))
    assert contents(hits)[: len(expected)] == expected
    assert hits.plan["window"]["applied"]
    assert hits.plan["stages"]["window"]["outside"] >= 1
    assert any("in the window" in n for n in hits[0].explanation.notes)
    assert len(hits) > len(expected) and all(outside(h) for h in hits[len(expected):])
    assert not hits.abstained and hits.note == ""


def test_an_empty_window_returns_the_best_outside_it_and_says_so(mem, diary):  # type: ignore[no-untyped-def]
    hits = mem.recall("where did I go hiking in 2025", k=5, track=False, user="en")
    assert not hits.abstained and len(hits) == 4 and all(outside(h) for h in hits)
    assert hits.note.startswith("nothing remembered between 2025-01-01 and 2026-01-01")
    assert "the nearest related memory is from 2026-02-10" in hits.note
    assert any(n.startswith("outside the asked window between 2025-01-01 and 2026-01-01 "
                            "(at 20") for n in hits[0].explanation.notes)
    before = mem.recall("where did I go hiking before 2020", k=5, track=False, user="en")
    assert not before.abstained and before and before.note == (
        "nothing remembered before 2020-01-01 matches this query; "
        "the nearest related memory is from 2023-05-08; "
        "the best matches outside the window are returned")
    zh = mem.recall("我三天前去哪里爬山", k=5, track=False, user="zh")  # 2026-03-01: nothing
    assert not zh.abstained and "on 2026-03-01" in zh.note
    assert set(contents(zh)) == {"我去了杭州爬山", "我去了黄山爬山"}


def test_a_loose_month_is_noted_not_applied(mem, diary):  # type: ignore[no-untyped-def]
    hits = mem.recall("where did I go hiking in May", k=5, track=False, user="en")
    assert len(hits) == 4 and not hits.plan["window"]["applied"]
    assert any("names no year" in n for n in hits.plan["notes"])


@pytest.mark.parametrize(("said", "asked"), [
    ("Flying to Rome tomorrow for the cardiology conference.", "What is my plan for tomorrow?"),
    ("明天下午去机场接表哥。", "明天有什么安排？"),
])
def test_a_time_ahead_is_noted_not_applied(mem, clock, said, asked):  # type: ignore[no-untyped-def]
    """What was said about tomorrow was said before it, and every current fact holds then
    too: a window ahead of now would rank the facts above what was said for it."""
    for fact in ("I rent a flat in Braga.", "I repair pianos for a living.", "我妹妹叫小雨。"):
        mem.remember(fact, kind="fact", at=d(2026, 2, 1))
    mem.remember(said, kind="event", at=d(2026, 3, 4))
    hits = mem.recall(asked, k=3, track=False)
    assert hits[0].memory.content == said and not hits.plan["window"]["applied"]
    assert any("ahead of now" in n for n in hits.plan["notes"])


def test_queries_without_time_are_unchanged(mem, diary):  # type: ignore[no-untyped-def]
    hits = mem.recall("hiking", k=10, track=False, user="en")
    assert len(hits) == 4 and "window" not in hits.plan
    assert hits.plan["filtered"] == {}


class FlooredEmbedder(HashingEmbedder):
    relevance_floor = 0.5


def test_relevance_floor_abstains_on_no_match(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder=FlooredEmbedder(), clock=clock) as mem:
        mem.remember("the deploy key lives in the vault")
        hits = mem.recall("zebra migration patterns", k=3, track=False)
        assert hits.abstained and not hits
        assert "relevance floor 0.500" in hits.note
        assert mem.recall("deploy key", k=3, track=False)  # a word matches: no abstention


def test_no_floor_means_never_abstain_on_dense(mem):  # type: ignore[no-untyped-def]
    mem.remember("the deploy key lives in the vault")
    hits = mem.recall("zebra migration patterns", k=3, track=False)
    assert not hits.abstained and len(hits) == 1


def test_clock_words_do_not_apply_to_history_written_later(mem):  # type: ignore[no-untyped-def]
    """A conversation from 2023 imported today: its newest turn was written years after it
    happened, so "last year" (2025 by the clock) cannot be placed and is not applied; a window
    that names its year still is."""
    mem.remember("Mel: we went camping in the mountains", kind="event", at=d(2023, 7, 1))
    mem.remember("Mel: we painted a sunrise", kind="event", at=d(2023, 10, 1))
    hits = mem.recall("what did Mel see camping last year", k=5, track=False)
    assert not hits.abstained and hits[0].memory.content.startswith("Mel: we went camping")
    assert not hits.plan["window"]["applied"] and hits.plan["routing"]["mode"] == "current"
    assert any("history written later" in n for n in hits.plan["notes"])
    dated = mem.recall("what did Mel do in October 2023", k=5, track=False)
    assert dated.plan["window"]["applied"]
    assert [h.memory.content for h in dated] == ["Mel: we painted a sunrise",
                                                 "Mel: we went camping in the mountains"]
    assert outside(dated[1]) and not outside(dated[0])

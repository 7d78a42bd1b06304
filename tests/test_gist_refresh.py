"""A higher gist follows its sources: when sleep reinforces a source gist with new episodes,
the higher gist it is folded into is rebuilt from its sources as they are now (op "refresh",
the old text in its history, a rollback brings it back); a second sleep changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engramdb
from test_gist_levels import EN, ZH, episode_gist

NO_AUTO = {"auto_sleep_importance": 0}
MORE = {
    "en": ["{p} waxed the skis at the hut.", "{p} booked the mountain hut for March.",
           "{p} and I watched the ski jump final on the big screen."],
    "zh": ["{p}在小屋给雪板打了蜡。", "{p}订了三月的山间小屋。",
           "我和{p}在大屏幕上看了跳台滑雪决赛。"],
}


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO) as m:
        yield m


@pytest.mark.parametrize(("lang", "code"), [(EN, "en"), (ZH, "zh")], ids=["en", "zh"])
def test_a_higher_gist_is_refreshed_when_a_source_gist_gains_episodes(mem, clock, lang, code):  # type: ignore[no-untyped-def]
    person = lang["people"][0]
    first, events, _ = episode_gist(mem, clock, lang, person, lang["topic"])
    for other in lang["people"][1:3]:
        episode_gist(mem, clock, lang, other, lang["topic"])
    (top,) = [g for g in mem.list(kind="gist") if g.metadata.get("gist_level") == 2]
    assert mem.get(first.id).metadata["higher_gist"] == top.id
    # the same trip, told later: three more episodes from within its days
    trip = events[0].at
    new = [mem.remember(t.format(p=person), kind="event", people=[person],
                        topics=[lang["topic"]], at=trip + timedelta(days=1 + i)).memory
           for i, t in enumerate(MORE[code])]
    clock.advance(days=15)
    report = mem.sleep()
    phase = report.phase("consolidate")
    assert phase.ids("gist_reinforced") == [first.id]
    assert phase.ids("higher_gist_refreshed") == [top.id]
    low, high = mem.get(first.id), mem.get(top.id)
    assert {e.id for e in new} <= set(low.derived_from)
    assert [v.op for v in mem.history(top.id)] == ["create", "refresh"]
    assert first.id in mem.history(top.id)[-1].reason
    assert high.derived_from == top.derived_from and high.metadata["support"] == 12
    assert top.metadata["support"] == 9
    sources = {g: mem.get(g).content for g in high.derived_from}
    for item in high.metadata["sentences"]:  # every sentence from a source as it is now
        assert item["text"] in sources[item["source"]]
    assert any(item["text"] in low.content and item["source"] == low.id
               for item in high.metadata["sentences"])
    assert mem.sleep(full=True).changes == 0  # nothing left to refresh
    back = mem.rollback(top.id, 1)  # reversible: the text before the refresh comes back
    assert (back.content, back.metadata["support"]) == (top.content, 9)
    assert mem.history(top.id)[-1].op == "rollback"


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_gist_not_folded_refreshes_nothing(mem, clock, lang):  # type: ignore[no-untyped-def]
    person = lang["people"][0]
    _, events, _ = episode_gist(mem, clock, lang, person, lang["topic"])
    trip = events[0].at
    for i, text in enumerate(lang["texts"]):
        mem.remember(text.format(p=person), kind="event", people=[person],
                     topics=[lang["topic"]], at=trip + timedelta(days=2, hours=i))
    clock.advance(days=15)
    phase = mem.sleep().phase("consolidate")
    assert phase.counts()["gist_reinforced"] == 1
    assert "higher_gist_refreshed" not in phase.counts()


def imported_gist(mem, text, person, topic, meta):  # type: ignore[no-untyped-def]
    """A gist as an import brings it (written past the sleep), with ``meta`` added."""
    rec = mem.remember(text, kind="gist", people=[person], topics=[topic]).memory
    new = rec.replace(metadata={**rec.metadata, **meta}, version=rec.version + 1)
    mem.store.save(new, "update")
    return new


@pytest.mark.parametrize(("texts", "topic"), [
    (["Ana planned the Q3 budget.", "Bo cut the travel budget by 10%.",
      "Cy moved the budget review to Friday.", "Dee froze hiring for the budget."], "budget"),
    (["小安做了第三季度的预算。", "小博把差旅预算削减了10%。", "小曹把预算评审改到周五。",
      "小邓因预算冻结了招聘。"], "预算"),
], ids=["en", "zh"])
def test_the_refresh_climbs_to_level_three(mem, clock, texts, topic):  # type: ignore[no-untyped-def]
    mem.sleep()
    theme = {"gist_level": 2, "theme": f"level2:topic:{topic.lower()}"}
    mids = [imported_gist(mem, t, f"P{i}", topic, theme) for i, t in enumerate(texts[:3])]
    clock.advance(hours=1)
    (top,) = mem.sleep().phase("consolidate").ids("higher_gist_created")
    assert mem.get(top).metadata["gist_level"] == 3
    assert mem.get(top).derived_from == [m.id for m in mids]
    imported_gist(mem, texts[3], "Q", topic, {})  # a new level-1 gist of the theme
    clock.advance(hours=1)
    phase = mem.sleep().phase("consolidate")
    (grown,) = phase.ids("higher_gist_reinforced")  # folded into a level-2 gist...
    assert grown in {m.id for m in mids}
    assert phase.ids("higher_gist_refreshed") == [top]  # ...which refreshes level 3
    assert [v.op for v in mem.history(top)] == ["create", "refresh"]
    assert grown in mem.history(top)[-1].reason
    assert "higher_gist_refreshed" not in mem.sleep().phase("consolidate").counts()

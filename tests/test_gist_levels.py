"""Gists of gists: when gists cluster (a shared person or topic, as episodes do), sleep makes a
higher gist whose sources are those gists; the lower gists stay, a second sleep changes nothing,
lineage shows every level, and no gist goes above level 3."""

from __future__ import annotations

import pytest

import engramdb
from engramdb.dynamics.gist_levels import MAX_LEVEL

NO_AUTO = {"auto_sleep_importance": 0}

EN = {"topic": "skiing", "people": ["Wang", "Li", "Zhang", "Chen"], "texts": [
    "{p} and I took the early train to the ski resort. The slope was icy.",
    "{p} rented skis for 2 days at the resort shop.",
    "Hot pot with {p} after skiing, near the cable car.",
]}
ZH = {"topic": "滑雪", "people": ["小王", "小李", "小张", "小陈"], "texts": [
    "和{p}坐早班火车去滑雪场。雪道很滑。",
    "{p}在雪场商店租了2天的雪板。",
    "滑雪后和{p}在缆车旁吃火锅。",
]}


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO) as m:
        yield m


def gists(mem):  # type: ignore[no-untyped-def]
    return list(mem.list(kind="gist", layer=["core", "archived"]))


def episode_gist(mem, clock, lang, person, topic):  # type: ignore[no-untyped-def]
    """Three settled episodes with ``person`` on ``topic``, slept into one level-1 gist."""
    events = [mem.remember(t.format(p=person), kind="event", people=[person],
                           topics=[topic]).memory for t in lang["texts"]]
    clock.advance(days=15)
    report = mem.sleep()
    (made,) = report.phase("consolidate").ids("gist_created")
    return mem.get(made), events, report


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_three_gists_that_cluster_make_a_level_two_gist(mem, clock, lang):  # type: ignore[no-untyped-def]
    low, events = [], {}
    for person in lang["people"][:3]:
        gist, evs, report = episode_gist(mem, clock, lang, person, lang["topic"])
        low.append(gist)
        events[gist.id] = evs
    counts = report.phase("consolidate").counts()
    assert counts["higher_gist_created"] == 1 and counts["gist_folded"] == 3
    assert report.to_dict()["phases"][-2]["counts"]["higher_gist_created"] == 1
    (top,) = [g for g in gists(mem) if g.metadata.get("gist_level") == 2]
    assert top.metadata["theme"] == f"level2:topic:{lang['topic'].lower()}"
    assert top.derived_from == [g.id for g in low]
    assert top.metadata["support"] == 9 and top.metadata["gist_sources"] == 3
    assert set(top.people) == set(lang["people"][:3]) and top.topics == [lang["topic"]]
    by_id = {g.id: mem.get(g.id) for g in low}
    for item in top.metadata["sentences"]:  # each sentence copied from the gist it names
        assert item["text"] in by_id[item["source"]].content
    for g in by_id.values():  # the lower gists stay in core, folded, linked up
        assert (g.layer.value, g.metadata["higher_gist"], g.current) == ("core", top.id, True)
        assert mem.history(g.id)[-1].op == "fold"
        assert (g.id, top.id, "gist_of") in {(x.source, x.target, x.relation)
                                             for x in mem.links(g.id)}
    lin = mem.lineage(top.id)  # gist -> gists -> events
    assert [[r.id for r in level] for level in lin.levels] == [
        [g.id for g in low], [e.id for g in low for e in events[g.id]]]
    assert lin.to_dict()["levels"][1][0]["kind"] == "event"
    mid = mem.lineage(low[0].id)
    assert [r.id for r in mid.gists] == [top.id]
    assert [r.id for r in mid.gist_sources] == [e.id for e in events[low[0].id]]
    assert [r.id for r in mem.lineage(events[low[0].id][0].id).gists] == [low[0].id]


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_second_sleep_makes_nothing_and_a_new_gist_reinforces(mem, clock, lang):  # type: ignore[no-untyped-def]
    for person in lang["people"][:3]:
        episode_gist(mem, clock, lang, person, lang["topic"])
    before = len(gists(mem))
    assert mem.sleep().changes == 0
    assert mem.sleep(full=True).changes == 0 and mem.sleep("consolidate").changes == 0
    assert len(gists(mem)) == before
    (top,) = [g for g in gists(mem) if g.metadata.get("gist_level") == 2]
    fourth, _, report = episode_gist(mem, clock, lang, lang["people"][3], lang["topic"])
    phase = report.phase("consolidate")
    assert phase.ids("higher_gist_reinforced") == [top.id] and "higher_gist_created" not in (
        phase.counts())
    again = mem.get(top.id)
    assert again.derived_from[-1] == fourth.id and again.metadata["support"] == 12
    assert mem.get(fourth.id).metadata["higher_gist"] == top.id
    assert [v.op for v in mem.history(top.id)] == ["create", "reinforce"]
    assert mem.sleep(full=True).changes == 0


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_gists_that_do_not_cluster_make_nothing(mem, clock, lang):  # type: ignore[no-untyped-def]
    people = lang["people"]
    episode_gist(mem, clock, lang, people[0], lang["topic"])
    episode_gist(mem, clock, lang, people[1], lang["topic"])  # two share the topic: too few
    _, _, report = episode_gist(mem, clock, lang, people[2], "budget")
    assert "higher_gist_created" not in report.phase("consolidate").counts()
    assert all("gist_level" not in g.metadata and "higher_gist" not in g.metadata
               for g in gists(mem))
    assert len(gists(mem)) == 3


def made_gist(mem, text, people, topic, at_level):  # type: ignore[no-untyped-def]
    """A gist of a given level as an import would bring it (written past the sleep)."""
    rec = mem.remember(text, kind="gist", people=people, topics=[topic]).memory
    new = rec.replace(metadata={**rec.metadata, "gist_level": at_level},
                      version=rec.version + 1)
    mem.store.save(new, "update")
    return new


@pytest.mark.parametrize(("texts", "topic"), [
    (["Ana planned the Q3 budget.", "Bo cut the travel budget by 10%.",
      "Cy moved the budget review to Friday.", "Dee froze hiring for the budget.",
      "Eve asked for 2 more servers in the budget."], "budget"),
    (["小安做了第三季度的预算。", "小博把差旅预算削减了10%。", "小曹把预算评审改到周五。",
      "小邓因预算冻结了招聘。", "小伊在预算里多要了2台服务器。"], "预算"),
], ids=["en", "zh"])
def test_no_gist_goes_above_the_depth_cap(mem, clock, texts, topic):  # type: ignore[no-untyped-def]
    assert MAX_LEVEL == 3
    mem.sleep()  # the next sleep is incremental: it must still see the gists written since
    tops = [made_gist(mem, t, [f"P{i}"], topic, MAX_LEVEL) for i, t in enumerate(texts[:2])]
    mids = [made_gist(mem, t, [f"Q{i}"], topic, 2) for i, t in enumerate(texts[2:])]
    clock.advance(hours=1)
    report = mem.sleep()
    assert report.mode == "incremental"
    (made,) = report.phase("consolidate").ids("higher_gist_created")  # the level-2 trio
    new = mem.get(made)
    assert new.metadata["gist_level"] == MAX_LEVEL and new.derived_from == [m.id for m in mids]
    # three level-3 gists now share the topic: none of them is ever a source
    assert sum(g.metadata.get("gist_level") == MAX_LEVEL for g in gists(mem)) == 3
    assert all("higher_gist" not in mem.get(t.id).metadata for t in [*tops, new])
    assert max(g.metadata.get("gist_level", 1) for g in gists(mem)) == MAX_LEVEL
    assert len(mem.lineage(made).levels) == 1
    assert mem.sleep(full=True).changes == 0


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_a_hard_forget_takes_its_words_out_of_every_level(mem, clock, lang):  # type: ignore[no-untyped-def]
    for person in lang["people"][:3]:
        episode_gist(mem, clock, lang, person, lang["topic"])
    (top,) = [g for g in gists(mem) if g.metadata.get("gist_level") == 2]
    item = top.metadata["sentences"][0]
    low = mem.get(item["source"])
    (origin,) = [s["source"] for s in low.metadata["sentences"] if s["text"] == item["text"]]
    assert item["text"] in mem.get(origin).content
    mem.forget(origin, hard=True)
    for gist_id in (low.id, top.id):  # both levels lose the sentence, in every version
        versions = mem.history(gist_id)
        assert versions[-1].op == "redact"
        assert all(item["text"] not in repr(v.memory) for v in versions)
    after = mem.get(top.id)
    assert after.derived_from == top.derived_from and after.content
    assert {s["source"] for s in after.metadata["sentences"]} <= set(top.derived_from)

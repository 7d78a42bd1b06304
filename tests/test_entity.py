"""The entity page (Memory.entity, recall/entity.py) on both stores: the memories that name one
person, place, project or topic, with their aliases, first and last seen on the clock, the
facts that hold now, episodes and supersession history, in English and Chinese."""

from __future__ import annotations

import pytest

from engramdb import Invalid, NotFound

BACKENDS = ("sqlite", "postgres")


def contents(records) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.content for r in records]


def test_a_person_gathers_anchored_and_named_memories_with_history(me, clock):  # type: ignore[no-untyped-def]
    first = me.remember("Priya Nair lives in Lisbon", kind="fact", people=["Priya Nair"])
    clock.advance(days=30)
    me.remember("Priya Nair lives in Porto", kind="fact")
    clock.advance(days=5)
    me.remember("Coffee with Priya Nair after the design review", kind="event")
    me.remember("Priya Nair prefers written feedback", kind="preference")
    me.remember("The Priyanka account renewal is due", kind="fact")     # another name
    last = clock.advance(days=2)
    me.remember("Lunch with Tom by the river", kind="event", people=["Tom"])

    page = me.entity("priya nair")
    assert page.name == "Priya Nair" and page.kinds == ["person"]
    assert page.first_seen == first.memory.at and page.last_seen < last
    assert sorted(contents(page.facts)) == ["Priya Nair lives in Porto",
                                            "Priya Nair prefers written feedback"]
    assert contents(page.episodes) == ["Coffee with Priya Nair after the design review"]
    assert [contents(chain) for chain in page.history] == [
        ["Priya Nair lives in Lisbon", "Priya Nair lives in Porto"]]
    assert page.memories == 4
    assert page.to_dict()["history"][0][0]["current"] is False


def test_declared_aliases_join_and_parts_of_a_name_join_only_when_unambiguous(me):  # type: ignore[no-untyped-def]
    me.remember("Marcus Lee, also known as Mack, runs the climbing gym", kind="fact")
    me.remember("Mack lent me his rope", kind="event")
    me.remember("Dinner with Marcus at the noodle bar", kind="event", people=["Marcus"])
    me.remember("Marcus Lee joined the board", kind="fact", people=["Marcus Lee"])
    page = me.entity("Marcus Lee")
    assert set(page.aliases) == {"Mack", "Marcus"}
    assert "Mack lent me his rope" in contents(page.episodes)
    assert "Dinner with Marcus at the noodle bar" in contents(page.episodes)
    assert me.entity("Mack").aliases == ["Marcus Lee"]

    me.remember("Marcus Wright fixed the boiler", kind="event", people=["Marcus Wright"])
    page = me.entity("Marcus Lee")       # "Marcus" now names two people: not an alias
    assert set(page.aliases) == {"Mack"}
    assert "Marcus Wright fixed the boiler" not in contents(page.episodes)


def test_whole_words_only_and_spellings_fold(me):  # type: ignore[no-untyped-def]
    me.remember("The user works on an order system project", kind="fact")
    me.remember("The user's project has an order-system module", kind="fact")
    me.remember("We reordered the system prompts", kind="fact")
    page = me.entity("Order System")
    assert sorted(contents(page.facts)) == ["The user works on an order system project",
                                            "The user's project has an order-system module"]
    me.remember("I moved to Leipzig", kind="fact")
    me.remember("Lei called about the invoice", kind="event")
    assert contents(me.entity("Lei").episodes) == ["Lei called about the invoice"]
    assert me.entity("Lei").facts == []


def test_chinese_names_places_and_aliases(me, clock):  # type: ignore[no-untyped-def]
    me.ingest([{"role": "user", "content": "我下个月要搬到成都，和同事王磊一起。"}])
    clock.advance(days=3)
    me.remember("王磊又名磊哥，喜欢打羽毛球。", kind="fact")
    me.remember("磊哥昨天请我们吃了火锅", kind="event")
    me.remember("张伟住在杭州", kind="fact")
    page = me.entity("王磊")
    assert "磊哥" in page.aliases and page.kinds == ["person"]
    assert "磊哥昨天请我们吃了火锅" in contents(page.episodes)
    assert all("张伟" not in c for c in contents([*page.facts, *page.episodes]))
    assert (page.last_seen - page.first_seen).days == 3
    city = me.entity("成都")
    assert city.kinds == ["place"]
    assert all("成都" in c for c in contents([*city.facts, *city.episodes]))


def test_forgotten_other_scopes_unknown_and_bad_names(mem, me):  # type: ignore[no-untyped-def]
    kept = me.remember("Oslo has a new tram line", kind="fact")
    gone = me.remember("Oslo was rainy all week", kind="event")
    me.forget(gone.memory.id)
    mem.scope(user="bob", agent="noah").remember("Oslo is where Bob grew up", kind="fact")
    page = me.entity("Oslo")
    assert [r.id for r in [*page.facts, *page.episodes]] == [kept.memory.id]
    assert mem.entity("Oslo", user="bob", agent="noah").memories == 1
    with pytest.raises(NotFound, match="Atlantis"):
        me.entity("Atlantis")
    for bad in ("", "   ", "x" * 201, 42):
        with pytest.raises(Invalid):
            me.entity(bad)

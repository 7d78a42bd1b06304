"""A gist and what it summarises take one place in a recall: a higher gist and its source gists,
or a gist and an episode folded into it (woken from the archive). The better-ranked level keeps
the place and its explanation names each collapsed one; unrelated gists all stay."""

from __future__ import annotations

import pytest

import engramdb
from test_gist_levels import EN, ZH, episode_gist

NO_AUTO = {"auto_sleep_importance": 0}


@pytest.fixture
def mem(tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, **NO_AUTO) as m:
        yield m


def chain(mem, mid):  # type: ignore[no-untyped-def]
    """The ids above ``mid``: its gist, that gist's higher gist, ..."""
    out, rec = [], mem.get(mid)
    while (up := rec.metadata.get("gist") or rec.metadata.get("higher_gist")) is not None:
        out.append(up)
        rec = mem.get(up)
    return out


def related(mem, a, b):  # type: ignore[no-untyped-def]
    return a in chain(mem, b) or b in chain(mem, a)


def collapsed_ids(hit):  # type: ignore[no-untyped-def]
    return [n.split()[1] for n in hit.explanation.notes if "another level" in n]


def check_one_place_each(mem, hits):  # type: ignore[no-untyped-def]
    ids = [h.memory.id for h in hits]
    assert not any(related(mem, a, b) for i, a in enumerate(ids) for b in ids[i + 1:])
    gone = {c: h for h in hits for c in collapsed_ids(h)}
    for cid, hit in gone.items():  # each one named is related to the hit that kept the place
        assert related(mem, cid, hit.memory.id) and cid not in ids
        assert hit.explanation.terms["collapsed"] >= 1
    return gone


@pytest.mark.parametrize(("lang", "query"), [(EN, "skiing"), (ZH, "滑雪")], ids=["en", "zh"])
def test_a_higher_gist_and_its_source_gists_take_one_place(mem, clock, lang, query):  # type: ignore[no-untyped-def]
    low = [episode_gist(mem, clock, lang, p, lang["topic"])[0] for p in lang["people"][:3]]
    (top,) = [g for g in mem.list(kind="gist") if g.metadata.get("gist_level") == 2]
    hits = mem.recall(query, k=10)
    gone = check_one_place_each(mem, hits)
    assert gone, "both levels matched: one of them is collapsed"
    shown = {h.memory.id for h in hits} | set(gone)
    assert shown >= {top.id, *(g.id for g in low)}  # every level is reachable from the answer
    if top.id not in gone:  # the higher gist kept its place: it names each source it shadowed
        assert {g.id for g in low} <= set(gone)
    else:  # a source gist kept it: the other source gists are not its level, they stay
        assert sum(h.memory.id in {g.id for g in low} for h in hits) == len(low)


@pytest.mark.parametrize(("lang", "query"), [
    (EN, "Wang rented skis for 2 days at the resort shop"),
    (ZH, "小王在雪场商店租了2天的雪板"),
], ids=["en", "zh"])
def test_a_gist_and_its_woken_episodes_take_one_place(mem, clock, lang, query):  # type: ignore[no-untyped-def]
    gist, events, _ = episode_gist(mem, clock, lang, lang["people"][0], lang["topic"])
    hits = mem.recall(query, k=5)
    gone = check_one_place_each(mem, hits)
    assert gone and set(gone) <= {gist.id, *(e.id for e in events)}
    ids = {h.memory.id for h in hits}
    assert (gist.id in ids) != (gist.id in gone)


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_gists_of_one_level_are_not_collapsed(mem, clock, lang):  # type: ignore[no-untyped-def]
    made = [episode_gist(mem, clock, lang, p, lang["topic"])[0] for p in lang["people"][:2]]
    hits = mem.recall(lang["topic"], k=10)
    assert {g.id for g in made} <= {h.memory.id for h in hits}
    named = [c for h in hits for c in collapsed_ids(h)]  # woken episodes may be, not gists
    assert all(mem.get(c).kind.value == "event" for c in named)

"""Issue 29, item 4: a sleep converges after a kill at any phase boundary. Each phase commits
on its own, so a process killed after decay committed and before consolidation did leaves
archived episodes that no consolidation has seen; the next sleep must give them their gist,
and end where one uninterrupted sleep ends. A kill is simulated by running the phases before
the boundary one by one (each commits, as in a whole sleep) and then nothing else; time is the
injectable clock's."""

from __future__ import annotations

from collections import Counter

import pytest

import engramdb
from engramdb.dynamics.sleep import PHASES

BACKENDS = ("sqlite", "postgres")
WANG = ["Went to Harbin with Wang to see the ice sculptures. It was minus 25 degrees.",
        "Wang booked the hotel in Harbin for 3 nights.",
        "Dinner with Wang: dumplings near the Central Street."]
LI = ["Lunch with Li at the canteen.", "Call with Li about the budget."]


@pytest.fixture
def mem(tmp_path, clock, backend, request):  # type: ignore[no-untyped-def]
    target = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "m.db"
    with engramdb.open(target, embedder="hashing", clock=clock, auto_sleep_importance=0) as m:
        yield m


def seed(me) -> None:  # type: ignore[no-untyped-def]
    """Three episodes with Wang, two with Li, a fact, and a first sleep (so the later one is
    incremental, as after any kill in a scope that has slept)."""
    for text in WANG:
        me.remember(text, kind="event", people=["Wang"], places=["Harbin"])
    for text in LI:
        me.remember(text, kind="event", people=["Li"])
    me.remember("The office is on the fourth floor", kind="fact")
    me.sleep()


LATER = 90   # days without a sleep: the events weigh 0.5 ** (90 / 14) = 0.01, decay archives


def state(me) -> Counter[tuple[str, str, str, bool]]:  # type: ignore[no-untyped-def]
    """What a user can see: every memory's layer, kind, content, and whether it has a gist."""
    rows = me.list(layer=["core", "archived", "deleted"], limit=1000)
    return Counter((r.layer.value, r.kind.value, r.content, "gist" in r.metadata) for r in rows)


def test_a_decay_alone_then_a_full_sleep_gives_the_episodes_their_gist(mem, clock):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    seed(me)
    clock.advance(days=LATER)
    assert len(me.sleep("decay").phase("decay").ids("archived")) == 5
    report = me.sleep(full=True).phase("consolidate")
    assert report.counts() == {"gist_created": 1, "consolidated": 3}
    (gist,) = me.list(kind="gist")
    assert gist.metadata["theme"] == "person:wang" and gist.metadata["support"] == 3
    for text in WANG:
        (rec,) = [r for r in me.list(layer=["archived"]) if r.content == text]
        assert rec.metadata["gist"] == gist.id


@pytest.mark.parametrize("boundary", range(1, len(PHASES)))
def test_a_sleep_killed_after_any_phase_is_finished_by_the_next(mem, clock, boundary):  # type: ignore[no-untyped-def]
    """Killed after PHASES[:boundary] committed: the next whole sleep ends where one
    uninterrupted sleep ends, and a sleep after that changes nothing."""
    whole, killed = mem.scope(user="alice", agent="whole"), mem.scope(user="alice", agent="killed")
    seed(whole)
    seed(killed)
    clock.advance(days=LATER)
    expected = whole.sleep()
    for phase in PHASES[:boundary]:
        killed.sleep(phase)
    resumed = killed.sleep()
    assert state(killed) == state(whole)
    assert Counter(x for x in state(killed).elements() if x[1] == "gist") == Counter(
        {("core", "gist", next(iter(whole.list(kind="gist"))).content, False): 1})
    if boundary <= PHASES.index("consolidate"):   # the next sleep does what was left
        assert resumed.phase("consolidate").counts() == expected.phase("consolidate").counts()
    assert killed.sleep().changes == 0 and killed.sleep(full=True).changes == 0

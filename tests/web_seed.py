"""A store worth looking at, for the web page tests: conversation turns and the facts
extracted from them, a superseded fact chain (Lisbon -> Berlin), episodes folded into a gist
by a sleep, memories archived by decay, uses, links, English and Chinese."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import engramdb
from engramdb.engine import Memory, ScopedMemory
from engramdb.testing import FrozenClock

HARBIN = ["Went to Harbin with Wang to see the ice sculptures.",
          "Wang booked the hotel in Harbin for 3 nights.",
          "Dinner with Wang: dumplings near the Central Street."]


@dataclass
class Seeded:
    mem: Memory
    me: ScopedMemory
    clock: FrozenClock
    lisbon: str
    berlin: str
    gist: str
    archived: str


def seed(path: Path) -> Seeded:
    clock = FrozenClock(datetime(2025, 11, 3, 9, 0, tzinfo=UTC))
    mem = engramdb.open(path, embedder="hashing", clock=clock, auto_sleep_importance=0)
    me = mem.scope(user="alice", agent="noah")
    me.remember("Kickoff of the engramdb project", kind="event", at="2025-06-10")
    lisbon = me.ingest([{"role": "user", "content": "I live in Lisbon now."}],
                       session="s1").extracted[0].memory.id
    for text in HARBIN:
        me.remember(text, kind="event", people=["Wang"], places=["Harbin"])
    offsite = me.remember("Team offsite in Porto", kind="event").memory.id
    me.remember("Ada", kind="identity", uri="core://user/name")
    clock.advance(days=20)
    berlin = me.remember("I live in Berlin now.", kind="fact").memory.id
    for _ in range(3):
        clock.advance(days=6)
        me.recall("where do I live", 3)
    me.link(berlin, offsite, "related", 0.6)
    me.link(offsite, berlin, "caused", 0.3)
    clock.advance(days=40)
    me.sleep()
    gist = next(r.id for r in me.list(kind="gist"))
    clock.advance(days=3)
    me.ingest([{"role": "user", "content": "我最喜欢的菜是饺子。"}], session="s2")
    dumplings = next(r.id for r in me.list(kind="preference"))
    me.link(berlin, dumplings, "reminds", 0.8)
    clock.advance(days=2)
    return Seeded(mem, me, clock, lisbon, berlin, gist, offsite)

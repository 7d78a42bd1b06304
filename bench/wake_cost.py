"""Recall CPU in a scope with an archive, for questions that wake nothing (issue 27: waking by
meaning must not make such a recall dearer). Hashing embedder: it times the engine, not a model.

    PYTHONPATH=src .venv/bin/python bench/wake_cost.py     # run it on two checkouts, alternated

A scope of 2000 archived events (faded by moving the clock and sleeping) and 200 core facts;
150 how-to questions on things none of them mention. Prints the recall CPU time (this
process's) at the median and the 90th percentile, and how many questions woke something."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import engramdb
from engramdb import Draft
from engramdb.testing import FrozenClock

SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vel", "dor", "quin", "shi", "bra"]
PLACES = ["garden", "station", "museum", "river", "market", "bakery", "library", "harbour",
          "stadium", "bridge", "castle", "forest", "office", "school", "theatre", "hospital"]
THINGS = ["bread", "flour", "engine", "violin", "printer", "kettle", "ladder", "tomato",
          "carpet", "laptop", "umbrella", "blanket", "compass", "battery", "helmet"]


def main() -> None:
    rng = random.Random(7)

    def name() -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()

    def event() -> str:
        return (f"Yesterday I talked with {name()} about the {rng.choice(PLACES)} "
                f"near the {rng.choice(PLACES)} in {name()}")

    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    path = Path(tempfile.mkdtemp(prefix="wake-cost-")) / "c.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as db:
        mem = db.scope(user="u", agent="a")
        mem.remember_many([Draft(content=event(), kind="event") for _ in range(2000)])
        clock.advance(days=400)
        mem.sleep()
        mem.remember_many([Draft(content=event(), kind="fact") for _ in range(200)])
        questions = [f"how do I fix the {rng.choice(THINGS)} and the {rng.choice(THINGS)}"
                     for _ in range(150)]
        for q in questions[:20]:  # warm the caches
            mem.recall(q, k=5, track=False)
        cpu, woke = [], 0
        for q in questions:
            start = time.process_time()
            hits = mem.recall(q, k=5, track=False)
            cpu.append(time.process_time() - start)
            woke += any(h.woken for h in hits)
    cpu.sort()
    print(f"recall CPU p50 {1000 * statistics.median(cpu):.2f} ms, "
          f"p90 {1000 * cpu[int(0.9 * len(cpu))]:.2f} ms; "
          f"questions that woke something: {woke}/{len(questions)}")


if __name__ == "__main__":
    main()

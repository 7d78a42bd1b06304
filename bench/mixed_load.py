"""A small mixed load for A/B comparisons of the engine's own cost: a store of 3,000 memories
(remember_many), then 1,000 single writes (`remember`) and 100 recalls, on the hashing
embedder. Prints this process's CPU time per write and per recall (p50, p95, total), which a
busy shared machine inflates less than wall time. Not a test: run it before and after a change.

    .venv/bin/python bench/mixed_load.py [--base 3000] [--writes 1000] [--recalls 100]
    .venv/bin/python bench/mixed_load.py --profile writes     # cProfile one phase
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import engramdb
from common import NOW, Corpus, pct
from engramdb.testing import FrozenClock


def cpu_ms(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", type=int, default=3000)
    p.add_argument("--writes", type=int, default=1000)
    p.add_argument("--recalls", type=int, default=100)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--profile", choices=("writes", "recalls"))
    args = p.parse_args(argv)
    corpus, queries = Corpus(args.seed), Corpus(args.seed + 1)
    clock = FrozenClock(NOW)
    with tempfile.TemporaryDirectory(prefix="engramdb-mixed-") as tmp, \
            engramdb.open(Path(tmp) / "m.db", embedder="hashing", clock=clock) as mem:
        me = mem.scope(user="mixed", agent="bench")
        me.remember_many([corpus.draft(i) for i in range(args.base)])
        writes = [corpus.draft(args.base + i) for i in range(args.writes)]
        asks = [queries.query() for _ in range(args.recalls)]
        prof = cProfile.Profile(time.process_time) if args.profile else None
        w, r, actions = [], [], {}
        if prof and args.profile == "writes":
            prof.enable()
        for d in writes:
            def one(d=d) -> None:  # type: ignore[no-untyped-def]
                got = me.remember(d.content, kind=d.kind, people=d.people, places=d.places)
                actions[got.action] = actions.get(got.action, 0) + 1
            w.append(cpu_ms(one))
            clock.advance(seconds=30)
        if prof:
            prof.disable()
            if args.profile == "recalls":
                prof.enable()
        for q in asks:
            r.append(cpu_ms(lambda q=q: me.recall(q, k=5, track=False)))
        if prof:
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(35)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
    print(f"writes  ({args.writes}): CPU p50 {pct(w, 50):.2f} ms, p95 {pct(w, 95):.2f} ms, "
          f"total {sum(w) / 1000:.2f} s; actions {dict(sorted(actions.items()))}")
    print(f"recalls ({args.recalls}): CPU p50 {pct(r, 50):.2f} ms, p95 {pct(r, 95):.2f} ms, "
          f"total {sum(r) / 1000:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

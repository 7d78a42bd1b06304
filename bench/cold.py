"""Hot recall cost with a large archive kept in the hot store vs moved to the cold tier (issue
31). Hashing embedder: it times the engine, not a model. Prints figures; not a test.

    PYTHONPATH=src .venv/bin/python bench/cold.py                       # 20000 archived, 2000 core
    PYTHONPATH=src .venv/bin/python bench/cold.py --archived 5000 --core 500 --queries 60

One SQLite store is built: ``--archived`` events, faded by moving the clock 400 days and
sleeping, then ``--core`` fresh memories (bench/common.py's synthetic corpus, English with some
Chinese). Two copies of that file are opened 200 days later: "kept" (``cold_after`` off, the
archive stays in the hot structures) and "cold" (``cold_after = 180d``, one sleep moves the
archive to the cold tier). The same questions are asked of both with ``track=False``, and this
process's CPU time per recall is reported (median, 90th percentile, mean), with the rows in the
hot search structures. The cold copy is also asked with ``include_cold=True``, the on-demand
search, for its cost."""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import engramdb
from common import NOW, Corpus
from engramdb import Draft
from engramdb.testing import FrozenClock


def build(path: Path, archived: int, core: int) -> None:
    corpus = Corpus(31)
    clock = FrozenClock(NOW)
    with engramdb.open(path, embedder="hashing", clock=clock) as db:
        mem = db.scope(user="u", agent="a")
        for start in range(0, archived, 2000):
            mem.remember_many([Draft(content=d.content, kind="event", at=d.at,
                                     people=d.people, places=d.places)
                               for d in (corpus.draft(n) for n in
                                         range(start, min(start + 2000, archived)))])
        clock.advance(days=400)
        mem.sleep()
        mem.remember_many([corpus.draft(archived + n) for n in range(core)])
        print(f"built: {mem.stats().by_layer}")


def copy(src: Path, dst: Path) -> None:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def hot_rows(path: Path) -> str:
    with sqlite3.connect(path) as db:
        vectors = db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        fts = db.execute("SELECT count(*) FROM memories_fts").fetchone()[0]
    return f"hot vectors {vectors}, hot FTS rows {fts}"


def timed(mem, questions: list[str], include_cold: bool = False) -> list[float]:  # type: ignore[no-untyped-def]
    for q in questions[:20]:   # warm the caches (vector matrix, postings, backgrounds)
        mem.recall(q, k=5, track=False, include_cold=include_cold)
    cpu = []
    for q in questions:
        start = time.process_time()
        mem.recall(q, k=5, track=False, include_cold=include_cold)
        cpu.append(time.process_time() - start)
    return cpu


def line(name: str, cpu: list[float]) -> str:
    cpu = sorted(cpu)
    return (f"{name:<28} p50 {1000 * statistics.median(cpu):7.2f} ms   "
            f"p90 {1000 * cpu[int(0.9 * len(cpu))]:7.2f} ms   "
            f"mean {1000 * statistics.fmean(cpu):7.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--archived", type=int, default=20000)
    parser.add_argument("--core", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cold-bench-"))
    base = root / "base.db"
    started = time.perf_counter()
    build(base, args.archived, args.core)
    print(f"build {time.perf_counter() - started:.1f} s")
    corpus = Corpus(99)
    questions = [corpus.query() for _ in range(args.queries + 20)]
    results = {}
    for name, cold_after in (("kept", "off"), ("cold", "180d")):
        path = root / f"{name}.db"
        copy(base, path)
        clock = FrozenClock(NOW + timedelta(days=600))
        with engramdb.open(path, embedder="hashing", clock=clock, cold_after=cold_after) as db:
            mem = db.scope(user="u", agent="a")
            started = time.perf_counter()
            moved = mem.sleep(full=True).phase("decay").ids("moved_cold")
            print(f"{name}: sleep {time.perf_counter() - started:.1f} s, moved cold "
                  f"{len(moved)}; {mem.stats().by_layer}; {hot_rows(path)}")
            results[name] = timed(mem, questions)
            if name == "cold":
                results["cold, include_cold=True"] = timed(mem, questions, include_cold=True)
    print(f"\nrecall CPU per query ({args.queries} questions, k=5, track=False; "
          f"{args.archived} archived, {args.core} core):")
    for name, cpu in results.items():
        print(line(name, cpu))
    kept, cold = statistics.median(results["kept"]), statistics.median(results["cold"])
    print(f"hot recall median: {kept / cold:.2f}x faster with the archive in the cold tier")


if __name__ == "__main__":
    main()

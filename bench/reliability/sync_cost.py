"""What ``synchronous = FULL`` costs against NORMAL (issue 29): single remembers, the same
count in batches of 50 (``remember_many``) and tracked recalls (a tracked recall writes the
uses it made) with the hashing embedder, each setting on
a fresh file, the settings alternated round by round so load from other jobs falls on both;
then, under strace, how many fsync/fdatasync calls each setting makes per write.

    PYTHONPATH=src python bench/reliability/sync_cost.py [--rounds 5] [--writes 500] [--dir D]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import engramdb
from engramdb import Draft
from engramdb.testing import FrozenClock

SETTINGS = ("normal", "full")
CHILD = r"""
import sys, engramdb
with engramdb.open(sys.argv[1], embedder="hashing", synchronous=sys.argv[2],
                   auto_sleep_importance=0) as mem:
    me = mem.scope(user="cost")
    for i in range(int(sys.argv[3])):
        me.remember(f"memory number {i} about item{i} in the shed", kind="fact")
"""


def one_run(folder: Path, synchronous: str, writes: int, recalls: int) -> dict[str, float]:
    path = folder / f"cost-{synchronous}.db"
    clock = FrozenClock(datetime(2026, 3, 1, tzinfo=UTC))
    with engramdb.open(path, embedder="hashing", clock=clock, synchronous=synchronous,
                       auto_sleep_importance=0) as mem:
        me = mem.scope(user="cost")
        me.remember("warm up the embedder and the tables", kind="fact")
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(writes):
            me.remember(f"memory number {i} about item{i} in the shed", kind="fact")
            clock.advance(seconds=1)
        figures = {"remember_wall_ms": (time.perf_counter() - wall) * 1000 / writes,
                   "remember_cpu_ms": (time.process_time() - cpu) * 1000 / writes}
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(recalls):
            me.recall(f"what about item{i * 7 % writes}?", k=5)
            clock.advance(minutes=10)   # past the use debounce: every recall writes its uses
        figures["recall_wall_ms"] = (time.perf_counter() - wall) * 1000 / max(recalls, 1)
        figures["recall_cpu_ms"] = (time.process_time() - cpu) * 1000 / max(recalls, 1)
        wall, cpu = time.perf_counter(), time.process_time()
        for start in range(0, writes, 50):
            me.remember_many([Draft(f"batched memory {i} about tool{i} in the barn", kind="fact")
                              for i in range(start, min(start + 50, writes))])
        figures["batch_wall_ms"] = (time.perf_counter() - wall) * 1000 / writes
        figures["batch_cpu_ms"] = (time.process_time() - cpu) * 1000 / writes
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return figures


def syncs_per_write(folder: Path, synchronous: str, writes: int = 100) -> float | None:
    """fsync + fdatasync calls per remember, counted by strace (None without strace)."""
    if shutil.which("strace") is None:
        return None
    path = folder / f"strace-{synchronous}.db"
    counts = []
    for n in (0, writes):   # the difference takes out what opening and closing sync
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        done = subprocess.run(
            ["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", sys.executable, "-c", CHILD,
             str(path), synchronous, str(n)],
            capture_output=True, text=True, env={**os.environ, "ENGRAMDB_THREADS": "1"})
        calls = re.findall(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync$",
                           done.stderr, re.M)
        counts.append(sum(int(c) for c in calls))
    return (counts[1] - counts[0]) / writes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--writes", type=int, default=500)
    ap.add_argument("--recalls", type=int, default=200)
    ap.add_argument("--dir", default=None, help="where the files go (a real disk, not tmpfs)")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(dir=args.dir))
    try:
        runs: dict[str, list[dict[str, float]]] = {s: [] for s in SETTINGS}
        for r in range(args.rounds):
            for synchronous in SETTINGS if r % 2 == 0 else SETTINGS[::-1]:
                runs[synchronous].append(one_run(folder, synchronous, args.writes, args.recalls))
                print(f"round {r + 1} {synchronous}: {runs[synchronous][-1]}", flush=True)
        print(f"\n{args.writes} single remembers, {args.recalls} tracked recalls and "
              f"{args.writes} memories in batches of 50 a run, {args.rounds} runs per setting, "
              f"medians (ms per call; per memory for the batches):")
        print("| synchronous | remember wall | remember CPU | tracked recall wall | "
              "tracked recall CPU | batched, per memory, wall | CPU | fsyncs per remember |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for synchronous in SETTINGS:
            med = {k: statistics.median(run[k] for run in runs[synchronous])
                   for k in runs[synchronous][0]}
            syncs = syncs_per_write(folder, synchronous)
            print(f"| {synchronous.upper()} | {med['remember_wall_ms']:.2f} | "
                  f"{med['remember_cpu_ms']:.2f} | {med['recall_wall_ms']:.2f} | "
                  f"{med['recall_cpu_ms']:.2f} | {med['batch_wall_ms']:.2f} | "
                  f"{med['batch_cpu_ms']:.2f} | {'n/a' if syncs is None else f'{syncs:.2f}'} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

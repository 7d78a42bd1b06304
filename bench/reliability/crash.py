"""SIGKILL mid-write, mid-batch and mid-sleep: a child process writes (one memory at a time,
batches of 20, and a full sleep between), printing each write once it is acknowledged; the
parent kills it at a random moment, then opens the file. Property, for every kill: SQLite's
integrity_check says ok, the file opens, and every acknowledged write is present.

``--phase-kills N``: a whole sleep is SIGKILLed right after one of its phases committed (each
boundary in turn), then the file is opened again and slept. Property: the next sleep ends
where one uninterrupted sleep ends (the same memories, layers and gists as a copy of the file
that slept without a kill), and a sleep after that changes nothing. Time is a frozen clock.

    PYTHONPATH=src python bench/reliability/crash.py [--kills 100] [--phase-kills 20]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CHILD = r"""
import sys, engramdb
from engramdb import Draft
path, start = sys.argv[1], int(sys.argv[2])
with engramdb.open(path, embedder="hashing") as mem:
    me = mem.scope(user="crash")
    print("ready", flush=True)
    n = start
    while True:
        text = f"single write {n} 单条写入 {n}"
        me.remember(text, kind="fact")
        print("ack", text, flush=True)
        batch = [f"batch write {n}.{i} 批量写入" for i in range(20)]
        me.remember_many([Draft(t, kind="fact") for t in batch])
        for t in batch:
            print("ack", t, flush=True)
        if n % 3 == 0:
            me.sleep(full=True)
        n += 1
"""


def one_kill(path: Path, start: int, rng: random.Random) -> tuple[list[str], str]:
    """Run the writer, kill it after a random delay; its acknowledged writes and the phase."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(start)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "ENGRAMDB_THREADS": "1"})
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        raise RuntimeError("the writer did not start")
    first = proc.stdout.readline()   # writing has begun: kill it somewhere after
    time.sleep(rng.uniform(0.0, 1.5))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    acked = [line[4:].rstrip("\n") for line in [first, *proc.stdout] if line.startswith("ack ")]
    return acked, "batch" if acked and acked[-1].startswith("batch") else "single/sleep"


def check(path: Path, acked: set[str]) -> dict[str, Any]:
    db = sqlite3.connect(path)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        fts = db.execute("INSERT INTO memories_fts(memories_fts, rank) "
                         "VALUES ('integrity-check', 1)").rowcount
    except sqlite3.DatabaseError as exc:
        integrity, fts = f"error: {exc}", -1
    finally:
        db.close()
    import engramdb

    with engramdb.open(path, embedder="hashing") as mem:
        stored = {r.content for r in mem.scope(user="crash").list()}
    return {"integrity": integrity, "fts_ok": fts != -1, "missing": len(acked - stored)}


def run(kills: int, seed: int = 18, verbose: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    acked: set[str] = set()
    bad_integrity = missing = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "crash.db"
        for k in range(kills):
            got, _ = one_kill(path, k * 100_000, rng)
            acked.update(got)
            result = check(path, acked)
            bad_integrity += result["integrity"] != "ok" or not result["fts_ok"]
            missing = max(missing, result["missing"])
            if verbose:
                print(f"kill {k + 1}: acknowledged {len(acked)}, {result}", flush=True)
    return {"kills": kills, "acknowledged_writes": len(acked), "integrity_failures": bad_integrity,
            "missing_acknowledged": missing}


# ---------------------------------------------------------------- kills between sleep phases

SLEEPER = r"""
import os, signal, sys
from datetime import datetime
import engramdb
from engramdb.dynamics import sleep
from engramdb.testing import FrozenClock
path, phase, when = sys.argv[1], sys.argv[2], datetime.fromisoformat(sys.argv[3])
run = sleep._RUNNERS[phase]

def then_die(p):
    report = run(p)
    os.kill(os.getpid(), signal.SIGKILL)   # this phase committed; the next never starts
    return report

sleep._RUNNERS[phase] = then_die
with engramdb.open(path, embedder="hashing", clock=FrozenClock(when),
                   auto_sleep_importance=0) as mem:
    mem.scope(user="crash").sleep()
"""
BOUNDARIES = ("sync", "decay", "tidy", "lessons", "consolidate")   # killed after each
PEOPLE = ("Wang", "Li", "Ines", "小王", "Omar", "Sara")
DAYS = 90   # between the first sleep and the killed one: the episodes settle and decay


def seed_file(path: Path, rng: random.Random) -> Any:
    """Episodes of a few people (some make a gist, some are too few), facts, a first sleep;
    the frozen clock, set to the killed sleep's time."""
    import engramdb
    from engramdb.testing import FrozenClock

    clock = FrozenClock()
    with engramdb.open(path, embedder="hashing", clock=clock, auto_sleep_importance=0) as mem:
        me = mem.scope(user="crash")
        for person in rng.sample(PEOPLE, 4):
            for i in range(rng.randint(1, 5)):
                me.remember(f"Met {person} for the {i + 1}. time, topic {rng.randint(0, 99)}",
                            kind="event", people=[person])
                clock.advance(hours=rng.randint(1, 30))
        for i in range(3):
            me.remember(f"Fact number {i}: the office is on floor {rng.randint(1, 9)}")
        me.sleep()
    clock.advance(days=DAYS)
    return clock


def state(path: Path, clock: Any) -> tuple[Any, int]:
    """Every memory's (layer, kind, content, has a gist), and what a next sleep changes."""
    import engramdb

    with engramdb.open(path, embedder="hashing", clock=clock, auto_sleep_importance=0) as mem:
        me = mem.scope(user="crash")
        rows = sorted((r.layer.value, r.kind.value, r.content, "gist" in r.metadata)
                      for r in me.list(layer=["core", "archived", "deleted"]))
        return rows, me.sleep().changes + me.sleep(full=True).changes


def one_phase_kill(folder: Path, phase: str, rng: random.Random) -> bool:
    """One round: does the sleep after a kill past ``phase`` end like an uninterrupted one?"""
    import engramdb

    killed, whole = folder / "killed.db", folder / "whole.db"
    clock = seed_file(killed, rng)
    shutil.copy(killed, whole)   # closed: the WAL was checkpointed into the file
    proc = subprocess.run([sys.executable, "-c", SLEEPER, str(killed), phase,
                           clock.now().isoformat()], capture_output=True, text=True,
                          env={**os.environ, "ENGRAMDB_THREADS": "1"}, timeout=300)
    if proc.returncode != -signal.SIGKILL:
        raise RuntimeError(f"the sleeper was not killed after {phase}: {proc.stderr[-2000:]}")
    for path in (killed, whole):   # the next sleep, after the kill or after nothing
        with engramdb.open(path, embedder="hashing", clock=clock,
                           auto_sleep_importance=0) as mem:
            mem.scope(user="crash").sleep()
    (got, again), (want, _) = state(killed, clock), state(whole, clock)
    return got == want and again == 0


def run_phase_kills(kills: int, seed: int = 29, verbose: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    diverged: list[str] = []
    for k in range(kills):
        phase = BOUNDARIES[k % len(BOUNDARIES)]
        with tempfile.TemporaryDirectory() as tmp:
            ok = one_phase_kill(Path(tmp), phase, rng)
        if not ok:
            diverged.append(phase)
        if verbose:
            print(f"phase kill {k + 1} after {phase}: {'converged' if ok else 'DIVERGED'}",
                  flush=True)
    return {"phase_kills": kills, "converged": kills - len(diverged),
            "diverged_after": sorted(set(diverged))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--phase-kills", type=int, default=0)
    args = ap.parse_args(argv)
    figures = run(args.kills, verbose=True) if args.kills else {}
    if args.phase_kills:
        figures.update(run_phase_kills(args.phase_kills, verbose=True))
    for key, value in figures.items():
        print(f"{key}: {value}")
    ok = figures.get("integrity_failures", 0) == 0 and \
        figures.get("missing_acknowledged", 0) == 0 and not figures.get("diverged_after")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

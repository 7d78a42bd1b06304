"""SIGKILL mid-write, mid-batch and mid-sleep: a child process writes (one memory at a time,
batches of 20, and a full sleep between), printing each write once it is acknowledged; the
parent kills it at a random moment, then opens the file. Property, for every kill: SQLite's
integrity_check says ok, the file opens, and every acknowledged write is present.

    PYTHONPATH=src python bench/reliability/crash.py [--kills 100]
"""

from __future__ import annotations

import argparse
import os
import random
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    args = ap.parse_args(argv)
    figures = run(args.kills, verbose=True)
    for key, value in figures.items():
        print(f"{key}: {value}")
    ok = figures["integrity_failures"] == 0 and figures["missing_acknowledged"] == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

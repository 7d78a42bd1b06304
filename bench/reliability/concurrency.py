"""Several processes write to one SQLite file while others recall from it.

Each writer remembers ``per_writer`` distinct memories (every one holds the word ``common``,
so the word's document count equals the row total: the case where a row total read apart
from the hit counts breaks BM25's idf); each reader recalls until the writers are done.
Property: 0 errors in any process, every acknowledged write present exactly once (0 lost,
0 duplicates). Prints the figures; exits 1 when the property breaks.

    PYTHONPATH=src python bench/reliability/concurrency.py [--writers 4] [--per-writer 2500]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import queue
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

WORDS = ("apple", "river", "stone", "cloud", "tiger", "lemon", "piano", "maple")


def _writer(path: str, number: int, count: int, out: Any) -> None:
    import engramdb

    acked: list[str] = []
    errors: list[str] = []
    with engramdb.open(path, embedder="hashing") as mem:
        me = mem.scope(user="load")
        for i in range(count):
            text = f"common note w{number} n{i} {WORDS[i % len(WORDS)]} 记录{i}"
            try:
                me.remember(text, kind="fact", uri=f"core://load/w{number}/n{i}")
                acked.append(text)
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                errors.append(f"write: {type(exc).__name__}: {exc}")
    out.put(("writer", number, acked, errors, count))


def _reader(path: str, number: int, stop: Any, out: Any) -> None:
    import engramdb

    errors: list[str] = []
    done = 0
    with engramdb.open(path, embedder="hashing") as mem:
        me = mem.scope(user="load")
        while not stop.is_set() or done < 20:
            try:
                me.recall(f"common {WORDS[done % len(WORDS)]}", k=5, track=False,
                          preset="lexical")
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                errors.append(f"recall: {type(exc).__name__}: {exc}")
                if len(errors) == 1:
                    errors.append(traceback.format_exc())
            done += 1
    out.put(("reader", number, [], errors, done))


def _collect(out: Any, procs: list[Any], n: int) -> list[Any]:
    """``n`` results from the queue; fails at once when every process died without one."""
    got: list[Any] = []
    while len(got) < n:
        try:
            got.append(out.get(timeout=2))
        except queue.Empty:
            if not any(p.is_alive() for p in procs):
                raise RuntimeError("the workers died without a result (see stderr)") from None
    return got


def run(path: str, writers: int, per_writer: int, readers: int) -> dict[str, Any]:
    """Run the load on the file at ``path``; the figures as a dict."""
    import engramdb

    with engramdb.open(path, embedder="hashing") as mem:   # the schema, made once
        mem.scope(user="load").remember("common seed note", kind="fact")
    ctx = mp.get_context("spawn")
    out, stop = ctx.Queue(), ctx.Event()
    start = time.perf_counter()
    procs = [ctx.Process(target=_writer, args=(path, n, per_writer, out)) for n in range(writers)]
    procs += [ctx.Process(target=_reader, args=(path, n, stop, out)) for n in range(readers)]
    for p in procs:
        p.start()
    results = _collect(out, procs, writers)
    stop.set()
    results += _collect(out, procs, readers)
    for p in procs:
        p.join(timeout=60)
    seconds = time.perf_counter() - start
    acked = [text for r in results for text in r[2]]
    errors = [e for r in results for e in r[3]]
    operations = sum(r[4] for r in results)
    with engramdb.open(path, embedder="hashing") as mem:
        stored = [r.content for r in mem.scope(user="load").list()]
    counts: dict[str, int] = {}
    for text in stored:
        counts[text] = counts.get(text, 0) + 1
    return {
        "operations": operations, "writes_acked": len(acked),
        "recalls": sum(r[4] for r in results if r[0] == "reader"),
        "errors": len(errors), "first_errors": errors[:3],
        "lost": sum(1 for text in acked if text not in counts),
        "duplicates": sum(c - 1 for c in counts.values() if c > 1),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--per-writer", type=int, default=2500)
    ap.add_argument("--readers", type=int, default=2)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        figures = run(str(Path(tmp) / "load.db"), args.writers, args.per_writer, args.readers)
    for key, value in figures.items():
        print(f"{key}: {value}")
    ok = figures["errors"] == 0 and figures["lost"] == 0 and figures["duplicates"] == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

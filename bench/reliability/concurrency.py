"""Several processes write to one SQLite file while others recall from it.

Each writer remembers ``per_writer`` distinct memories (every one holds the word ``common``,
so the word's document count equals the row total: the case where a row total read apart
from the hit counts breaks BM25's idf); each reader recalls until the writers are done.
Property: 0 errors in any process, every acknowledged write present exactly once (0 lost,
0 duplicates). Prints the figures; exits 1 when the property breaks.

``--served-postgres``: the same load and property through `engramdb serve --workers 2` on a
PostgreSQL database (the embedded server of bench/pg_server.py, or ``--pg-url``): writers and
readers are threads sending POST /v1/memories and /v1/recall over loopback, each bounded by
its count and by ``--seconds``.

    PYTHONPATH=src python bench/reliability/concurrency.py [--writers 4] [--per-writer 2500]
    PYTHONPATH=src python bench/reliability/concurrency.py --served-postgres --per-writer 250
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
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
    return _figures(path, results, time.perf_counter() - start)


def _figures(store: str, results: list[Any], seconds: float) -> dict[str, Any]:
    """The property's figures from the workers' ``(role, number, acked, errors, count)``."""
    import engramdb

    acked = [text for r in results for text in r[2]]
    errors = [e for r in results for e in r[3]]
    with engramdb.open(store, embedder="hashing") as mem:
        stored = [r.content for r in mem.scope(user="load").list()]
    counts: dict[str, int] = {}
    for text in stored:
        counts[text] = counts.get(text, 0) + 1
    return {
        "operations": sum(r[4] for r in results), "writes_acked": len(acked),
        "recalls": sum(r[4] for r in results if r[0] == "reader"),
        "errors": len(errors), "first_errors": errors[:3],
        "lost": sum(1 for text in acked if text not in counts),
        "duplicates": sum(c - 1 for c in counts.values() if c > 1),
        "seconds": round(seconds, 1),
    }


# ---------------------------------------------------------------- through `engramdb serve`

READY_S = 120.0   # how long `engramdb serve` may take to start


def _http_writer(base: str, key: str, number: int, count: int, until: float,
                 results: list[Any]) -> None:
    import httpx

    acked: list[str] = []
    errors: list[str] = []
    with httpx.Client(base_url=base, headers={"X-API-Key": key}, timeout=60) as client:
        for i in range(count):
            if time.monotonic() > until:
                break
            text = f"common note w{number} n{i} {WORDS[i % len(WORDS)]} 记录{i}"
            try:
                r = client.post("/v1/memories", json={
                    "content": text, "kind": "fact", "uri": f"core://load/w{number}/n{i}"})
                if r.status_code == 200:
                    acked.append(text)
                else:
                    errors.append(f"write: HTTP {r.status_code}: {r.text[:200]}")
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                errors.append(f"write: {type(exc).__name__}: {exc}")
    results.append(("writer", number, acked, errors, len(acked)))


def _http_reader(base: str, key: str, number: int, stop: threading.Event, until: float,
                 results: list[Any]) -> None:
    import httpx

    errors: list[str] = []
    done = 0
    with httpx.Client(base_url=base, headers={"X-API-Key": key}, timeout=60) as client:
        while (not stop.is_set() or done < 20) and time.monotonic() < until:
            try:
                r = client.post("/v1/recall", json={
                    "query": f"common {WORDS[done % len(WORDS)]}", "k": 5})
                if r.status_code != 200:
                    errors.append(f"recall: HTTP {r.status_code}: {r.text[:200]}")
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                errors.append(f"recall: {type(exc).__name__}: {exc}")
            done += 1
    results.append(("reader", number, [], errors, done))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_served(url: str, writers: int, per_writer: int, readers: int, *, workers: int = 2,
               seconds: float = 600.0, log: Path | None = None) -> dict[str, Any]:
    """The load through `engramdb serve --workers N` (a subprocess on a loopback port) over
    the store at ``url`` (a postgresql:// URL or a file); the figures as a dict."""
    import httpx

    import engramdb
    from engramdb.keys import Keys

    with engramdb.open(url, embedder="hashing") as mem:   # the schema and a key, made once
        mem.scope(user="load").remember("common seed note", kind="fact")
        key = Keys(mem).create(user="load", agent="default", role="write", name="load")[1]
    port = _free_port()
    out = open(log or os.devnull, "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "engramdb.cli", "serve", "--db", url, "--embedder", "hashing",
         "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)],
        stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "ENGRAMDB_THREADS": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_S
        while True:
            try:
                if httpx.get(base + "/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("engramdb serve did not start" + (f": see {log}" if log
                                                                      else ""))
            time.sleep(0.2)
        start = time.perf_counter()
        until = time.monotonic() + seconds
        results: list[Any] = []
        stop = threading.Event()
        threads = [threading.Thread(target=_http_writer,
                                    args=(base, key, n, per_writer, until, results))
                   for n in range(writers)]
        reading = [threading.Thread(target=_http_reader, args=(base, key, n, stop, until,
                                                                results))
                   for n in range(readers)]
        for t in [*threads, *reading]:
            t.start()
        for t in threads:
            t.join()
        stop.set()
        for t in reading:
            t.join()
        elapsed = time.perf_counter() - start
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        out.close()
    figures = _figures(url, results, elapsed)
    figures["workers"] = workers
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--per-writer", type=int, default=2500)
    ap.add_argument("--readers", type=int, default=2)
    ap.add_argument("--served-postgres", action="store_true",
                    help="through `engramdb serve --workers 2` on PostgreSQL")
    ap.add_argument("--pg-url", help="with --served-postgres: this server, not the embedded one")
    ap.add_argument("--seconds", type=float, default=600.0,
                    help="with --served-postgres: stop writing and reading after this long")
    args = ap.parse_args(argv)
    if args.served_postgres:
        figures = _served_postgres(args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            figures = run(str(Path(tmp) / "load.db"), args.writers, args.per_writer,
                          args.readers)
    for key, value in figures.items():
        print(f"{key}: {value}")
    ok = figures["errors"] == 0 and figures["lost"] == 0 and figures["duplicates"] == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def _served_postgres(args: argparse.Namespace) -> dict[str, Any]:
    """A fresh database on the PostgreSQL server, the served load on it, then dropped."""
    import psycopg

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench/pg_server.py
    import pg_server

    admin = args.pg_url or pg_server.start()
    name = f"engramdb_served_load_{os.getpid()}"
    url = pg_server.database(admin, name, fresh=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return run_served(url, args.writers, args.per_writer, args.readers,
                              seconds=args.seconds, log=Path(tmp) / "serve.log")
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())

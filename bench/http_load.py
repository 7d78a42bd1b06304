"""HTTP benchmark: recall requests per second and latency over loopback, 1 and 4 clients.

Prints figures (it is not a test) and writes bench/results/http.md. A 10k-memory scope is
built with the bench/scale.py corpus (English with some Chinese) and the hashing embedder
(it times the server and the engine, not an embedding model), then `engramdb serve` runs as a
subprocess with 1 and then 2 worker processes. Each client is a thread with its own
keep-alive httpx.Client sending POST /v1/recall (k=5) with a read key, so every recall is a
pure read (a read key's recall never records uses). The clients run on the same machine and
take CPU from the server: the figures are a floor, not a ceiling.

    .venv/bin/python bench/http_load.py                      # 10k memories, workers 1 and 2
    .venv/bin/python bench/http_load.py --size 2000 --requests 100
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named http.py: its folder must not shadow the standard library's http package.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from types import ModuleType  # noqa: E402

import httpx  # noqa: E402

import engramdb  # noqa: E402
from engramdb.keys import Keys  # noqa: E402


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_live = _load("live_server", HERE.parent / "tests" / "live_server.py")
auth, serve_process = _live.auth, _live.serve_process
Corpus = _load("scale", HERE / "scale.py").Corpus

OUT = Path(__file__).parent / "results" / "http.md"
CALL_SIZE = 1000


def build(db: Path, size: int) -> tuple[str, list[str], int]:
    corpus = Corpus(seed=7)
    t = time.perf_counter()
    with engramdb.open(db, embedder="hashing") as mem:
        for lo in range(0, size, CALL_SIZE):
            drafts = [corpus.draft(lo + i) for i in range(min(CALL_SIZE, size - lo))]
            mem.remember_many(drafts, user="bench", agent="bench")
        secret = Keys(mem).create(user="bench", agent="bench", role="read", name="bench")[1]
        stored = mem.count(user="bench", agent="bench")
    print(f"built {stored} memories in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    queries = [corpus.query() for _ in range(200)]
    return secret, queries, stored


def in_process(db: Path, queries: list[str], n: int) -> dict[str, float]:
    """The same recalls through the library in this process: the engine's share of the time."""
    with engramdb.open(db, embedder="hashing") as mem:
        mem.recall(queries[0], k=5, track=False, user="bench", agent="bench")
        latencies = []
        for i in range(n):
            t = time.perf_counter()
            mem.recall(queries[i % len(queries)], k=5, track=False, user="bench", agent="bench")
            latencies.append(time.perf_counter() - t)
    return {"rps": len(latencies) / sum(latencies), "p50": pct(latencies, 0.5) * 1000,
            "p95": pct(latencies, 0.95) * 1000, "mean": statistics.fmean(latencies) * 1000,
            "n": len(latencies)}


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load(base: str, secret: str, queries: list[str], clients: int,
         per_client: int) -> dict[str, float]:
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client(n: int) -> None:
        mine: list[float] = []
        with httpx.Client(base_url=base, headers=auth(secret), timeout=60) as http:
            http.post("/v1/recall", json={"query": queries[n], "k": 5})  # connect, warm
            start.wait()
            for i in range(per_client):
                q = queries[(n * per_client + i) % len(queries)]
                t = time.perf_counter()
                r = http.post("/v1/recall", json={"query": q, "k": 5})
                mine.append(time.perf_counter() - t)
                if r.status_code != 200:
                    with lock:
                        failures.append(r.text)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    t0 = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0
    if failures:
        raise SystemExit(f"{len(failures)} failed requests, e.g. {failures[0]}")
    return {"rps": len(latencies) / wall, "p50": pct(latencies, 0.5) * 1000,
            "p95": pct(latencies, 0.95) * 1000, "mean": statistics.fmean(latencies) * 1000,
            "n": len(latencies)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000, help="memories in the scope")
    parser.add_argument("--requests", type=int, default=400, help="recalls per run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        secret, queries, stored = build(db, args.size)
        load_before = os.getloadavg()[0]
        library = in_process(db, queries, args.requests)
        print(f"library, in process: p50 {library['p50']:.1f} ms, p95 {library['p95']:.1f} ms")
        for workers in args.workers:
            with serve_process(db, workers=workers) as base:
                load(base, secret, queries, 4, 10)  # every worker opens its caches
                for clients in (1, 4):
                    res = load(base, secret, queries, clients, max(1, args.requests // clients))
                    rows.append((workers, clients, res))
                    print(f"workers {workers} clients {clients}: {res['rps']:.0f} req/s, "
                          f"p50 {res['p50']:.1f} ms, p95 {res['p95']:.1f} ms "
                          f"({res['n']} requests)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    loads = (load_before, os.getloadavg()[0])
    args.out.write_text(render(args, stored, library, loads, rows), encoding="utf-8")
    print(f"written to {args.out}")
    return 0


def render(args: argparse.Namespace, stored: int, library: dict[str, float],
           loads: tuple[float, float], rows: list[tuple[int, int, dict[str, float]]]) -> str:
    lines = [
        "# HTTP recall over loopback",
        "",
        f"`python bench/http_load.py` on {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}. One scope of "
        f"{stored:,} memories ({args.size:,} synthetic ones written; the write guard keeps "
        "repeats out) from the bench/scale.py corpus, English with some Chinese, **hashing "
        "embedder** (times the server and the engine, not a model). "
        "`engramdb serve --workers N` in a subprocess; each client a thread with its own "
        "keep-alive httpx client sending `POST /v1/recall` (k=5) with a read key (pure "
        "reads). Clients share the machine with the server. Load average (1 min) at the start "
        f"and the end of the runs: {loads[0]:.1f} and {loads[1]:.1f} on {os.cpu_count()} "
        "CPUs: other work was running; the figures move with it.",
        "",
        "| workers | clients | requests | recalls/s | p50 ms | p95 ms | mean ms |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines.append(f"| library, in process (no HTTP) | 1 | {library['n']:.0f} | "
                 f"{library['rps']:.0f} | {library['p50']:.1f} | {library['p95']:.1f} | "
                 f"{library['mean']:.1f} |")
    for workers, clients, r in rows:
        lines.append(f"| {workers} | {clients} | {r['n']:.0f} | {r['rps']:.0f} | "
                     f"{r['p50']:.1f} | {r['p95']:.1f} | {r['mean']:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())

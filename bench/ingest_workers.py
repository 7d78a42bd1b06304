"""Bulk ingest with the default model on 1 and 2 model worker processes (embed/workers.py),
and 8 computed from the per-process figures.

One ``Memory.ingest`` of N LoCoMo turns (the dev file's conversations, in order; rules
extraction) into a fresh SQLite file, per run; the runs alternate between the worker counts so
that a shared machine's load falls on both alike. Each run records its wall time and its CPU
time: the calling process's (in and out of the bulk embeds, ``Memory._embed_many``) and the
workers' (RUSAGE_CHILDREN, read after ``close`` reaped them), and each worker's peak memory.

On a shared machine the wall times say little, so the figures for an idle machine are
computed from CPU times, which the other load barely changes:

- ``write``: the calling process's CPU outside the bulk embeds (parsing, extraction, the write
  path), serial at any worker count;
- ``model``: the CPU of the bulk embeds, in the calling process at 1 worker; at 2, the
  worker's (less its start-up) plus the calling process's in the embeds (the chunks it takes
  itself, sending texts, receiving vectors);
- ``start``: a worker's start-up (a process, the imports, both models loaded, one text), timed
  alone;
- idle wall(W) = write + the makespan of the chunks (CHUNK texts, model / chunks seconds each)
  handed in order to the first free of W model copies: the calling process from 0 s, the W - 1
  workers from ``start`` on (W <= the cores); turns/s = N / wall(W).

Also: CPU per turn of the in-process model at chunk sizes 8 to 64 (embed/pooled.py CHUNK).

    PYTHONPATH=src python bench/ingest_workers.py [--turns 320] [--repeats 2]
        [--out bench/results/ingest_workers.md]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import engramdb
from engramdb.embed import pooled
from engramdb.embed.pooled import CHUNK
from engramdb.embed.workers import WorkerPool, WorkerSpec, cores_available
from engramdb.registry import make_embedder, worker_factory

LONG = 1032   # the long-conversation import issue 28 timed (5 conversations, 1,032 messages)
SHARED = Path(os.environ.get("ENGRAMDB_LOCOMO_DIR", "/work/shared/bench"))


def messages(n: int) -> list[dict[str, Any]]:
    data = json.loads((SHARED / "locomo_dev.json").read_text(encoding="utf-8"))
    out: list[dict[str, Any]] = []
    for conv in data:
        c = conv["conversation"]
        for key in sorted((k for k in c if k.startswith("session_") and isinstance(c[k], list)),
                          key=lambda k: int(k.split("_")[1])):
            out += [{"role": "user", "speaker": t["speaker"], "content": t["text"]}
                    for t in c[key]]
    return out[:n]


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def peak_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return int(status.split("VmHWM:")[1].split()[0]) / 1024


def one_run(msgs: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    embeds = {"wall": 0.0, "cpu": 0.0, "calls": 0}
    peaks: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        kids0, self0, start = cpu(resource.RUSAGE_CHILDREN), cpu(resource.RUSAGE_SELF), \
            time.perf_counter()
        mem = engramdb.open(os.path.join(tmp, "m.db"), embed_workers=workers, threads=1)
        inner = mem._embed_many

        def timed(*a: Any, **kw: Any) -> Any:
            w, c = time.perf_counter(), time.process_time()
            try:
                return inner(*a, **kw)
            finally:
                embeds["wall"] += time.perf_counter() - w
                embeds["cpu"] += time.process_time() - c
                embeds["calls"] += 1

        mem._embed_many = timed  # type: ignore[method-assign]
        try:
            report = mem.ingest(msgs, session="bench", extractor="rules")
            pool = mem._pool
            started = pool.started if pool is not None else 0
            if pool is not None:
                peaks = [peak_mb(w.proc.pid) for w in pool._workers]
        finally:
            mem.close()
        wall = time.perf_counter() - start
        self_cpu = cpu(resource.RUSAGE_SELF) - self0
        kids = cpu(resource.RUSAGE_CHILDREN) - kids0
    return {"workers": workers, "started": started, "wall": wall, "self_cpu": self_cpu,
            "kids_cpu": kids, "embed_wall": embeds["wall"], "embed_cpu": embeds["cpu"],
            "embed_calls": embeds["calls"], "extracted": len(report.extracted),
            "peaks": peaks, "load": os.getloadavg()[0]}


def start_up(repeats: int) -> list[tuple[float, float]]:
    """(wall, CPU) of one worker from nothing to its first vector."""
    factory = worker_factory("default")
    assert factory is not None
    out = []
    for _ in range(repeats):
        kids0, begin = cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
        pool = WorkerPool(WorkerSpec(factory, {"threads": 1}), 1)
        list(pool.map([["warm up"]], pooled.PASSAGE_UNITS))
        wall = time.perf_counter() - begin
        pool.close()
        out.append((wall, cpu(resource.RUSAGE_CHILDREN) - kids0))
    return out


def chunk_costs(texts: list[str]) -> dict[int, float]:
    """CPU ms per text of the in-process model by chunk size (each measured twice, best)."""
    model = make_embedder("default")
    model.embed_batch(["warm up"])
    costs: dict[int, float] = {}
    saved = pooled.CHUNK
    try:
        for _ in range(2):
            for size in (8, 16, 32, 64):
                pooled.CHUNK = size
                begin = time.process_time()
                pooled.embed_in_chunks(model, texts, size)
                took = 1000 * (time.process_time() - begin) / len(texts)
                costs[size] = min(costs.get(size, took), took)
    finally:
        pooled.CHUNK = saved
    return costs


def project(runs: list[dict[str, Any]], start_s: float, n: int) -> dict[str, float]:
    """The per-process figures (best of the runs, CPU seconds) and the idle-machine walls."""
    one = [r for r in runs if r["workers"] == 1]
    two = [r for r in runs if r["workers"] == 2]
    write = min(r["self_cpu"] - r["embed_cpu"] for r in one)
    model_here = min(r["embed_cpu"] for r in one)
    model_two = min(r["kids_cpu"] - r["started"] * start_s + r["embed_cpu"] for r in two)
    figures = {"write": write, "model_here": model_here, "model_two": model_two}
    for size in (n, LONG):
        scale = size / n   # per-turn figures, for an ingest of ``size`` turns
        chunks = -(-size // CHUNK)
        figures[f"wall_1_{size}"] = scale * (write + model_here)
        for w in (2, 8):
            figures[f"wall_{w}_{size}"] = scale * write + makespan(
                chunks, scale * model_two / chunks, w, start_s)
    return figures


def makespan(chunks: int, cost: float, copies: int, start_s: float) -> float:
    """When the last of ``chunks`` chunks of ``cost`` seconds is done, handed in order to
    whichever model copy is free first: the calling process from 0 s, each of the
    ``copies - 1`` workers from ``start_s`` (its start-up) on."""
    free = [0.0] + [start_s] * (copies - 1)
    for _ in range(chunks):
        i = free.index(min(free))
        free[i] += cost
    return max(free)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=320)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--out", default="bench/results/ingest_workers.md")
    args = ap.parse_args()
    msgs = messages(args.turns)
    n = len(msgs)
    load0 = os.getloadavg()[0]
    print(f"{n} turns, load {load0:.1f}", file=sys.stderr)
    starts = start_up(3)
    start_s = min(c for _, c in starts)
    runs = []
    for rep in range(args.repeats):
        for workers in ((1, 2) if rep % 2 == 0 else (2, 1)):
            runs.append(one_run(msgs, workers))
            print(runs[-1], file=sys.stderr)
    costs = chunk_costs([f"{m['speaker']}: {m['content']}" for m in msgs[:128]])
    figures = project(runs, start_s, n)
    text = report(args, n, load0, starts, runs, costs, figures)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)


def report(args: Any, n: int, load0: float, starts: list[tuple[float, float]],
           runs: list[dict[str, Any]], costs: dict[int, float],
           figures: dict[str, float]) -> str:
    chars = sum(len(m["content"]) for m in messages(n)) / max(1, n)
    lines = [
        "# Bulk ingest on every core: model worker processes",
        "",
        f"`PYTHONPATH=src python bench/ingest_workers.py --turns {args.turns} --repeats "
        f"{args.repeats}`: one `Memory.ingest` of {n} LoCoMo dev turns ({chars:.0f} characters "
        f"on average; rules extraction) into a fresh SQLite file per run, default model "
        f"(multilingual-e5 + USE), one thread a model; {cores_available()} cores, load average "
        f"{load0:.1f} at the start (a machine shared with other jobs: walls are noisy, CPU "
        f"times are not). The runs alternate between 1 and 2 workers.",
        "",
        "## Measured, run by run",
        "",
        "| workers | started | wall s | turns/s | caller CPU s | of it in bulk embeds | "
        "workers' CPU s | worker peak MB | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        peaks = ", ".join(f"{p:.0f}" for p in r["peaks"]) or "-"
        lines.append(f"| {r['workers']} | {r['started']} | {r['wall']:.1f} | "
                     f"{n / r['wall']:.1f} | {r['self_cpu']:.1f} | {r['embed_cpu']:.1f} | "
                     f"{r['kids_cpu']:.1f} | {peaks} | {r['load']:.1f} |")
    walls = ", ".join(f"{w:.2f} s wall / {c:.2f} s CPU" for w, c in starts)
    lines += [
        "",
        f"A worker's start-up, alone (process, imports, both models, one text): {walls}.",
        "",
        "## On an idle machine, from the per-process CPU figures (best run of each)",
        "",
        f"- write path and extraction, in the caller, serial: {figures['write']:.1f} s "
        f"({1000 * figures['write'] / n:.1f} ms a turn);",
        f"- the bulk embeds in the caller (1 worker): {figures['model_here']:.1f} s "
        f"({1000 * figures['model_here'] / n:.1f} ms a turn); with 2 (the worker's CPU less "
        f"its start-up, plus the caller's in the embeds): {figures['model_two']:.1f} s;",
        f"- a worker's start-up: {min(c for _, c in starts):.2f} s CPU; the caller embeds "
        f"meanwhile.",
        "",
        f"| workers | idle wall s, {n} turns | turns/s | vs 1 worker | idle wall s, {LONG} "
        f"turns | turns/s | vs 1 worker |",
        "|---|---|---|---|---|---|---|",
    ]
    for w in (1, 2, 8):
        cells = []
        for size in (n, LONG):
            wall = figures[f"wall_{w}_{size}"]
            cells += [f"{wall:.1f}", f"{size / wall:.1f}",
                      f"{figures[f'wall_1_{size}'] / wall:.2f}x"]
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"The {LONG}-turn column scales the per-turn figures to {LONG} turns like these (issue "
        f"28 timed an import of {LONG} messages, but of ~2,800 characters each).",
        "",
        "## Chunk size (embed/pooled.py CHUNK)",
        "",
        "CPU ms a turn of the in-process model, 128 turns, best of two:",
        "",
        "| chunk | " + " | ".join(str(k) for k in costs) + " |",
        "|---|" + "---|" * len(costs),
        "| ms a turn | " + " | ".join(f"{v:.1f}" for v in costs.values()) + " |",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()

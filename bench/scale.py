"""Scale benchmark: recall latency, ingest throughput, file size and memory at 10k and 100k.

Prints figures (it is not a test) and writes a markdown table (``--out``). The engine is driven
through the public API only (``engramdb.open``, ``remember_many`` with ``Draft``, ``recall`` with
``track=False``). Next to each engine figure stands a plain reference measured in the same run
on the same data: numpy exact cosine over the same float32 matrix and a raw SQLite FTS5 MATCH
over the same indexed text, both read back from the engine's file with the ``sqlite3`` module.
The difference is the engine's overhead (fusion, record loading, strength, scope and layer
filters).

    .venv/bin/python bench/scale.py                 # 10k and 100k scopes (hashing embedder)
    .venv/bin/python bench/scale.py --quick         # 2k and 10k
    .venv/bin/python bench/scale.py --no-model      # skip the default-embedder run
    .venv/bin/python bench/scale.py --backend postgres   # 100k and 1M on PostgreSQL (pg_scale.py)

The hashing embedder times the engine, not a model; the default embedder is measured
separately on a small store, its per-memory and per-query cost reported on their own.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

import engramdb
from common import NOW, Corpus, pct
from engramdb.testing import FrozenClock
from engramdb.text import tokenize

TARGET_P95_MS = {10_000: 10.0, 100_000: 25.0}
TARGET_INGEST_PER_S = 500.0
CALL_SIZE = 1000  # drafts per remember_many call (one transaction each)
REF_DEPTH = 100   # candidates each reference leg returns, as the engine's default preset

# ---------------------------------------------------------------- measuring


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def file_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))



def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


@dataclass
class SizeResult:
    size: int
    cold_ms: float = 0.0
    recall_ms: list[float] = field(default_factory=list)
    recall_cpu_ms: list[float] = field(default_factory=list)
    embed_ms: list[float] = field(default_factory=list)
    ref_cos_ms: list[float] = field(default_factory=list)
    ref_fts_ms: list[float] = field(default_factory=list)
    ref_cpu_ms: list[float] = field(default_factory=list)   # embed + cosine + FTS5, CPU
    hits: int = 0


@dataclass
class Report:
    sizes: list[SizeResult] = field(default_factory=list)
    ingest_n: int = 0
    ingest_s: float = 0.0
    file_bytes: int = 0
    total_memories: int = 0
    rss_after_ingest: float = 0.0
    rss_after_recall: float = 0.0
    rss_after_reference: float = 0.0
    model: dict[str, float] = field(default_factory=dict)
    load: list[float] = field(default_factory=list)
    model_id: str = ""


def ingest(mem: engramdb.Memory, corpus: Corpus, user: str, n: int, start: int) -> float:
    """Write n memories into one scope in calls of CALL_SIZE; returns seconds spent in the API."""
    spent = 0.0
    for lo in range(0, n, CALL_SIZE):
        drafts = [corpus.draft(start + i) for i in range(lo, min(n, lo + CALL_SIZE))]
        t = time.perf_counter()
        results = mem.remember_many(drafts, user=user, agent="bench")
        spent += time.perf_counter() - t
        # the write guard's checks are part of the measured cost; a few synthetic facts repeat
        # a slot's value and are NOOPs (about 1 in 2,000), the rest are stored
        assert sum(r.action in ("add", "supersede") for r in results) >= 0.99 * len(results)
    return spent


def read_reference(path: Path, user: str) -> tuple[np.ndarray, list[str]]:
    """The engine's own vectors and indexed text for one scope, read with plain sqlite3."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute(
            "SELECT v.vec, f.body FROM memories m JOIN vectors v ON v.mem_rowid = m.rowid "
            "JOIN memories_fts f ON f.rowid = m.rowid WHERE m.user = ? AND m.agent = 'bench'",
            (user,),
        ).fetchall()
    finally:
        db.close()
    matrix = np.vstack([np.frombuffer(v, dtype=np.float32) for v, _ in rows])
    return matrix, [b for _, b in rows]


def reference_fts(bodies: list[str]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE ref USING fts5(body, tokenize = 'unicode61 "
               "remove_diacritics 0')")
    with db:
        db.executemany("INSERT INTO ref(body) VALUES (?)", ((b,) for b in bodies))
    return db


def measure_engine(mem: engramdb.Memory, user: str, size: int,
                   queries: list[str]) -> SizeResult:
    res = SizeResult(size)
    res.cold_ms = timed(lambda: mem.recall(queries[0], k=5, track=False, user=user,
                                           agent="bench"))
    for q in queries:
        t, cpu = time.perf_counter(), time.process_time()
        hits = mem.recall(q, k=5, track=False, user=user, agent="bench")
        res.recall_ms.append((time.perf_counter() - t) * 1000)
        res.recall_cpu_ms.append((time.process_time() - cpu) * 1000)
        res.hits += len(hits)
        res.embed_ms.append(timed(lambda q=q: mem.embedder.embed_batch([q], query=True)))
    return res


def measure_reference(mem: engramdb.Memory, path: Path, user: str, queries: list[str],
                      res: SizeResult) -> None:
    matrix, bodies = read_reference(path, user)
    fts = reference_fts(bodies)
    qvecs = mem.embedder.embed_batch(queries, query=True)
    for q, qv in zip(queries, qvecs, strict=True):
        res.ref_cos_ms.append(timed(lambda qv=qv: reference_cosine(matrix, qv)))
        terms = [t for t in dict.fromkeys(tokenize(q)) if t]
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        if terms:
            res.ref_fts_ms.append(timed(lambda m=match: reference_text(fts, m)))
        cpu = time.process_time()   # the whole reference once more, in this process's CPU time
        reference_cosine(matrix, mem.embedder.embed_batch([q], query=True)[0])
        if terms:
            reference_text(fts, match)
        res.ref_cpu_ms.append((time.process_time() - cpu) * 1000)
    fts.close()


def reference_text(fts: sqlite3.Connection, match: str) -> list[tuple[int, float]]:
    return fts.execute("SELECT rowid, bm25(ref) FROM ref WHERE ref MATCH ? ORDER BY bm25(ref) "
                       "LIMIT ?", (match, REF_DEPTH)).fetchall()


def reference_cosine(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    scores = matrix @ query
    top = np.argpartition(-scores, REF_DEPTH - 1)[:REF_DEPTH]
    return top[np.argsort(-scores[top])]


def run_hashing(args: argparse.Namespace, workdir: Path, report: Report) -> None:
    corpus = Corpus(args.seed)
    path = workdir / "scale.db"
    clock = FrozenClock(NOW)
    n = 0
    if args.reuse:  # the store a run with --keep built: measure only
        n = args.noise_scopes * args.noise_size + sum(args.sizes)
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        for s in range(0 if args.reuse else args.noise_scopes):
            report.ingest_s += ingest(mem, corpus, f"noise{s:03d}", args.noise_size, n)
            n += args.noise_size
        for size in [] if args.reuse else args.sizes:
            t = ingest(mem, corpus, f"scope{size}", size, n)
            report.ingest_s += t
            n += size
            print(f"  ingested scope{size}: {size / t:,.0f} memories/s", flush=True)
    report.ingest_n = report.total_memories = n
    report.file_bytes = file_bytes(path)
    report.rss_after_ingest = peak_rss_mb()
    qrng = Corpus(args.seed + 1)
    queries = [qrng.query() for _ in range(args.queries)]
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        for size in args.sizes:
            res = measure_engine(mem, f"scope{size}", size, queries)
            report.sizes.append(res)
            print(f"  recall at {size:,}: p50 {pct(res.recall_ms, 50):.2f} ms, "
                  f"p95 {pct(res.recall_ms, 95):.2f} ms", flush=True)
        report.rss_after_recall = peak_rss_mb()
        for res in report.sizes:
            measure_reference(mem, path, f"scope{res.size}", queries, res)
    report.rss_after_reference = peak_rss_mb()


def clocked(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, this process's CPU ms) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def run_model(args: argparse.Namespace, workdir: Path, report: Report) -> None:
    corpus = Corpus(args.seed + 2)
    drafts = [corpus.draft(i) for i in range(args.model_memories)]
    qcorpus = Corpus(args.seed + 3)
    queries = [qcorpus.query() for _ in range(args.model_queries)]
    n = len(drafts)
    with engramdb.open(workdir / "model.db", embedder="default", clock=FrozenClock(NOW)) as mem:
        load_ms = timed(lambda: mem.embedder.embed_batch(["warm up"], query=True))
        ingest = clocked(lambda: mem.remember_many(drafts, user="model", agent="bench"))
        embed = clocked(lambda: mem.embedder.embed_batch([d.content for d in drafts]))
        recall, qembed = [], []
        for q in queries:
            recall.append(clocked(lambda q=q: mem.recall(q, k=5, track=False, user="model",
                                                         agent="bench")))
            qembed.append(clocked(lambda q=q: mem.embedder.embed_batch([q], query=True)))
        report.model_id = f"{mem.embedder.model_id}, {mem.embedder.dimensions} dimensions"
    rw, rc = [w for w, _ in recall], [c for _, c in recall]
    ew, ec = [w for w, _ in qembed], [c for _, c in qembed]
    report.model = {
        "memories": n, "queries": len(queries), "load_ms": load_ms,
        "ingest_per_s": n / ingest[0] * 1000, "ingest_ms": ingest[0] / n,
        "ingest_cpu_ms": ingest[1] / n, "embed_ms": embed[0] / n, "embed_cpu_ms": embed[1] / n,
        "recall_p50": pct(rw, 50), "recall_p95": pct(rw, 95),
        "recall_cpu_p50": pct(rc, 50), "recall_cpu_p95": pct(rc, 95),
        "embed_p50": pct(ew, 50), "embed_p95": pct(ew, 95),
        "embed_cpu_p50": pct(ec, 50), "embed_cpu_p95": pct(ec, 95),
        "engine_cpu_p50": pct([r - e for r, e in zip(rc, ec, strict=True)], 50),
    }


# ---------------------------------------------------------------- report


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def render(args: argparse.Namespace, report: Report) -> str:
    busy = ""
    if max(report.load) > 0.75 * (os.cpu_count() or 1):
        busy = ("; other processes were busy on this machine, so wall times may be inflated: "
                "the CPU column is this process's own time")
    lines = [
        "# engramdb scale benchmark",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"numpy {np.__version__}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs, "
        f"BLAS threads 1, seed {args.seed}, {args.queries} queries, k=5, track=False; "
        f"load average {' -> '.join(f'{x:.1f}' for x in report.load)} (start -> end{busy}).",
        f"Store: {report.total_memories:,} memories in one file ({args.noise_scopes} noise "
        f"scopes x {args.noise_size} + scopes of {', '.join(f'{s:,}' for s in args.sizes)}).",
        "",
        "## Recall latency, hashing embedder (query embedding included)",
        "",
        "| scope size | engine p50 ms | engine p95 ms | target p95 | engine CPU p50/p95 ms | "
        "first query ms | embed p50 ms | ref cosine p50/p95 ms | ref FTS5 p50/p95 ms | "
        "ref sum p50 ms | engine / ref sum p50 | ref sum CPU p50 ms | engine / ref sum CPU p50 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report.sizes:
        target = TARGET_P95_MS.get(r.size)
        p95 = pct(r.recall_ms, 95)
        tgt = f"<= {target:g} ({verdict(p95 <= target)})" if target else "-"
        ref_sum = pct(r.ref_cos_ms, 50) + pct(r.ref_fts_ms, 50) + pct(r.embed_ms, 50)
        lines.append(
            f"| {r.size:,} | {pct(r.recall_ms, 50):.2f} | {p95:.2f} | {tgt} | "
            f"{pct(r.recall_cpu_ms, 50):.2f} / {pct(r.recall_cpu_ms, 95):.2f} | {r.cold_ms:.1f} | "
            f"{pct(r.embed_ms, 50):.2f} | {pct(r.ref_cos_ms, 50):.2f} / "
            f"{pct(r.ref_cos_ms, 95):.2f} | {pct(r.ref_fts_ms, 50):.2f} / "
            f"{pct(r.ref_fts_ms, 95):.2f} | {ref_sum:.2f} | "
            f"{pct(r.recall_ms, 50) / ref_sum:.2f} | {pct(r.ref_cpu_ms, 50):.2f} | "
            f"{pct(r.recall_cpu_ms, 50) / pct(r.ref_cpu_ms, 50):.2f} |"
        )
    rate = report.ingest_n / report.ingest_s if report.ingest_s else 0.0
    per_k = report.file_bytes / max(1, report.total_memories) * 1000
    lines += [
        "",
        "ref sum = query embedding + numpy exact cosine top-100 (rows @ query) + raw FTS5 "
        "bm25 top-100: the engine's two legs done plainly on the same matrix and the same "
        "indexed text, one table per scope (its CPU column: the three again, in this process's "
        "CPU time, which a loaded machine inflates less than wall time). The engine also "
        "filters by scope and layer, fuses "
        "the legs, loads and scores the fused candidates (strength, anchor cues) and checks "
        "the archive. First query: the first recall in a scope after opening the file (it "
        "loads the scope's vectors and text postings).",
        "",
        "## Ingest and footprint, hashing embedder",
        "",
        "| metric | value | target |",
        "|---|---:|---:|",
        f"| remember_many throughput | {rate:,.0f} memories/s | >= {TARGET_INGEST_PER_S:g} "
        f"({verdict(rate >= TARGET_INGEST_PER_S)}) |" if report.ingest_s else
        "| remember_many throughput | not measured (--reuse) | - |",
        f"| file size per 1,000 memories | {per_k / 1e6:.2f} MB | - |",
        f"| file size total | {report.file_bytes / 1e6:,.1f} MB | - |",
        f"| peak RSS after ingest | {report.rss_after_ingest:,.0f} MB | - |",
        f"| peak RSS after recall (the engine's caches of every scope queried) | "
        f"{report.rss_after_recall:,.0f} MB | - |",
        f"| peak RSS after the reference copies | {report.rss_after_reference:,.0f} MB | - |",
    ]
    if report.model:
        m = report.model
        lines += [
            "",
            f"## Default embedder ({m['memories']:.0f} memories, {m['queries']:.0f} queries, "
            f"1 thread)",
            "",
            f"`{report.model_id}`",
            "",
            "Wall and CPU time; the model's share measured by calling it alone on the same "
            "texts.",
            "",
            "| metric | wall | CPU |",
            "|---|---:|---:|",
            f"| model load + first query | {m['load_ms']:,.0f} ms | - |",
            f"| remember_many per memory ({m['ingest_per_s']:.1f} memories/s) | "
            f"{m['ingest_ms']:.1f} ms | {m['ingest_cpu_ms']:.1f} ms |",
            f"| the model alone, per passage | {m['embed_ms']:.1f} ms | "
            f"{m['embed_cpu_ms']:.1f} ms |",
            f"| recall p50 / p95 | {m['recall_p50']:.1f} / {m['recall_p95']:.1f} ms | "
            f"{m['recall_cpu_p50']:.1f} / {m['recall_cpu_p95']:.1f} ms |",
            f"| the model alone, per query p50 / p95 | {m['embed_p50']:.1f} / "
            f"{m['embed_p95']:.1f} ms | {m['embed_cpu_p50']:.1f} / {m['embed_cpu_p95']:.1f} ms |",
            f"| recall without the model, p50 (CPU) | - | {m['engine_cpu_p50']:.1f} ms |",
        ]
    return "\n".join(lines) + "\n"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10000,100000", help="scope sizes, comma separated")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--noise-scopes", type=int, default=50)
    p.add_argument("--noise-size", type=int, default=200)
    p.add_argument("--model-memories", type=int, default=300)
    p.add_argument("--model-queries", type=int, default=50)
    p.add_argument("--no-model", action="store_true", help="skip the default-embedder run")
    p.add_argument("--quick", action="store_true", help="2k and 10k scopes, 10 noise scopes")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", default="bench/results/scale.md")
    p.add_argument("--keep", help="build the store in this directory and keep it")
    p.add_argument("--reuse", help="measure the store a run with --keep built in this "
                   "directory (same --sizes, --noise-* and --seed), without building it")
    args = p.parse_args(argv)
    if args.quick:
        args.sizes, args.noise_scopes = "2000,10000", 10
    args.sizes = sorted(int(s) for s in args.sizes.split(","))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--backend" in argv:  # --backend postgres: bench/pg_scale.py, with its own options
        at = argv.index("--backend")
        backend = argv[at + 1] if at + 1 < len(argv) else ""
        if backend not in ("sqlite", "postgres"):
            print("--backend takes sqlite or postgres", file=sys.stderr)
            return 2
        del argv[at : at + 2]
        if backend == "postgres":
            import pg_scale

            return pg_scale.main(argv)
    args = parse_args(argv)
    report = Report(load=[os.getloadavg()[0]])
    with tempfile.TemporaryDirectory(prefix="engramdb-scale-") as tmp:
        workdir = Path(args.reuse or args.keep or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for stale in [] if args.reuse else workdir.glob("*.db*"):
            stale.unlink()
        started = time.perf_counter()
        print(f"hashing embedder: sizes {args.sizes}, {args.noise_scopes} noise scopes", flush=True)
        run_hashing(args, workdir, report)
        if not args.no_model:
            print("default embedder ...", flush=True)
            run_model(args, workdir, report)
        print(f"done in {time.perf_counter() - started:.0f} s\n")
    report.load.append(os.getloadavg()[0])
    text = render(args, report)
    print(text)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

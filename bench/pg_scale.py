"""Scale benchmark on PostgreSQL (``bench/scale.py --backend postgres``): recall latency at 100k
and 1,000,000 memories in one database, and bulk ingest through COPY.

Stages (each can be run alone; the server and its data stay under --pgdata between runs):

    build    load one scope of --big memories, then --small-scopes scopes of --small-size
             (100k + 9,000 x 100 = 1,000,000 by default), measuring after the big scope
             (the 100k figure) and after all (the 1M figure)
    measure  only measure recall on an existing database
    copy     time bulk_insert alone: --copy-n memories tokenised and embedded beforehand (timed
             apart), loaded into a fresh database (--database + "_copy") three ways: every
             index kept (HNSW too; the first --copy-kept only), the HNSW index dropped and
             rebuilt after, the HNSW and both GIN indexes dropped and rebuilt after

Memories are the synthetic corpus of bench/scale.py, embedded with the hashing embedder at the
default model's dimension (384): it times the index, not a model. Query embedding is done
before the timed recall (a precomputed-vector embedder answers the engine) and reported apart.
Ingest goes through ``PostgresStore.bulk_insert`` (COPY): tokenising, embedding and the store's
own time are reported separately. The HNSW index is dropped for the load and built after it
(timed), the documented bulk-load recipe (docs/scale-out.md).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

import engramdb
import pg_server
from common import NOW, Corpus, pct
from engramdb import Draft
from engramdb.embed.hashing import HashingEmbedder
from engramdb.engine import Memory
from engramdb.ids import new_id
from engramdb.model import Scope
from engramdb.store.postgres.store import PostgresStore
from engramdb.testing import FrozenClock
from engramdb.write.prepare import build_record, embed_text, index_text

AGENT = "bench"
BATCH = 5000


class Precomputed:
    """Answers queries from vectors computed beforehand, so recall timing excludes the model."""

    def __init__(self, inner: HashingEmbedder) -> None:
        self.inner, self.model_id, self.dimensions = inner, inner.model_id, inner.dimensions
        self.table: dict[str, np.ndarray] = {}

    def prepare(self, queries: Sequence[str]) -> list[float]:
        spent = []
        for q in queries:
            t = time.perf_counter()
            self.table[q] = self.inner.embed_batch([q], query=True)[0]
            spent.append((time.perf_counter() - t) * 1000)
        return spent

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if query and all(t in self.table for t in texts):
            return np.vstack([self.table[t] for t in texts])
        return self.inner.embed_batch(texts, query=query)


class Load:
    def __init__(self) -> None:
        self.n = 0
        self.prepare_s = self.embed_s = self.store_s = self.wall_s = 0.0

    def line(self) -> str:
        return (f"{self.n:,} memories: store (COPY) {self.n / self.store_s:,.0f}/s, "
                f"tokenising {self.n / self.prepare_s:,.0f}/s, hashing embedder "
                f"{self.n / self.embed_s:,.0f}/s (per process); overall {self.n / self.wall_s:,.0f}"
                f"/s wall")


def _prepare(job: tuple[list[tuple[str, int, Draft]], int]) -> tuple[list[Any], float, float]:
    """Records, index text and vectors for one batch (in a worker process when --workers > 1):
    the rows for COPY and the seconds spent tokenising and embedding."""
    batch, dim = job
    t = time.perf_counter()
    records = [build_record(draft, Scope(user, AGENT), new_id(NOW + timedelta(microseconds=n)),
                            NOW, 64_000) for user, n, draft in batch]
    texts = [index_text(r) for r in records]
    prepare_s = time.perf_counter() - t
    t = time.perf_counter()
    vectors = _embedder(dim).embed_batch([embed_text(r) for r in records])
    embed_s = time.perf_counter() - t
    return list(zip(records, texts, vectors, strict=True)), prepare_s, embed_s


_EMBEDDERS: dict[int, HashingEmbedder] = {}


def _embedder(dim: int) -> HashingEmbedder:
    if dim not in _EMBEDDERS:
        _EMBEDDERS[dim] = HashingEmbedder(dim)
    return _EMBEDDERS[dim]


def ahead(pool: ProcessPoolExecutor, jobs: Iterator[Any], depth: int) -> Iterator[Any]:
    """``_prepare`` over ``jobs`` in ``pool``, in order, at most ``depth`` batches in flight."""
    queue: deque[Future[Any]] = deque()
    for job in jobs:
        queue.append(pool.submit(_prepare, job))
        if len(queue) >= depth:
            yield queue.popleft().result()
    while queue:
        yield queue.popleft().result()


def load(store: PostgresStore, corpus: Corpus, plan: list[tuple[str, int]], stats: Load,
         start: int, workers: int = 1) -> int:
    """Write ``plan`` [(user, count)] through bulk_insert, BATCH memories per COPY. With
    ``workers`` > 1 the batches are tokenised and embedded in that many processes while this
    one copies (the drafts are drawn here, in order, so the corpus is the same either way)."""
    n = start
    pending: list[tuple[str, int]] = []
    for user, count in plan:
        pending += [(user, i) for i in range(count)]

    def jobs() -> Iterator[tuple[list[tuple[str, int, Draft]], int]]:
        nonlocal n
        for lo in range(0, len(pending), BATCH):
            chunk = pending[lo : lo + BATCH]
            yield [(user, n + k, corpus.draft(n + k)) for k, (user, _) in enumerate(chunk)], 384
            n += len(chunk)

    t0 = time.perf_counter()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    done = ahead(pool, jobs(), 2 * workers) if pool else map(_prepare, jobs())
    try:
        for rows, prepare_s, embed_s in done:
            stats.prepare_s += prepare_s
            stats.embed_s += embed_s
            t = time.perf_counter()
            store.bulk_insert(rows, actor="import", reason="bench")
            stats.store_s += time.perf_counter() - t
            stats.n += len(rows)
            stats.wall_s = time.perf_counter() - t0
            if (stats.n // BATCH) % 4 == 0:
                print(f"  {stats.line()}", flush=True)
    finally:
        if pool:
            pool.shutdown()
    return n


def hnsw(url: str, dim: int, build: bool) -> float:
    """Drop the HNSW index (for a load) or build it; seconds spent."""
    t = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        if build:
            conn.execute("SET maintenance_work_mem = '6GB'")
            conn.execute("SET max_parallel_maintenance_workers = 1")
            conn.execute(f"CREATE INDEX IF NOT EXISTS memories_embedding ON memories USING hnsw "
                         f"((embedding::vector({dim})) vector_cosine_ops)")
            conn.execute("VACUUM ANALYZE memories")
        else:
            conn.execute("DROP INDEX IF EXISTS memories_embedding")
    return time.perf_counter() - t


def measure(url: str, user: str, queries: list[str], label: str, out: list[str],
            min_docs: int | None = None, gc_freeze: bool = False) -> None:
    """Recall latency in ``user``'s scope; the first recall (which also builds the scope's
    in-process text index, store/postgres/textindex.py) is timed apart."""
    inner = HashingEmbedder(384)
    model = Precomputed(inner)
    embed_ms = model.prepare(queries)
    options = {} if min_docs is None else {"text_index_min_docs": min_docs}
    with Memory(PostgresStore(url, **options), model, clock=FrozenClock(NOW)) as mem:
        t = time.perf_counter()
        mem.recall(queries[0], k=5, track=False, user=user, agent=AGENT)
        first_ms = (time.perf_counter() - t) * 1000
        if gc_freeze:   # diagnostic: what is left once full collections skip long-lived objects
            gc.collect()
            gc.freeze()
        times, hits = [], 0
        for q in queries:
            t = time.perf_counter()
            found = mem.recall(q, k=5, track=False, user=user, agent=AGENT)
            times.append((time.perf_counter() - t) * 1000)
            hits += len(found)
    line = (f"| {label} | {user} | {len(queries)} | {pct(times, 50):.1f} | {pct(times, 95):.1f} "
            f"| {hits / len(queries):.1f} | {pct(embed_ms, 50):.2f} | {first_ms:.0f} |")
    print(line, flush=True)
    out.append(line)


def measure_big(url: str, big: str, queries: list[str], n: int, stats: Load,
                args: argparse.Namespace, dropped: float, out: list[str]) -> int:
    """HNSW over the big scope, then its recall figure (the 100k one)."""
    built = hnsw(url, 384, build=True)
    out.append(f"- load of the {args.big:,} scope: {stats.line() if stats.n else 'resumed'}; "
               f"HNSW built after it in {built:.0f} s (dropped in {dropped:.1f} s)")
    print(out[-1], flush=True)
    measure(url, big, queries, f"{n:,} (one scope)", out)
    return n


GIN = {"memories_tsv": "CREATE INDEX memories_tsv ON memories USING gin "
                       "(user_id, agent_id, tsv)",
       "memories_anchors": "CREATE INDEX memories_anchors ON memories USING gin "
                           "(user_id, agent_id, anchor_terms)"}


def copy_stage(admin: str, args: argparse.Namespace) -> list[str]:
    """COPY rates with and without index builds (the ``copy`` stage)."""
    corpus = Corpus(args.seed)
    stats = Load()
    t0 = time.perf_counter()
    jobs = [([("copy", n, corpus.draft(n)) for n in range(lo, min(lo + BATCH, args.copy_n))],
             384) for lo in range(0, args.copy_n, BATCH)]
    draw_s = time.perf_counter() - t0
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        batches = []
        for rows, prepare_s, embed_s in pool.map(_prepare, jobs):
            batches.append(rows)
            stats.prepare_s += prepare_s
            stats.embed_s += embed_s
    n = sum(len(b) for b in batches)
    out = [f"- {n:,} memories drawn in {draw_s:.1f} s; tokenising {n / stats.prepare_s:,.0f}/s, "
           f"hashing embedder {n / stats.embed_s:,.0f}/s (per process, {args.workers} processes)"]
    print(out[-1], flush=True)
    for variant in ("kept", "hnsw", "hnsw+gin"):
        url = pg_server.database(admin, args.database + "_copy", fresh=True)
        with engramdb.open(url, embedder=HashingEmbedder(384)):
            pass
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
            if variant != "kept":
                conn.execute("DROP INDEX memories_embedding")
            if variant == "hnsw+gin":
                for name in GIN:
                    conn.execute(f"DROP INDEX {name}")  # type: ignore[arg-type]
        store = PostgresStore(url)
        todo = batches if variant != "kept" else batches[: max(1, args.copy_kept // BATCH)]
        loaded = sum(len(b) for b in todo)
        t = time.perf_counter()
        for rows in todo:
            store.bulk_insert(rows, actor="import", reason="bench")
        copy_s = time.perf_counter() - t
        store.close()
        built = {}
        if variant == "hnsw+gin":
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SET maintenance_work_mem = '2GB'")
                for name, sql in GIN.items():
                    t = time.perf_counter()
                    conn.execute(sql)  # type: ignore[arg-type]
                    built[name] = time.perf_counter() - t
        if variant != "kept":
            built["HNSW"] = hnsw(url, 384, build=True)
        total = copy_s + sum(built.values())
        builds = ", ".join(f"{k} {v:.1f} s" for k, v in built.items())
        out.append(f"- COPY, {variant if variant != 'kept' else 'every index kept'}"
                   f"{' dropped' if variant != 'kept' else ''}: {loaded:,} memories in "
                   f"{copy_s:.1f} s = **{loaded / copy_s:,.0f}/s**"
                   + (f"; then {builds}: {loaded / total:,.0f}/s with the builds" if built
                      else ""))
        print(out[-1], flush=True)
    return out


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stage", choices=["build", "measure", "copy"], default="build")
    p.add_argument("--text-index-min-docs", type=int, default=None,
                   help="measure: the store's text_index_min_docs (default: the store's)")
    p.add_argument("--scope-index", action="store_true",
                   help="build, measure: give the big scope its own HNSW index "
                        "(PostgresStore.build_scope_index), timed; without it, drop that index")
    p.add_argument("--gc-freeze", action="store_true",
                   help="measure, diagnostic: gc.freeze() after the first recall (Python's full "
                        "collections then skip everything loaded so far)")
    p.add_argument("--copy-n", type=int, default=100_000)
    p.add_argument("--copy-kept", type=int, default=20_000)
    p.add_argument("--pgdata", type=Path, default=pg_server.DEFAULT_PGDATA)
    p.add_argument("--database", default="engramdb_scale")
    p.add_argument("--big", type=int, default=100_000)
    p.add_argument("--small-scopes", type=int, default=9_000)
    p.add_argument("--small-size", type=int, default=100)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--resume", action="store_true",
                   help="build: keep the database and load only what the big scope lacks")
    p.add_argument("--workers", type=int, default=1,
                   help="build: processes tokenising and embedding while the main one copies")
    p.add_argument("--skip-big-measure", action="store_true",
                   help="build: load the small scopes right after the big one (no HNSW build "
                        "and measure in between)")
    p.add_argument("--stop-after-big", action="store_true",
                   help="build: stop after measuring the big scope (skip the small scopes)")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    admin = pg_server.start(args.pgdata)
    if args.stage == "copy":
        print("\n".join(copy_stage(admin, args)))
        return 0
    url = pg_server.database(admin, args.database,
                             fresh=args.stage == "build" and not args.resume)
    qcorpus = Corpus(args.seed + 1)
    queries = [qcorpus.query() for _ in range(args.queries)]
    out: list[str] = []
    big = f"scope{args.big}"
    small = "small00000"
    if args.stage == "build":
        with engramdb.open(url, embedder=HashingEmbedder(384)) as mem:   # migrate, bind
            assert isinstance(mem.store, PostgresStore)
        store = PostgresStore(url)
        corpus = Corpus(args.seed)
        stats = Load()
        with psycopg.connect(url) as conn:
            have = conn.execute("SELECT count(*) FROM memories WHERE user_id = %s",
                                (big,)).fetchone()[0]
        dropped = hnsw(url, 384, build=False)
        n = load(store, corpus, [(big, args.big - have)], stats, have, args.workers) if (
            args.big > have) else have
        if args.skip_big_measure:
            out.append(f"- load of the {args.big:,} scope: "
                       f"{stats.line() if stats.n else 'resumed'}")
            print(out[-1], flush=True)
        else:
            n = measure_big(url, big, queries, n, stats, args, dropped, out)
            if args.stop_after_big:
                store.close()
                print("\n".join(out))
                return 0
        hnsw(url, 384, build=False)
        stats2 = Load()
        plan = [(f"small{s:05d}", args.small_size) for s in range(args.small_scopes)]
        n = load(store, corpus, plan, stats2, n, args.workers)
        built = hnsw(url, 384, build=True)
        out.append(f"- load of {args.small_scopes:,} scopes of {args.small_size}: "
                   f"{stats2.line()}; HNSW over all {n:,} built in {built:.0f} s")
        print(out[-1], flush=True)
        store.close()
        args.stage = "measure"
    store = PostgresStore(url)
    if args.scope_index:
        built = store.build_scope_index(Scope(big, AGENT), maintenance_work_mem="2GB")
        out.append(f"- {big}'s own HNSW index (build_scope_index): {built:.1f} s "
                   f"(0 if it existed)")
        print(out[-1], flush=True)
    else:
        store.drop_scope_index(Scope(big, AGENT))
    store.close()
    with psycopg.connect(url) as conn:
        total = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        present = {r[0] for r in conn.execute(
            "SELECT DISTINCT user_id FROM memories WHERE user_id = ANY(%s)",
            ([big, small, f"small{args.small_scopes // 2:05d}"],))}
    for user in (big, small, f"small{args.small_scopes // 2:05d}"):
        if user in present:
            measure(url, user, queries, f"{total:,}" + (" (gc.freeze)" if args.gc_freeze else ""),
                    out, args.text_index_min_docs, args.gc_freeze)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

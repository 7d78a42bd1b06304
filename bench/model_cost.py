"""What the default embedder costs a user, with vectors computed at the write (embed="sync") and
after it (embed="deferred", engine/deferred.py), each next to the raw model's own cost measured
in the same run, on one thread.

Per mode, on a fresh SQLite file:
- single ``remember`` latency p50/p95 (one memory per call, the kind left to the default);
- sustained ingest of N LoCoMo-like turns (``remember_many`` in chunks of --chunk, events as
  bench/locomo.py writes them), end to end including the vectors: turns/s until the last write
  returned, and until the last vector was stored (``flush()`` returns when none is pending);
  "last vector searchable" is the time from the last write's return to that point;
- recall latency p50/p95 (the worker idle), over LoCoMo questions, and in deferred mode also
  while the ingest's vectors are being computed (the worker busy).
Raw model: one document embedded alone, documents in batches of BATCH (the worker's), one
query. Turns and questions come from the LoCoMo dev file (ENGRAMDB_LOCOMO_DIR, as
bench/locomo.py), repeated with a numbered suffix when N is larger than the file.

    PYTHONPATH=src python bench/model_cost.py [--turns 1000] [--out bench/results/model_cost.md]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engramdb
from engramdb import Draft
from engramdb.engine.deferred import BATCH
from engramdb.registry import make_embedder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import pct  # noqa: E402

SHARED = Path(os.environ.get("ENGRAMDB_LOCOMO_DIR", "/work/shared/bench"))


def corpus(n: int) -> tuple[list[tuple[str, str]], list[str]]:
    """(speaker, text) of ``n`` turns and the questions, from the LoCoMo dev file."""
    data = json.loads((SHARED / "locomo_dev.json").read_text(encoding="utf-8"))
    turns, questions = [], []
    for conv in data:
        for key, session in conv["conversation"].items():
            if key.startswith("session_") and isinstance(session, list):
                turns += [(t["speaker"], t["text"]) for t in session]
        questions += [q["question"] for q in conv["qa"] if q.get("question")]
    out = [(s, t if i < len(turns) else f"{t} (again, {i // len(turns)})")
           for i, (s, t) in ((i, turns[i % len(turns)]) for i in range(n))]
    return out, questions


def ms(values: Sequence[float]) -> str:
    return f"{1000 * pct(values, 50):.1f} / {1000 * pct(values, 95):.1f}"


def timed(fn: Any, items: Sequence[Any]) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - start)
    return out


def raw_costs(model: Any, turns: list[tuple[str, str]], queries: list[str],
              singles: int) -> dict[str, Any]:
    texts = [f"{s}: {t}" for s, t in turns]
    one = timed(lambda t: model.embed_batch([t]), texts[:singles])
    start = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        model.embed_batch(texts[i : i + BATCH])
    batched = time.perf_counter() - start
    query = timed(lambda q: model.embed_batch([q], query=True), queries)
    return {"one": one, "batch_rate": len(texts) / batched, "query": query}


def run_mode(mode: str, model: Any, turns: list[tuple[str, str]], singles: list[str],
             queries: list[str], chunk: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        mem = engramdb.open(os.path.join(tmp, "cost.db"), embedder=model, embed=mode, threads=1)
        try:
            single = timed(lambda t: mem.remember(t, user="singles"), singles)
            mem.flush()
            start = time.perf_counter()
            for i in range(0, len(turns), chunk):
                mem.remember_many([Draft(f"{s}: {t}", kind="event", people=[s])
                                   for s, t in turns[i : i + chunk]], user="turns")
            written = time.perf_counter()
            mem.flush()
            searchable = time.perf_counter()
            assert mem.stats(user="turns").pending_vectors == 0
            query = timed(lambda q: mem.recall(q, track=False, user="turns"), queries)
            repeat = timed(lambda q: mem.recall(q, track=False, user="turns"), queries)
            mem._query_vectors.clear()  # the busy row asks the questions afresh
            busy = busy_recalls(mem, turns, queries) if mode == "deferred" else []
        finally:
            mem.close()
    return {"single": single, "write_rate": len(turns) / (written - start),
            "end_rate": len(turns) / (searchable - start), "last_vector_s": searchable - written,
            "query": query, "repeat": repeat, "busy": busy}


def busy_recalls(mem: Any, turns: list[tuple[str, str]], queries: list[str]) -> list[float]:
    """Recalls timed while the worker computes a backlog (the turns written again in another
    scope, 8 batches' worth), then the backlog is flushed."""
    mem.remember_many([Draft(f"{s}: {t}", kind="event", people=[s])
                       for s, t in turns[: 8 * BATCH]], user="backlog")
    busy = timed(lambda q: mem.recall(q, track=False, user="turns"), queries)
    mem.flush()
    return busy


def report(args: Any, raw: dict[str, Any], modes: dict[str, dict[str, Any]],
           load_s: float) -> str:
    lines = [
        "# Model cost: vectors at the write (sync) and after it (deferred)",
        "",
        f"`PYTHONPATH=src python bench/model_cost.py --turns {args.turns} --singles "
        f"{args.singles} --queries {args.queries} --chunk {args.chunk} "
        f"--embedder {args.embedder}`: "
        f"embedder {args.embedder} (default: multilingual-e5 + USE, both embed every memory), "
        f"one thread, SQLite; "
        f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; model "
        f"load {load_s:.1f} s.",
        "",
        "| | raw model | sync | deferred |",
        "|---|---|---|---|",
        f"| single remember p50 / p95 (ms) | {ms(raw['one'])} (one document) | "
        f"{ms(modes['sync']['single'])} | {ms(modes['deferred']['single'])} |",
        f"| ingest of {args.turns} turns, writes returned (turns/s) | "
        f"{raw['batch_rate']:.1f} (batches of {BATCH}) | {modes['sync']['write_rate']:.1f} | "
        f"{modes['deferred']['write_rate']:.1f} |",
        f"| ingest end to end, every vector stored (turns/s) | {raw['batch_rate']:.1f} | "
        f"{modes['sync']['end_rate']:.1f} | {modes['deferred']['end_rate']:.1f} |",
        f"| last vector searchable, after the last write returned (s) | | "
        f"{modes['sync']['last_vector_s']:.2f} | {modes['deferred']['last_vector_s']:.2f} |",
        f"| recall p50 / p95 (ms) | {ms(raw['query'])} (one query) | "
        f"{ms(modes['sync']['query'])} | {ms(modes['deferred']['query'])} |",
        f"| recall p50 / p95, the question asked before (query cache) (ms) | | "
        f"{ms(modes['sync']['repeat'])} | {ms(modes['deferred']['repeat'])} |",
        f"| recall p50 / p95 while vectors are pending, the worker busy (ms) | | | "
        f"{ms(modes['deferred']['busy']) if modes['deferred']['busy'] else '-'} |",
        "",
        f"Deferred: the worker embeds {BATCH} memories per model call; a recall's query waits "
        f"for the model call in hand. The recall rows are measured with every vector stored "
        f"(worker idle) except the last, taken while the worker computes a backlog of "
        f"{8 * BATCH} memories written just before.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=1000, help="turns of the sustained ingest")
    ap.add_argument("--singles", type=int, default=50, help="single remembers timed per mode")
    ap.add_argument("--queries", type=int, default=50, help="recalls timed per mode")
    ap.add_argument("--chunk", type=int, default=50, help="turns per remember_many call")
    ap.add_argument("--embedder", default="default")
    ap.add_argument("--out", default=None, help="also write the table to this file")
    args = ap.parse_args(argv)
    if not (SHARED / "locomo_dev.json").exists():
        print(f"LoCoMo dev file not found in {SHARED} (set ENGRAMDB_LOCOMO_DIR)",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    model = make_embedder(args.embedder, threads=1)
    model.embed_batch(["warm up"])
    model.embed_batch(["warm up"], query=True)
    load_s = time.perf_counter() - start
    turns, questions = corpus(args.turns + args.singles)
    singles = [f"{s}: {t}" for s, t in turns[args.turns :]]
    turns, queries = turns[: args.turns], questions[: args.queries]
    raw = raw_costs(model, turns, queries, args.singles)
    modes = {mode: run_mode(mode, model, turns, singles, queries, args.chunk)
             for mode in ("sync", "deferred")}
    text = report(args, raw, modes, load_s)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where a recall's CPU goes, stage by stage (issue 28, item 1).

Each stage function the recall pipeline calls (recall/pipeline.py) is wrapped with a
``time.process_time`` timer; the rest is the engine around them (planning, the door, building
the explanations). Measured on a store bench/scale.py built and kept:

    .venv/bin/python bench/scale.py --no-model --sizes 10000 --noise-scopes 10 --keep DIR
    .venv/bin/python bench/recall_stages.py DIR/scale.db --user scope10000

Not a test: figures only (bench/results/speed.md). The wrappers cost a few microseconds per
stage; compare codes with the same script, alternated in the same minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import engramdb  # noqa: E402
import engramdb.recall.pipeline as pipeline  # noqa: E402
from common import NOW, Corpus, pct  # noqa: E402
from engramdb.testing import FrozenClock  # noqa: E402
from engramdb.text import is_cjk  # noqa: E402

STAGES = ("run_legs", "cross_leg", "rrf_scores", "expand_query", "rrf", "wake",
          "best_candidates", "rerank", "mixed_rank", "mmr", "order_near", "order_conflicts",
          "window_first",
          "plan_query", "hold")
METHODS = ("_terms", "_relevance", "_associate")


def timed(spent: Counter[str], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - start
    return run


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("db", help="a store bench/scale.py built (--keep DIR: DIR/scale.db)")
    p.add_argument("--user", default="scope10000")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--warm", action="store_true",
                   help="run every query once before measuring (caches warm)")
    args = p.parse_args()
    spent: Counter[str] = Counter()
    for name in STAGES:
        if hasattr(pipeline, name):
            setattr(pipeline, name, timed(spent, name, getattr(pipeline, name)))
    for name in METHODS:
        setattr(pipeline.Recaller, name, timed(spent, name, getattr(pipeline.Recaller, name)))
    corpus = Corpus(args.seed)
    queries = [corpus.query() for _ in range(args.queries)]
    with engramdb.open(args.db, embedder="hashing", clock=FrozenClock(NOW)) as mem:
        # as bench/scale.py measures: one first recall loads the scope's vectors and postings,
        # then each query once (--warm: every query once before, so the records and tokens
        # each one reads are kept already: what a long-running process asked again sees). The
        # first Chinese query is asked before too: it loads jieba's tag table once a process
        # (~0.7 s CPU), which would otherwise count as ~2 ms a recall in the stage that first
        # reads Chinese (order_near)
        chinese = [q for q in queries if is_cjk(q)][:1]
        for q in queries if args.warm else queries[:1] + chinese:
            mem.recall(q, k=5, track=False, user=args.user, agent="bench")
        spent.clear()
        each = []
        for q in queries:
            start = time.process_time()
            mem.recall(q, k=5, track=False, user=args.user, agent="bench")
            each.append((time.process_time() - start) * 1000)
        total = sum(each) / len(queries)
    print(f"| stage | CPU ms per recall ({len(queries)} recalls, k=5) |\n|---|---:|")
    for name, seconds in spent.most_common():
        print(f"| {name} | {seconds * 1000 / len(queries):.2f} |")
    rest = total - sum(spent.values()) * 1000 / len(queries)
    print(f"| the rest (the engine around the stages) | {rest:.2f} |\n| **total** | {total:.2f} |")
    print(f"\nper recall: p50 {pct(each, 50):.2f} ms, p95 {pct(each, 95):.2f} ms (CPU)")


if __name__ == "__main__":
    main()

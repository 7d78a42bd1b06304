"""How a write's CPU grows with the scope (issue 28, item 2: flat write cost).

Writes one scope of the scale benchmark's synthetic memories (bench/common.py ``Corpus``, the
hashing embedder, a frozen clock) in calls of 1,000 drafts, as bench/scale.py does, and prints
for each call this process's CPU per memory, the jieba POS cuts it made, and the CPU spent in
the scope-wide vector searches (``search_vector_many``: the write guard's neighbours and the
automatic sleep's merge pass), each one a scan of every vector of the scope, and in the
collector (``gc.callbacks``; a collection that starts inside a scan counts as collection only).

    .venv/bin/python bench/write_growth.py --size 82000 --every 5

Not a test: figures only (bench/results/write_growth.md).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import engramdb  # noqa: E402
from common import NOW, Corpus  # noqa: E402
from engramdb.store.sqlite.search import Search  # noqa: E402
from engramdb.testing import FrozenClock  # noqa: E402

CALL = 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=82000, help="memories written in all")
    p.add_argument("--every", type=int, default=5, help="print one call in this many")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()

    import jieba.posseg as pseg

    counts = {"cuts": 0, "scan": 0.0, "gc": 0.0, "gc_from": 0.0, "scanning": 0, "gc_scan": 0.0}

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            counts["gc_from"] = time.process_time()
        else:
            spent = time.process_time() - counts["gc_from"]
            counts["gc"] += spent
            if counts["scanning"]:   # started inside a scan: counted once, as collection
                counts["gc_scan"] += spent

    gc.callbacks.append(collected)
    cut = pseg.cut

    def counted_cut(*a: object, **k: object) -> object:
        counts["cuts"] += 1
        return cut(*a, **k)

    pseg.cut = counted_cut
    many = Search.search_vector_many

    def timed_many(self: Search, *a: object, **k: object) -> object:
        start, collecting = time.process_time(), counts["gc_scan"]
        counts["scanning"] += 1
        try:
            return many(self, *a, **k)
        finally:
            counts["scanning"] -= 1
            counts["scan"] += (time.process_time() - start) - (counts["gc_scan"] - collecting)

    Search.search_vector_many = timed_many  # type: ignore[method-assign]
    corpus = Corpus(args.seed)
    print("| memories in scope | CPU ms / memory | of it, vector scans | of it, garbage "
          "collection | jieba POS cuts |")
    print("|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp, engramdb.open(
            Path(tmp) / "growth.db", embedder="hashing", clock=FrozenClock(NOW)) as mem:
        for call in range(args.size // CALL):
            drafts = [corpus.draft(call * CALL + i) for i in range(CALL)]
            counts.update(cuts=0, scan=0.0, gc=0.0, gc_scan=0.0)
            start = time.process_time()
            mem.remember_many(drafts, user="growth", agent="bench")
            cpu = time.process_time() - start
            if call % args.every == args.every - 1 or call == args.size // CALL - 1:
                print(f"| {(call + 1) * CALL:,} | {cpu:.2f} | {counts['scan']:.2f} | "
                      f"{counts['gc']:.2f} | {counts['cuts']} |", flush=True)


if __name__ == "__main__":
    main()

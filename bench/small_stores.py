"""A new user's store: does recall answer on-topic questions and decline off-topic ones when the
store holds only a few memories? (issue 27: "off-topic abstained, in every language and store";
the relevance files' stores hold 30 to 46 memories, this asks of a handful.)

Each store of a relevance file (the behaviour data's and bench/fresh*'s) is cut to SIZES
memories, DRAWS times each (a seeded sample), and built as the shared scorer's ``run_relevance``
builds a store (a day between memories, the default embedder). Then each on-topic question
whose memory is in the sample is asked (recall, k=3, track=False, the library's floor): kept if
that memory is among the hits; and each off-topic question: abstained if nothing comes back.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/small_stores.py            # the design files
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/small_stores.py FILE ...   # these files

Figures: bench/results/abstain.md. Not a test."""

from __future__ import annotations

import json
import random
import sys
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from wake_questions import SCORER, scorer  # noqa: E402

DESIGN = [SCORER.parent / "relevance.json",
          *(HERE / name / "relevance.json" for name in
            ("fresh", "fresh3", "fresh4", "fresh6", "fresh7", "fresh8", "fresh9", "fresh11"))]
SIZES, DRAWS, K = (3, 6, 10, 15), 2, 3


def run(score, ctx, file: Path, totals: dict[int, list[int]]) -> None:  # type: ignore[no-untyped-def]
    """Add to ``totals[size]``: on-topic kept, on-topic asked, off-topic abstained, off-topic."""
    for store in json.loads(file.read_text("utf-8"))["stores"]:
        for size in SIZES:
            for draw in range(DRAWS):
                sample = random.Random(f"{store['id']}-{size}-{draw}").sample(
                    store["memories"], min(size, len(store["memories"])))
                mem, me, clock = ctx.open()
                with mem:
                    ids = {}
                    for i, m in enumerate(sample):
                        clock.set(score.START + timedelta(days=i))
                        kind = m.get("kind") or "fact"
                        ids[m["id"]] = me.remember(m["text"], kind=kind).memory.id
                    clock.set(score.START + timedelta(days=len(sample) + 1))
                    got = totals.setdefault(size, [0, 0, 0, 0])
                    for q in store["on_topic"]:
                        if q["expect"] in ids:
                            hits = me.recall(q["q"], k=K, track=False)
                            got[0] += any(h.memory.id == ids[q["expect"]] for h in hits)
                            got[1] += 1
                    for q in store["off_topic"]:
                        hits = me.recall(q["q"], k=K, track=False)
                        got[2] += hits.abstained or not hits
                        got[3] += 1


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or DESIGN
    score = scorer()
    ctx = score.Ctx("default", False)
    totals: dict[int, list[int]] = {}
    for file in files:
        run(score, ctx, file, totals)
    print(f"files: {', '.join(f.parent.name for f in files)}; {DRAWS} samples a store and size\n")
    print("| memories | on-topic kept (hit@3) | off-topic abstained |\n|---:|---|---|")
    for size, (kept, asked, declined, off) in sorted(totals.items()):
        print(f"| {size} | {kept}/{asked} ({100 * kept / max(asked, 1):.1f} %) "
              f"| {declined}/{off} ({100 * declined / max(off, 1):.1f} %) |")


if __name__ == "__main__":
    main()

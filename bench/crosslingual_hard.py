"""Cross-lingual hard probe: one mixed store, facts asked in both languages among distractors.

bench/data/crosslingual_hard.json holds 64 facts (32 written in English, 32 in Chinese) of the
kind an agent keeps about its user and the people around them (work, family, health, travel,
food, hobbies, times, places), each with a paraphrased question in English and in Chinese, and
110 distractors (55 per language) that share the facts' topics (another relative's surgery,
another instrument, another trip) without answering any question. All 174 memories go into
one scope through ``remember_many``; each of the 128 questions is asked through ``recall``
(default embedder and preset, k=10); the gold memory is the fact the question was written for.

Directions: ``en→zh`` = an English question about a fact stored in Chinese, ``zh→en`` the
reverse; ``en→en`` and ``zh→zh`` the same-language questions. Latency is the wall time of each
recall (the query's embedding included) on this machine.

    PYTHONPATH=src python bench/crosslingual_hard.py            # with the cross-lingual stage
    PYTHONPATH=src python bench/crosslingual_hard.py --off      # without it (before)
    PYTHONPATH=src python bench/crosslingual_hard.py --weight 0.5
    PYTHONPATH=src python bench/crosslingual_hard.py --data bench/data/crosslingual_heldout.json
        # the held-out cases: 30 facts, 50 distractors, other topics
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before any model engine loads

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import engramdb  # noqa: E402
from engramdb.recall import crosslingual  # noqa: E402

DATA = Path(__file__).parent / "data" / "crosslingual_hard.json"  # --data: another set
K = 10


@dataclass
class Asked:
    direction: str   # "<question language>→<memory language>"
    rank: int        # 0-based rank of the gold memory; K when not in the top K
    ms: float


def load(path: Path | None = None) -> tuple[list[dict[str, str]], list[str]]:
    data = json.loads((path or DATA).read_text(encoding="utf-8"))
    return data["facts"], data["distractors"]


def run(embedder: str, off: bool, path: Path | None = None) -> list[Asked]:
    facts, distractors = load(path)
    out: list[Asked] = []
    with engramdb.open(":memory:", embedder=embedder) as mem:
        if off:
            mem._recaller.aligned = None  # type: ignore[attr-defined]  # the "before" run
        texts = [f["text"] for f in facts] + distractors
        written = mem.remember_many([engramdb.Draft(t) for t in texts])
        ids = [w.memory.id for w in written]
        mem.recall("warm up", k=1, track=False)
        for i, fact in enumerate(facts):
            for ask in ("en", "zh"):
                start = time.perf_counter()
                got = [h.memory.id for h in mem.recall(fact[f"q_{ask}"], k=K, track=False)]
                ms = (time.perf_counter() - start) * 1000
                rank = got.index(ids[i]) if ids[i] in got else K
                out.append(Asked(f"{ask}→{fact['lang']}", rank, ms))
    return out


def table(asked: list[Asked]) -> str:
    lines = ["| direction | questions | hit@1 | hit@3 | MRR@10 | p50 ms | p95 ms |",
             "|---|---|---|---|---|---|---|"]
    for direction in ("en→zh", "zh→en", "en→en", "zh→zh", "all"):
        mine = [a for a in asked if direction == "all" or a.direction == direction]
        ranks = [a.rank for a in mine]
        ms = sorted(a.ms for a in mine)
        lines.append(
            f"| {direction} | {len(mine)} | {sum(r < 1 for r in ranks) / len(mine):.2f} "
            f"| {sum(r < 3 for r in ranks) / len(mine):.2f} "
            f"| {statistics.mean(1 / (r + 1) if r < K else 0 for r in ranks):.2f} "
            f"| {statistics.median(ms):.1f} | {ms[int(0.95 * (len(ms) - 1))]:.1f} |")
    return "\n".join(lines)


def misses(asked: list[Asked], path: Path | None = None) -> str:
    facts, _ = load(path)
    rows = []
    for n, a in enumerate(asked):
        if a.rank >= 3:
            fact = facts[n // 2]
            rows.append(f"- {a.direction} rank {a.rank + 1 if a.rank < K else '>10'}: "
                        f"{fact['q_' + a.direction[:2]]} / {fact['text']}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="default")
    parser.add_argument("--off", action="store_true", help="without the cross-lingual stage")
    parser.add_argument("--weight", type=float, default=None,
                        help="the cross-lingual leg's RRF weight (default: the library's)")
    parser.add_argument("--data", default=str(DATA),
                        help="the probe's facts and distractors (bench/data/"
                             "crosslingual_heldout.json: the held-out cases)")
    parser.add_argument("--misses", action="store_true", help="list questions not in the top 3")
    args = parser.parse_args()
    if args.weight is not None:
        crosslingual.WEIGHT = args.weight
    asked = run(args.embedder, args.off, Path(args.data))
    label = "off" if args.off else f"on, weight {crosslingual.WEIGHT}"
    print(f"embedder={args.embedder}, cross-lingual stage {label}\n")
    print(table(asked))
    if args.misses:
        print("\n" + misses(asked, Path(args.data)))


if __name__ == "__main__":
    main()

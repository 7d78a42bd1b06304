"""What a relevance score means: over bench/abstain.py's dump (floor 0), how many on-topic and
off-topic questions have their best hit in each score band, and how often a hit in each band
is a gold turn.

    python bench/abstain_meaning.py bench/.cache/abstain.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

BANDS = [(0.0, 0.1), (0.1, 0.3), (0.3, 0.5), (0.5, 0.8), (0.8, 1.01)]


def best(row: dict[str, Any]) -> float:
    return float(row["hits"][0][1]) if row["hits"] else 0.0


def main(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        rows = [r for r in json.load(f)["rows"] if not r["half"].startswith("x")]
    print("| best score | on-topic questions | off-topic questions | share on topic | "
          "on-topic: top hit is a gold turn |")
    print("|---|---|---|---|---|")
    for lo, hi in BANDS:
        on = [r for r in rows if r["on"] and lo <= best(r) < hi]
        off = [r for r in rows if not r["on"] and lo <= best(r) < hi]
        gold = sum(1 for r in on if r["hits"] and r["hits"][0][0] in r["gold"])
        share = len(on) / max(len(on) + len(off), 1)
        print(f"| {lo:.1f}-{min(hi, 1):.1f} | {len(on)} | {len(off)} | {share:.2f} | "
              f"{gold}/{len(on)} |")
    print("\n| hit score | hits of on-topic questions | gold turns among them |\n|---|---|---|")
    for lo, hi in BANDS:
        hits = [(h, r) for r in rows if r["on"] for h in r["hits"][:10] if lo <= h[1] < hi]
        gold = sum(1 for h, r in hits if h[0] in r["gold"])
        share = gold / max(len(hits), 1)
        print(f"| {lo:.1f}-{min(hi, 1):.1f} | {len(hits)} | {gold} ({share:.2f}) |")


if __name__ == "__main__":
    main(sys.argv[1])

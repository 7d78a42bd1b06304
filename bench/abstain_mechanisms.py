"""Off-topic abstention mechanisms compared on bench/abstain_study.py's dump (issue 13): each
mechanism is a per-question score; a question abstains when its score is under a threshold.
Conversations alternate between "fit" (1st, 3rd, 5th) and "report" (2nd, 4th); for each
threshold: the change of on-topic R@10 (an abstained question finds nothing) and the share
of off-topic questions that abstain (all, English, Chinese). "PICK" is the largest threshold
whose fit-half R@10 stays within 0.01, with its report-half figures.

    PYTHONPATH=src .venv/bin/python bench/abstain_mechanisms.py bench/.cache/abstain_study.json
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

Row = dict[str, Any]


def r10(row: Row) -> float:
    ids = [h["id"] for h in row["hits"][:10]]
    return len(set(ids) & set(row["gold"])) / len(row["gold"]) if row["gold"] else 0.0


def features(row: Row) -> dict[str, float]:
    n = max(row["n"], 100)
    idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in row["df"].items()}
    total = sum(idf.values()) or 1e-9
    sims = np.array(row["sims"] or [0.0])
    hits = row["hits"]
    return {
        "relevance": max((h["rel"] for h in hits), default=0.0),
        "store_coverage": sum(v for t, v in idf.items() if row["df"][t] > 0) / total,
        "best_lexical": max((h["lexical"] for h in hits), default=0.0),
        "dense_top": float(sims[0]),
        "dense_gap_top100": float(sims[0] - sims[:100].mean()),
        "dense_gap_all": float(sims[0] - row.get("all_mean", 0.0)),
        "dense_z_all": float((sims[0] - row.get("all_mean", 0.0))
                             / max(row.get("all_std", 1.0), 1e-6)),
    }


MECHANISMS: dict[str, tuple[Callable[[dict[str, float]], float], list[float]]] = {
    "relevance (recall/relevance.py, max over hits)":
        (lambda f: f["relevance"], [0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6]),
    "store coverage (IDF share of query terms found anywhere in the scope)":
        (lambda f: f["store_coverage"], [0.1, 0.2, 0.3, 0.4, 0.5]),
    "best-hit lexical share": (lambda f: f["best_lexical"], [0.1, 0.2, 0.25, 0.3, 0.35, 0.4]),
    "dense top-1 cosine (absolute; embedder-specific)":
        (lambda f: f["dense_top"], [0.56, 0.57, 0.58, 0.585, 0.59, 0.6]),
    "dense top-1 minus mean of the top 100": (lambda f: f["dense_gap_top100"],
                                             [0.01, 0.015, 0.02, 0.025, 0.03]),
    "dense top-1 minus mean over all memories": (lambda f: f["dense_gap_all"],
                                                 [0.04, 0.045, 0.05, 0.06, 0.07]),
    "dense z over all memories": (lambda f: f["dense_z_all"], [2.5, 3.0, 3.5, 4.0, 4.5]),
    "best-hit lexical >= 0.3 or dense top-1 - mean(all) >= t":
        (lambda f: 1.0 if f["best_lexical"] >= 0.3 else f["dense_gap_all"],
         [0.04, 0.045, 0.05, 0.055, 0.06]),
}


def curve(rows: list[tuple[Row, dict[str, float]]], score: Callable[[dict[str, float]], float],
          thresholds: list[float], fit: set[str]) -> list[str]:
    out, seen = [], {}
    for half in ("fit", "report"):
        sel = [(r, f) for r, f in rows if (r["half"] in fit) == (half == "fit")]
        on = [(r, f) for r, f in sel if r["on"]]
        off = [(r, f) for r, f in sel if not r["on"]]
        base = float(np.mean([r10(r) for r, _ in on]))
        for t in thresholds:
            kept = float(np.mean([r10(r) if score(f) >= t else 0.0 for r, f in on]))

            def share(rs: list[tuple[Row, dict[str, float]]], t: float = t) -> float:
                return float(np.mean([score(f) < t or r["abstained"] for r, f in rs])) \
                    if rs else 0.0

            en = [(r, f) for r, f in off if r["lang"] == "en"]
            zh = [(r, f) for r, f in off if r["lang"] == "zh"]
            seen[(half, t)] = (kept - base, share(off))
            out.append(f"| {half} | {t:g} | {kept - base:+.4f} | {share(off):.3f} | "
                       f"{share(en):.3f} | {share(zh):.3f} |")
    ok = [t for t in thresholds if seen[("fit", t)][0] >= -0.01]
    if ok:
        t = max(ok)
        out.append(f"PICK {t:g}: fit dR@10 {seen[('fit', t)][0]:+.4f} off {seen[('fit', t)][1]:.3f}"
                   f"; report dR@10 {seen[('report', t)][0]:+.4f} off "
                   f"{seen[('report', t)][1]:.3f}")
    return out


def main() -> int:
    rows = [r for r in json.load(open(sys.argv[1])) if r["half"] != "xl"]
    convs = sorted({r["half"] for r in rows})
    fit = {c for i, c in enumerate(convs) if i % 2 == 0}
    pairs = [(r, features(r)) for r in rows]
    for name, (score, thresholds) in MECHANISMS.items():
        print(f"\n### {name}\n\n| half | threshold | dR@10 | off abstain | en | zh |\n"
              "|---|---|---|---|---|---|")
        print("\n".join(curve(pairs, score, thresholds, fit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

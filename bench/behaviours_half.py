"""The behaviour scorer (../shared/bench/behaviours/score.py) on one half of its cases.

    python bench/behaviours_half.py --half design [--embedder hashing] [--only wake] [--verbose]
    python bench/behaviours_half.py --half held    # looked at once, at the end of a change

Every case is put in a half by a hash of its id (a question by a hash of its text, so each
relevance store keeps all its memories and half its questions): changes are designed on
``design`` and judged on ``held``, which is not read case by case while designing."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import zlib
from pathlib import Path

SCORER = Path(__file__).resolve().parents[2] / "shared" / "bench" / "behaviours" / "score.py"
HALVES = {"design": 0, "held": 1}


def in_half(key: str, half: int) -> bool:
    return zlib.crc32(key.encode("utf-8")) % 2 == half


def halved(name: str, data: dict, half: int) -> dict:
    """``data`` (one of the scorer's files) with only the cases of ``half``."""
    out = dict(data)
    if name == "updates":
        out["chains"] = [c for c in data["chains"] if in_half(c["id"], half)]
    elif name == "near_misses":
        out["pairs"] = [p for p in data["pairs"] if in_half(p["id"], half)]
    elif name == "extraction":
        out["items"] = [i for i in data["items"] if in_half(i["id"], half)]
    elif name == "relevance":
        out["stores"] = [{**s, "on_topic": [q for q in s["on_topic"] if in_half(q["q"], half)],
                          "off_topic": [q for q in s["off_topic"] if in_half(q["q"], half)]}
                         for s in data["stores"]]
    elif name == "wake":
        out["episodes"] = [e for e in data["episodes"] if in_half(e["id"], half)]
        out["controls"] = [c for c in data["controls"] if in_half(c["id"], half)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=sorted(HALVES), required=True)
    args, rest = ap.parse_known_args()
    spec = importlib.util.spec_from_file_location("behaviour_score", SCORER)
    assert spec is not None and spec.loader is not None
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    whole = score.load
    score.load = lambda name: halved(name, whole(name), HALVES[args.half])
    sys.argv = [str(SCORER), *rest]
    return int(score.main() or 0)


if __name__ == "__main__":
    sys.exit(main())

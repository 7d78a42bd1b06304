"""The behaviour file's relevance stores under a relevance floor: each question's top 3 at floor
0, then every floor applied as recall applies it (hits under it dropped, none left = abstained);
on-topic questions whose expected memory stays in the top 3, and off-topic questions that
abstain, by type (general, other person, adjacent: the near-topic ones).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/relevance_floor.py --half design
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/relevance_floor.py --half held   # at the end

Halves as bench/behaviours_half.py splits them (a question by a hash of its text)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from behaviours_half import HALVES, SCORER, in_half

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
FLOORS = (0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5)
TYPES = ("general", "other_person", "adjacent")


def asked(half: int, embedder: str) -> list[dict]:
    """Each question of ``half``: on or off topic, its type, its top 3 as (score, expected)."""
    import engramdb
    from engramdb.registry import make_embedder
    from engramdb.testing import FrozenClock

    stores = json.loads((Path(SCORER).parent / "relevance.json").read_text("utf-8"))["stores"]
    model = make_embedder(embedder)
    rows = []
    for st in stores:
        clock = FrozenClock(START)
        with engramdb.open(":memory:", embedder=model, clock=clock) as mem:
            ids = {}
            for i, m in enumerate(st["memories"]):
                clock.set(START + timedelta(days=i))
                ids[m["id"]] = mem.remember(m["text"], kind=m.get("kind") or "fact").memory.id
            clock.set(START + timedelta(days=len(st["memories"]) + 1))
            for on, questions in ((True, st["on_topic"]), (False, st["off_topic"])):
                for q in (q for q in questions if in_half(q["q"], half)):
                    hits = mem.recall(q["q"], k=3, track=False, relevance_floor=0)
                    rows.append({"on": on, "type": q["type"], "hits": [
                        (h.score, on and (h.memory.id == ids.get(q["expect"])
                                          or h.memory.content == q.get("expect_text")))
                        for h in hits]})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=sorted(HALVES), required=True)
    ap.add_argument("--embedder", default="default")
    args = ap.parse_args()
    rows = asked(HALVES[args.half], args.embedder)
    on = [r for r in rows if r["on"]]
    print(f"| floor | on-topic hit@3 | {' | '.join(f'off {t} abstained' for t in TYPES)} |")
    print("|---|---|" + "---|" * len(TYPES))
    for floor in FLOORS:
        kept = sum(any(ok and score >= floor for score, ok in r["hits"]) for r in on)
        cells = []
        for kind in TYPES:
            off = [r for r in rows if not r["on"] and r["type"] == kind]
            gone = sum(all(score < floor for score, _ in r["hits"]) and floor > 0 for r in off)
            cells.append(f"{gone}/{len(off)}")
        print(f"| {floor:.2f} | {kept}/{len(on)} | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The default embedder's two models, each alone and together, on relevance stores' questions.

The default embedder stores every memory in both of its models (multilingual-e5 and USE) and
searches a question with one: e5 for English, USE for Chinese. This measures, on the on-topic
questions of relevance files (the shared behaviour file's layout), where the expected memory
ranks among its store's memories:

- ``dense``: by the cosine of one model, of the model the question is routed to, or of the sum
  of both models' cosines z-scored over the store;
- ``standing``: by the memory's standing against the question bank (recall/questionbank.py) in
  the question's own model, in the other model, or the mean of the two;

and, ``curve``: the whole recall of the code on PYTHONPATH at floor 0, every question of the
files, then each floor applied as recall applies it: on-topic questions whose expected memory
stays in the top 3, and off-topic questions that abstain.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/two_models.py dense FILE...
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/two_models.py standing FILE...
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/two_models.py curve FILE...

Not a test: figures only (bench/results/two_models.md)."""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
FLOORS = (0.0, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


def stores(files: list[str]) -> list[dict[str, Any]]:
    out = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            out += json.load(f)["stores"]
    return out


def z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean()) / max(float(v.std()), 1e-9)


def ranks(files: list[str], mode: str) -> dict[str, list[int]]:
    """Per view and question kind, the expected memory's rank for each on-topic question."""
    from engramdb.recall.questionbank import questions
    from engramdb.registry import make_embedder
    from engramdb.text import is_cjk

    emb = make_embedder("default", threads=1)
    models = {"e5": emb.main, "use": emb.cjk}
    bank = {}
    for lang in ("en", "zh"):
        asked = [q for lg, q in questions() if lg == lang]
        bank[lang] = {k: m.embed_batch(asked, query=True) for k, m in models.items()}
    out: dict[str, list[int]] = defaultdict(list)
    for st in stores(files):
        ids = [m["id"] for m in st["memories"]]
        mems = {k: m.embed_batch([x["text"] for x in st["memories"]]) for k, m in models.items()}
        on = [q for q in st["on_topic"] if q["expect"] in ids]
        qv = {k: m.embed_batch([q["q"] for q in on], query=True) for k, m in models.items()}
        for i, q in enumerate(on):
            lang = "zh" if is_cjk(q["q"]) else "en"
            own, other = ("use", "e5") if lang == "zh" else ("e5", "use")
            cos = {k: mems[k] @ qv[k][i] for k in models}
            if mode == "dense":
                views = {"e5": cos["e5"], "use": cos["use"], "routed": cos[own],
                         "both (z-sum)": z(cos["e5"]) + z(cos["use"])}
            else:
                stood = {}
                for k in models:
                    typical = bank[lang][k] @ mems[k].T
                    stood[k] = (cos[k] - typical.mean(0)) / typical.std(0)
                views = {"own model": stood[own], "other model": stood[other],
                         "mean of both": (stood["e5"] + stood["use"]) / 2}
            want = ids.index(q["expect"])
            for name, v in views.items():
                rank = int(np.where(np.argsort(-v) == want)[0][0])
                out[f"{name} | {lang} {q.get('type', '')}"].append(rank)
                out[f"{name} | all"].append(rank)
    return out


def curve(files: list[str]) -> None:
    import engramdb
    from engramdb.testing import FrozenClock

    on, off = [], []
    for st in stores(files):
        clock = FrozenClock(START)
        with engramdb.open(":memory:", clock=clock) as mem:
            scope, ids = mem.scope(user="u", agent="a"), {}
            for i, m in enumerate(st["memories"]):
                clock.set(START + timedelta(days=i))
                ids[m["id"]] = scope.remember(m["text"], kind=m.get("kind") or "fact").memory.id
            clock.set(START + timedelta(days=len(st["memories"]) + 1))
            for q in st["on_topic"]:
                hits = scope.recall(q["q"], k=3, track=False, relevance_floor=0.0)
                on.append([h.score for h in hits if h.memory.id == ids.get(q["expect"])
                           or h.memory.content == q.get("expect_text")])
            for q in st["off_topic"]:
                hits = scope.recall(q["q"], k=3, track=False, relevance_floor=0.0)
                off.append(None if hits.abstained else max((h.score for h in hits), default=0))
    print(f"| floor | on-topic: expected in the top 3 (of {len(on)}) | off-topic: abstained "
          f"(of {len(off)}) |\n|---:|---:|---:|")
    for f in FLOORS:
        kept = sum(any(s >= f for s in found) for found in on)
        quiet = sum(best is None or best < f for best in off)
        print(f"| {f:.2f} | {kept} | {quiet} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=("dense", "standing", "curve"))
    p.add_argument("files", nargs="+", help="relevance files (the shared file's layout)")
    args = p.parse_args()
    if args.mode == "curve":
        curve(args.files)
        return
    print("| view | questions | hit@1 | hit@3 |\n|---|---:|---:|---:|")
    for key, rs in sorted(ranks(args.files, args.mode).items()):
        print(f"| {key} | {len(rs)} | {np.mean([r == 0 for r in rs]):.3f} | "
              f"{np.mean([r < 3 for r in rs]):.3f} |")


if __name__ == "__main__":
    main()

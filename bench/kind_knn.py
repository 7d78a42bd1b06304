"""A memory's kind from the nearest labelled examples (write/kindvote.py) against the rule
extractor alone, on data the rules were and were not written against.

Each sentence of a set is ingested alone as score.py does, and its kind is the first extracted
memory's kind ("none" when nothing is kept). Columns:

- rules: the extractor alone (the hashing embedder: write/kindvote.py gives no vote there);
- library: ingest with the default embedder, so the kind of a sentence the rules only guessed
  comes from the examples (src/engramdb/data/kind_examples.txt) where their vote is clear;
- knn alone: the examples' vote on every sentence (the kind with the best score), for scale.

Sets: the shared behaviours extraction file's design and held halves (bench/behaviours_half.py;
the rules were tuned on the design half), and bench/fresh and bench/fresh2 (written by helpers
who had not read the code). ``--study`` runs last session's study instead: the team's 360
labelled turns (bench/data/extraction_*.txt) as the examples, k nearest, weighted vote.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/kind_knn.py
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/kind_knn.py --study [--k 3 5 9]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import engramdb
from engramdb.registry import make_embedder
from engramdb.write.kindvote import book_for

HERE = Path(__file__).resolve().parent
SETS = {"behaviours (dev)": HERE.parents[1] / "shared" / "bench" / "behaviours" / "extraction.json",
        "fresh": HERE / "fresh" / "extraction.json",
        "fresh2": HERE / "fresh2" / "extraction.json"}
EXAMPLES = [HERE / "data" / f"extraction_{name}.txt" for name in ("en", "zh", "extra")]
FALLBACK = ("statement", "past_statement", "dated_event", "subject", "my_x")


def examples() -> list[tuple[str, str]]:
    """(turn, kind) of every example line with one kind ("-": nothing to keep)."""
    out = []
    for path in EXAMPLES:
        for line in path.read_text("utf-8").splitlines():
            if line.startswith("#") or "|" not in line:
                continue
            kinds, text = (part.strip() for part in line.split("|")[:2])
            if "," not in kinds:
                out.append((text, "none" if kinds == "-" else kinds))
    return out


def by_rules(texts: list[str], embedder: object = "hashing") -> list[tuple[str, str]]:
    """(kind, rule) of the first memory each sentence makes alone through ``ingest``."""
    out = []
    with engramdb.open(":memory:", embedder=embedder) as mem:
        for i, text in enumerate(texts):
            rep = mem.ingest([{"role": "user", "content": text}], session=f"s{i}", user=f"u{i}")
            got = [(r.memory.kind.value, str((r.memory.metadata or {}).get("rule", "")))
                   for r in rep.extracted if r.action.value != "reject"]
            out.append(got[0] if got else ("none", ""))
    return out


def unit(model: object, texts: list[str]) -> np.ndarray:
    vectors = np.array(model.embed_batch(texts), dtype=np.float32)  # type: ignore[attr-defined]
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def vote(sims: np.ndarray, labels: list[str], k: int) -> list[str]:
    out = []
    for row in sims:
        tally: dict[str, float] = {}
        for j in np.argsort(-row)[:k]:
            tally[labels[j]] = tally.get(labels[j], 0.0) + float(row[j])
        out.append(max(tally, key=lambda kind: tally[kind]))
    return out


def share(pred: list[str], truth: list[str]) -> float:
    """The share of items whose predicted kind is the labelled one."""
    return float(np.mean([p == t for p, t in zip(pred, truth, strict=True)]))


def halves() -> dict[str, list[dict]]:
    """The four sets: the behaviours file's two halves, fresh and fresh2."""
    import zlib

    dev = json.loads(SETS["behaviours (dev)"].read_text("utf-8"))["items"]
    out = {f"behaviours {name}": [it for it in dev
                                  if zlib.crc32(it["id"].encode("utf-8")) % 2 == half]
           for half, name in enumerate(("design", "held"))}
    for name in ("fresh", "fresh2"):
        out[name] = json.loads(SETS[name].read_text("utf-8"))["items"]
    return out


def library() -> None:
    model = make_embedder("default", threads=1)
    book = book_for(model)
    assert book is not None
    print(f"{len(book.labels)} examples; a vote counts when it leads by more than "
          f"{book.needed:.3f}")
    print("| set | items | rules | library | knn alone | votes taken |")
    print("|---|---|---|---|---|---|")
    for name, items in halves().items():
        truth = [it["expect"]["kind"] if it["expect"] else "none" for it in items]
        texts = [it["text"] for it in items]
        rules = by_rules(texts)
        new = by_rules(texts, model)
        alone = [book.kinds[i] for i in book.scores(unit(model, texts)).argmax(axis=1)]
        taken = sum(a != b for (a, _), (b, _) in zip(rules, new, strict=True))
        print(f"| {name} | {len(items)} | {share([r for r, _ in rules], truth):.3f} | "
              f"{share([n for n, _ in new], truth):.3f} | {share(alone, truth):.3f} | {taken} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", action="store_true",
                        help="the team's labelled turns as the examples (last session's study)")
    parser.add_argument("--k", type=int, nargs="+", default=[3, 5])
    args = parser.parse_args()
    if not args.study:
        library()
        return
    model = make_embedder("default", threads=1)
    known = examples()
    base = unit(model, [text for text, _ in known])
    labels = [kind for _, kind in known]
    print(f"{len(known)} labelled examples")
    print("| set | items | k | rules | knn | rules, kind by knn where the rule is a fallback |")
    print("|---|---|---|---|---|---|")
    for name, path in SETS.items():
        items = json.loads(path.read_text("utf-8"))["items"]
        truth = [it["expect"]["kind"] if it["expect"] else "none" for it in items]
        texts = [it["text"] for it in items]
        rules = by_rules(texts)
        sims = unit(model, texts) @ base.T
        for k in args.k:
            near = vote(sims, labels, k)
            mixed = [n if kind != "none" and rule.endswith(FALLBACK) and n != "none" else kind
                     for (kind, rule), n in zip(rules, near, strict=True)]
            print(f"| {name} | {len(items)} | {k} | {share([r for r, _ in rules], truth):.3f} | "
                  f"{share(near, truth):.3f} | {share(mixed, truth):.3f} |")


if __name__ == "__main__":
    main()

"""Could a memory's kind be read from meaning? The rule extractor's kind against the nearest
labelled examples' kind (cosine over the default embedder), on data the rules were and were
not written against. A study, not a feature: nothing in the library uses it.

The examples are the team's own labelled turns (bench/data/extraction_*.txt, one kind a line:
fact, preference, rule, lesson, pending, event or nothing; 360 lines). Each sentence of a set
is ingested alone as score.py does (the first extracted memory's kind, or "none"), and
embedded; its k nearest examples vote, weighted by cosine. Three ways:

- rules: the extractor alone;
- knn: the examples' vote alone;
- rules, kind by knn where the rule is a fallback: the extractor decides whether anything is
  kept, and its kind stands where a typed pattern read it; where only the fallback read the
  sentence (write/statement.py: a statement, a dated past sentence, a broad subject rule),
  the examples' vote gives the kind (unless it votes "nothing").

Sets: the shared behaviours extraction file (the rules were tuned on its design half), and
bench/fresh and bench/fresh2 (written by helpers who had not read the code).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/kind_knn.py [--k 3 5 9]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import engramdb
from engramdb.registry import make_embedder

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


def by_rules(texts: list[str]) -> list[tuple[str, str]]:
    """(kind, rule) of the first memory each sentence makes alone through ``ingest``."""
    out = []
    with engramdb.open(":memory:", embedder="hashing") as mem:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[3, 5])
    args = parser.parse_args()
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

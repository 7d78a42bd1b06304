"""Do two codes recall the same? Hits, scores and explanations compared exactly (issue 28).

A change meant to make recall cheaper must not change what it returns. Build the stores once
with either code, dump the recalls with each code (its own ``src`` on PYTHONPATH), compare:

    python bench/recall_same.py build DIR                # scale store + behaviour stores
    PYTHONPATH=/old/src python bench/recall_same.py dump DIR old.json
    PYTHONPATH=src python bench/recall_same.py dump DIR new.json
    python bench/recall_same.py compare old.json new.json

The recalls (``track=False``: a pure read, so both codes read the same store):
- 200 on a 10k-memory scope of bench/common.py's corpus (English, Chinese and mixed text),
  hashing embedder, k cycling through 5, 10, 20 and 70;
- every question of the four stores of ``behaviours/relevance.json`` (English, Chinese,
  mixed; on-topic and off-topic), hashing embedder, k cycling through 3, 5 and 10;
- the first 12 questions of the Chinese and the mixed store with the default embedder
  (``--no-model`` leaves them out).
A dump holds each recall's whole ``Hits.to_dict()`` and, unrounded, every hit's score and
explanation (floats as JSON writes them: exact). ``compare`` fails when any result differs
(hits, records, scores, explanations, abstentions, notes) and lists the keys of the plans that
differ: a plan counts what the candidates read left out, so reading fewer changes its counts.
Not a test (it takes a minute); the figures go in bench/results/speed.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import engramdb  # noqa: E402
from common import NOW, Corpus  # noqa: E402
from engramdb import Draft  # noqa: E402
from engramdb.testing import FrozenClock  # noqa: E402

BEHAVIOURS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "behaviours"
SCALE_SIZE = 10_000
SCALE_QUERIES = 200
MODEL_QUERIES = 12
MODEL_STORES = ("zh-linxiao", "mixed-wei")


def stores() -> list[dict[str, Any]]:
    data = json.loads((BEHAVIOURS / "relevance.json").read_text(encoding="utf-8"))
    return list(data["stores"])


def build(out: Path, model: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    corpus = Corpus(7)
    with engramdb.open(str(out / "scale.db"), embedder="hashing", clock=FrozenClock(NOW)) as mem:
        drafts = [corpus.draft(n) for n in range(SCALE_SIZE)]
        for start in range(0, len(drafts), 1000):
            mem.remember_many(drafts[start : start + 1000], user="scale", agent="bench")
    for _, mem, store in behaviour_stores(out, model):
        mem.remember_many([Draft(content=m["text"], kind=m["kind"])
                           for m in store["memories"]], user=store["id"], agent="bench")
    print(f"built in {out}")


def behaviour_stores(folder: Path, model: bool) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(embedder, its open memory, store) for each behaviour store compared: every store with
    the hashing embedder, MODEL_STORES with the default one too (``model``)."""
    for embedder in ("hashing", "default") if model else ("hashing",):
        with engramdb.open(str(folder / f"behaviours-{embedder}.db"), embedder=embedder,
                           clock=FrozenClock(NOW)) as mem:
            for store in stores():
                if embedder == "default" and store["id"] not in MODEL_STORES:
                    continue
                yield embedder, mem, store


def exact(hits: engramdb.Hits) -> dict[str, Any]:
    out = hits.to_dict()
    out["exact"] = [{"id": h.memory.id, "score": h.score,
                     "explanation": dataclasses.asdict(h.explanation)} for h in hits]
    return out


def dump(db: Path, out: Path, model: bool) -> None:
    recalls: list[dict[str, Any]] = []
    corpus = Corpus(8)
    with engramdb.open(str(db / "scale.db"), embedder="hashing", clock=FrozenClock(NOW)) as mem:
        for i in range(SCALE_QUERIES):
            q, k = corpus.query(), (5, 10, 20, 70)[i % 4]
            recalls.append({"store": "scale", "q": q, "k": k,
                            "hits": exact(mem.recall(q, k=k, track=False, user="scale",
                                                     agent="bench"))})
    for embedder, mem, store in behaviour_stores(db, model):
        questions = [c["q"] for c in store["on_topic"] + store["off_topic"]]
        if embedder == "default":
            questions = questions[:MODEL_QUERIES]
        for i, q in enumerate(questions):
            k = (3, 5, 10)[i % 3]
            hits = mem.recall(q, k=k, track=False, user=store["id"], agent="bench")
            recalls.append({"store": f"{store['id']}/{embedder}", "q": q, "k": k,
                            "hits": exact(hits)})
    out.write_text(json.dumps(recalls, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    print(f"{len(recalls)} recalls written to {out}")


def results(recall: dict[str, Any]) -> dict[str, Any]:
    """What a recall returns, less its plan: the hits (records, scores, explanations, the
    verdicts and one-line summaries), whether it abstained and its note."""
    return {k: v for k, v in recall["hits"].items() if k != "plan"}


def compare(a: Path, b: Path) -> int:
    """Exit status 1 when a recall's results differ; a plan that differs alone (its counts of
    what the candidates it read left out, its window's inside/outside counts: they follow how
    many candidates were read) is listed, by key, and does not fail."""
    left = json.loads(a.read_text(encoding="utf-8"))
    right = json.loads(b.read_text(encoding="utf-8"))
    if len(left) != len(right):
        print(f"different numbers of recalls: {len(left)} against {len(right)}")
        return 1
    pairs = list(zip(left, right, strict=True))
    differ = [(x, y) for x, y in pairs if results(x) != results(y) or x["q"] != y["q"]]
    planned: dict[str, int] = {}
    for x, y in pairs:
        px, py = x["hits"]["plan"], y["hits"]["plan"]
        for key in sorted({*px, *py}):
            if px.get(key) != py.get(key):
                what = key if key != "stages" else "stages." + ",".join(
                    s for s in sorted({*px[key], *py[key]}) if px[key].get(s) != py[key].get(s))
                planned[what] = planned.get(what, 0) + 1
    hits = sum(len(x["hits"]["hits"]) for x in left)
    print(f"{len(left)} recalls, {hits} hits: results (hits, scores, explanations, abstentions, "
          f"notes) identical in {len(left) - len(differ)}, different in {len(differ)}")
    print(f"plans: identical in {sum(x['hits']['plan'] == y['hits']['plan'] for x, y in pairs)}"
          f"; keys that differ (recalls): {planned or 'none'}")
    for x, y in differ[:5]:
        print(f"- {x['store']} k={x['k']} {x['q']!r}")
        for field in ("abstained", "note", "plan", "exact", "hits"):
            if x["hits"][field] != y["hits"][field]:
                print(f"  {field}: {json.dumps(x['hits'][field], ensure_ascii=False)[:300]}")
                print(f"  against: {json.dumps(y['hits'][field], ensure_ascii=False)[:300]}")
                break
    return 1 if differ else 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="verb", required=True)
    b = sub.add_parser("build", help="build the stores in DIR")
    b.add_argument("dir", type=Path)
    d = sub.add_parser("dump", help="run the recalls on DIR's stores, write them to OUT")
    d.add_argument("dir", type=Path)
    d.add_argument("out", type=Path)
    c = sub.add_parser("compare", help="compare two dumps exactly")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    for sp in (b, d):
        sp.add_argument("--no-model", action="store_true",
                        help="leave out the default embedder's recalls")
    args = p.parse_args()
    if args.verb == "build":
        build(args.dir, not args.no_model)
    elif args.verb == "dump":
        dump(args.dir, args.out, not args.no_model)
    else:
        sys.exit(compare(args.a, args.b))


if __name__ == "__main__":
    main()

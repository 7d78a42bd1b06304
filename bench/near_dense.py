"""Near-miss pairs ordered by the raw cosine alone: a floor for recall/nearpair.py's rules.

For each pair of a near-miss file (the shared scorer's schema), each question is compared with
the pair's two memories by cosine, as if both were current and nothing else were read: by the
default embedder's routed query (e5 for English, USE for Chinese) and by e5 alone for every
question. A pair counts when both questions are nearest their own memory. The recall's own
figure (``score.py``'s "both current and each first") also needs the write path to keep both
current; bench/results/rules.md compares the two (thirty-fourth session).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/near_dense.py FILE [FILE ...]
"""

from __future__ import annotations

import argparse
import json

from engramdb.registry import make_embedder


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="near_misses.json files")
    p.add_argument("--verbose", action="store_true", help="print each question it misorders")
    args = p.parse_args()
    model = make_embedder("default", threads=1)
    pairs = routed = e5 = 0
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)["pairs"]
        memories = model.embed_batch([t for c in cases for t in (c["a"]["text"], c["b"]["text"])])
        for i, case in enumerate(cases):
            a, b = memories[2 * i], memories[2 * i + 1]
            right = []
            for question, mine, other in ((case["q_a"], a, b), (case["q_b"], b, a)):
                own = model.embed_batch([question], query=True)[0]
                main_half = model.embed_main_batch([question])[0]
                right.append((float(own @ mine) > float(own @ other),
                              float(main_half @ mine) > float(main_half @ other)))
                if args.verbose and not right[-1][0]:
                    print(f"  {case['id']}: {question!r} nearer the other memory (routed)")
            pairs += 1
            routed += all(r for r, _ in right)
            e5 += all(r for _, r in right)
    print(f"pairs {pairs}: each question nearest its own memory, routed query {routed}, "
          f"e5 alone {e5}")


if __name__ == "__main__":
    main()

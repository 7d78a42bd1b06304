"""Why the agent's semantic cache (engramdb/agent/cache.py) checks words and not only
similarity: the cosine of question pairs with an embedder, and whether the cache would hit.

    python bench/agent_cache.py [--embedder default]
"""

from __future__ import annotations

import argparse

import engramdb
from engramdb.agent.cache import THRESHOLD, _unit, same_ask

PAIRS = [
    ("What is my dog called?", "what is my dog called"),
    ("What is my dog called?", "Tell me again what my dog is called, please"),
    ("What is my dog called?", "What's the name of my dog?"),
    ("What is my dog called?", "What was my dog called?"),
    ("What is my dog called?", "What is your dog called?"),
    ("What is my dog called?", "What is my cat called?"),
    ("Where do I live?", "Could you tell me where I live?"),
    ("Where do I live?", "Where did I live in 2019?"),
    ("What did I eat on Monday?", "What did I eat on Tuesday?"),
    ("我住在哪里？", "请告诉我我住在哪里"),
    ("我住在哪里？", "我现在住在哪里？"),
    ("我住在哪里？", "我以前住在哪里？"),
    ("我的狗叫什么名字？", "我的猫叫什么名字？"),
    ("我的狗叫什么名字？", "你的狗叫什么名字？"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--embedder", default="default")
    args = ap.parse_args()
    with engramdb.open(":memory:", embedder=args.embedder) as m:
        print(f"embedder {args.embedder}, threshold {THRESHOLD}")
        for a, b in PAIRS:
            sim = float(_unit(m._embed_query(a)) @ _unit(m._embed_query(b)))
            same = same_ask(a, b)
            print(f"{sim:.3f}  same words {same!s:5}  hit {sim >= THRESHOLD and same!s:5}  "
                  f"{a} | {b}")


if __name__ == "__main__":
    main()

"""Study for off-topic abstention (issue 13): bench/abstain.py's questions, with the features
each candidate mechanism needs dumped per question, so that mechanisms are compared offline
on the same recall: per query term its document frequency in the scope (uncapped, up to
DF_LIMIT), the dense leg's similarities (top 200, for a background), and per hit its
relevance, lexical share, dense gap and legs.

    ENGRAMDB_RELEVANCE_FLOOR=0 ENGRAMDB_LOCOMO_DIR=../shared/bench PYTHONPATH=src \
        .venv/bin/python bench/abstain_study.py --out bench/.cache/abstain_study.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from locomo import SHARED, EngramRetriever  # noqa: E402
from offtopic import questions as offtopic_questions  # noqa: E402

DF_LIMIT = 2000
DENSE_TOP = 200
SIGNALS = ("lexical", "dense_gap", "topicality")


def features(mem: Any, user: str, text: str) -> dict[str, Any]:
    from engramdb.model import Layer, Scope
    from engramdb.text import tokenize

    scope = Scope(user, "locomo")
    store = mem.store
    layers = (Layer.CORE,)
    terms = list(dict.fromkeys(tokenize(text)))
    df = {t: len(store.search_text(scope, [t], {"body": 1.0, "anchors": 1.0, "context": 1.0},
                                   DF_LIMIT, layers)) for t in terms}
    vec = mem._embed_query(text)
    sims = [round(s, 4) for _, s in store.search_vector(scope, vec, DENSE_TOP, layers)]
    matrix = scope_matrix(store, scope)
    every = matrix @ vec
    return {"df": df, "sims": sims, "all_mean": float(every.mean()),
            "all_std": float(every.std()), "all_p99": float(np.percentile(every, 99))}


_MATRIX: dict[Any, Any] = {}


def scope_matrix(store: Any, scope: Any) -> Any:
    """Every core memory's vector of the scope, one row each (kept per scope and size)."""
    from engramdb.model import Layer
    from engramdb.store.protocol import ListFilter

    ids = [r.id for r in store.list(scope, ListFilter(layers=(Layer.CORE,)))]
    key = (scope, len(ids))
    if key not in _MATRIX:
        found = store.vectors(scope, ids)
        _MATRIX[key] = np.vstack([found[i] for i in ids if i in found])
    return _MATRIX[key]


def ask(mem: Any, user: str, text: str, half: str, key: str, *, gold: list[str] | None,
        category: int = 0, lang: str = "en") -> dict[str, Any]:
    hits = mem.recall(text, k=30, track=False, user=user, agent="locomo")
    row = {"half": half, "q": text, "on": gold is not None, "lang": lang, "cat": category,
           "gold": gold or [], "abstained": hits.abstained, "n": 0,
           "hits": [{"id": h.memory.metadata.get("dia_id") if key == "dia" else h.memory.id,
                     "rel": round(h.score, 4),
                     **{k: h.explanation.terms.get(k, 0.0) for k in SIGNALS},
                     "cos": round(h.explanation.legs["dense"].score, 4)
                     if "dense" in h.explanation.legs else None,
                     "legs": sorted(h.explanation.legs)} for h in hits]}
    row.update(features(mem, user, text))
    return row


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    sys.path.insert(0, str(SHARED))
    import locomo_retrieval as lr  # type: ignore[import-not-found]

    from engramdb.model import Layer, Scope
    from engramdb.store.protocol import ListFilter

    convs = lr.select_split(lr.load_locomo(str(SHARED / "locomo_dev.json")), args.split,
                            lr.load_splits(str(SHARED / "splits.json")))
    retriever = EngramRetriever(embedder=args.embedder)
    mem = retriever.mem
    rows: list[dict[str, Any]] = []
    try:
        for conv in convs[: args.max_conversations]:
            retriever.index(conv.conversation_id, conv.turns)
            n = mem.store.count(Scope(conv.conversation_id, "locomo"),
                                ListFilter(layers=(Layer.CORE,)))
            half = conv.conversation_id
            for q in conv.questions[: args.max_questions]:
                rows.append(ask(mem, conv.conversation_id, q.question, half, "dia",
                                gold=q.evidence, category=q.category) | {"n": n})
            for text, lang in offtopic_questions(conv.speaker_a, conv.speaker_b):
                rows.append(ask(mem, conv.conversation_id, text, half, "dia", gold=None,
                                lang=lang) | {"n": n})
            print(f"{conv.conversation_id}: {len(conv.turns)} turns", flush=True)
        rows += crosslingual(mem)
    finally:
        retriever.close()
    return rows


def crosslingual(mem: Any) -> list[dict[str, Any]]:
    """bench/crosslingual.py's 32 English facts in one scope ("xl"): its Chinese questions (on
    topic, no shared word) and the Chinese off-topic questions."""
    from crosslingual import FACTS  # type: ignore[import-not-found]
    from engramdb import Draft

    results = mem.remember_many([Draft(f.en, kind="fact") for f in FACTS], user="xl",
                                agent="locomo")
    rows = []
    for fact, result in zip(FACTS, results, strict=True):
        rows.append(ask(mem, "xl", fact.q_zh, "xl", "id", gold=[result.memory.id], lang="zh")
                    | {"n": len(FACTS)})
    for text, lang in offtopic_questions("Alex", "Sam"):
        rows.append(ask(mem, "xl", text, "xl", "id", gold=None, lang=lang) | {"n": len(FACTS)})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", default="default")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--max-questions", type=int, default=None)
    ap.add_argument("--max-conversations", type=int, default=None)
    ap.add_argument("--out", default=str(HERE / ".cache" / "abstain_study.json"))
    args = ap.parse_args()
    rows = run(args)
    Path(args.out).write_text(json.dumps(rows, ensure_ascii=False))
    print(f"{len(rows)} rows -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

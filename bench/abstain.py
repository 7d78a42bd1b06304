"""Off-topic abstention on LoCoMo dev (issue 13): the dev conversations indexed exactly as
bench/locomo.py does, then (a) the dev questions (on topic) and (b) questions written for this
bench about things no conversation holds (bench/offtopic.py, English and Chinese, some naming
the conversation's speakers). Recall runs with k=30 and no floor; each hit carries its
relevance (recall/relevance.py), so every floor is simulated exactly as recall applies it
(hits under the floor dropped, the first 10 kept, none left = abstain).

The floor is fitted on half of the conversations (the first, third, ...) and reported on the
other half: off-topic abstention and on-topic R@10 per floor.

    ENGRAMDB_LOCOMO_DIR=../shared/bench PYTHONPATH=src .venv/bin/python bench/abstain.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from locomo import SHARED, EngramRetriever  # noqa: E402
from offtopic import questions as offtopic_questions  # noqa: E402

FLOORS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def run(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(SHARED))
    import locomo_retrieval as lr  # type: ignore[import-not-found]

    convs = lr.select_split(lr.load_locomo(str(SHARED / "locomo_dev.json")), args.split,
                            lr.load_splits(str(SHARED / "splits.json")))
    retriever = EngramRetriever(embedder=args.embedder)
    rows: list[dict[str, Any]] = []
    try:
        for n, conv in enumerate(convs[: args.max_conversations]):
            retriever.index(conv.conversation_id, conv.turns)
            half = "fit" if n % 2 == 0 else "report"
            for q in conv.questions[: args.max_questions]:
                rows.append(ask(retriever, conv, q.question, half, gold=q.evidence,
                                category=q.category))
            for text, lang in offtopic_questions(conv.speaker_a, conv.speaker_b):
                rows.append(ask(retriever, conv, text, half, lang=lang))
            print(f"{conv.conversation_id}: {len(conv.turns)} turns", flush=True)
        rows += crosslingual(retriever)
    finally:
        retriever.close()
    return {"rows": rows, "table": table(rows)}


def crosslingual(retriever: EngramRetriever) -> list[dict[str, Any]]:
    """bench/crosslingual.py's 32 English facts in one scope; its Chinese questions (on topic,
    no shared word) and the Chinese off-topic questions. Half "xfit", half "xreport"."""
    from crosslingual import FACTS  # type: ignore[import-not-found]
    from engramdb import Draft

    mem = retriever.mem
    results = mem.remember_many([Draft(f.en, kind="fact") for f in FACTS], user="xl",
                                agent="locomo")
    ids = [r.memory.id for r in results]
    rows = []
    off = [q for q, lang in offtopic_questions("Alex", "Sam") if lang == "zh"]
    for i, fact in enumerate(FACTS):
        rows.append(ask_scope(mem, "xl", fact.q_zh, "xfit" if i % 2 == 0 else "xreport",
                              gold=[ids[i]], lang="zh"))
    for i, q in enumerate(off):
        rows.append(ask_scope(mem, "xl", q, "xfit" if i % 2 == 0 else "xreport", lang="zh"))
    return rows


def ask_scope(mem: Any, user: str, text: str, half: str, *, gold: list[str] | None = None,
              lang: str) -> dict[str, Any]:
    hits = mem.recall(text, k=30, track=False, user=user, agent="locomo")
    return {"half": half, "q": text, "on": gold is not None, "lang": lang, "cat": 0,
            "gold": gold or [], "abstained": hits.abstained,
            "hits": [(h.memory.id, round(h.score, 4), h.explanation.terms.get("lexical", 0.0),
                      h.explanation.terms.get("topicality", 0.0),
                      h.explanation.terms.get("dense_gap", 0.0),
                      cross_standing(h), meant(h)) for h in hits]}


def ask(retriever: EngramRetriever, conv: Any, text: str, half: str, *,
        gold: list[str] | None = None, category: int = 0, lang: str = "en") -> dict[str, Any]:
    hits = retriever.mem.recall(text, k=30, track=False, user=conv.conversation_id,
                                agent="locomo")
    return {"half": half, "q": text, "on": gold is not None, "lang": lang, "cat": category,
            "gold": gold or [], "abstained": hits.abstained,
            "hits": [(h.memory.metadata.get("dia_id"), round(h.score, 4),
                      h.explanation.terms.get("lexical", 0.0),
                      h.explanation.terms.get("topicality", 0.0),
                      h.explanation.terms.get("dense_gap", 0.0),
                      cross_standing(h), meant(h)) for h in hits]}


def meant(hit: Any) -> dict[str, float]:
    """The hit's meaning terms (recall/relevance.py): its standing against the question bank
    above chance, and against the scope where it is in the other language."""
    return {k: hit.explanation.terms[k] for k in ("standing", "across")
            if k in hit.explanation.terms}


def cross_standing(hit: Any) -> float:
    """The hit's standing in the cross-lingual leg (recall/crosslingual.py), 0 without it."""
    leg = hit.explanation.legs.get("crosslingual")
    return round(leg.score, 4) if leg is not None else 0.0


def at_floor(row: dict[str, Any], floor: float) -> list[str]:
    kept = [h for h in row["hits"] if h[1] >= floor] if floor > 0 else row["hits"]
    return [h[0] for h in kept[:10]]


def table(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for half in ("fit", "report", "xfit", "xreport"):
        for floor in FLOORS:
            on = [r for r in rows if r["half"] == half and r["on"]]
            off = [r for r in rows if r["half"] == half and not r["on"]]
            r10 = [len(set(at_floor(r, floor)) & set(r["gold"])) / len(r["gold"]) for r in on]
            ab = [not at_floor(r, floor) for r in off]
            ab_en = [not at_floor(r, floor) for r in off if r["lang"] == "en"]
            ab_zh = [not at_floor(r, floor) for r in off if r["lang"] == "zh"]
            on_ab = [not at_floor(r, floor) for r in on]
            out[f"{half} {floor:.2f}"] = {
                "on_R@10": sum(r10) / max(len(r10), 1), "on_abstain": sum(on_ab) / max(len(on), 1),
                "off_abstain": sum(ab) / max(len(ab), 1),
                "off_abstain_en": sum(ab_en) / max(len(ab_en), 1),
                "off_abstain_zh": sum(ab_zh) / max(len(ab_zh), 1),
                "n_on": len(on), "n_off": len(off)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", default="default")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--max-questions", type=int, default=None)
    ap.add_argument("--max-conversations", type=int, default=None)
    ap.add_argument("--out", default=str(HERE / ".cache" / "abstain.json"))
    args = ap.parse_args()
    result = run(args)
    Path(args.out).write_text(json.dumps(result, ensure_ascii=False))
    print("| half floor | on R@10 | on abstain | off abstain | off en | off zh |")
    for key, v in result["table"].items():
        print(f"| {key} | {v['on_R@10']:.3f} | {v['on_abstain']:.3f} | {v['off_abstain']:.3f} "
              f"| {v['off_abstain_en']:.3f} | {v['off_abstain_zh']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

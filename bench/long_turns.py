"""Long turns: what a memory of 200 to 10,000 characters costs to remember, and whether a detail
deep inside a long message is still found by meaning. Default embedder, one thread.

Modes: "whole" embeds a memory's whole text at once (before text/passages.py; set here by
making the passage limit huge); "pooled" embeds a long text as its passages and keeps their
pooled vector alone (embed/pooled.py); "best passage" is today's engine, which also keeps each
passage's vector and scores a long memory by its best (store/passages.py).

Cost: per language (English, Chinese) and size (200, 1,000, 2,800, 5,000, 10,000 characters),
--repeat turns of varied generated text (prose, pasted logs, code answers: bench/longtext.py)
each remembered alone (``remember``, embed="sync": the vector inside the call) on a fresh
SQLite file; the median seconds per call, per 1,000 characters, and that over the 200-character
turn's cost per 1,000 characters of the same mode and language.
Probe: 40 long messages (2,000-10,000 characters, half English, half Chinese) each with a
distinctive detail in its later half (bench/long_details.py), 20 long distractors and 60 short
turns; each detail asked by a paraphrased question (12 across languages); hit@1 and hit@5 of
the message with ``recall(preset="dense")`` and the default preset. The probe's model vectors
are cached under bench/.cache/long_turns (the cost part never uses a cache).

    PYTHONPATH=src python bench/long_turns.py [--part cost|probe|all] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import engramdb
from engramdb import Draft
from engramdb.embed import pooled
from engramdb.registry import make_embedder
from engramdb.store.passages import PendingPassages

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import locomo  # noqa: E402
from long_details import DETAILS  # noqa: E402
from longtext import long_turn, prose  # noqa: E402

SIZES = (200, 1000, 2800, 5000, 10000)
PROBE_SIZES = (2000, 3000, 4500, 6000, 8000, 10000)
MODES = ("whole", "pooled", "best passage")
WHOLE = 10**9
COST_HEAD = ("| mode | lang | size | chars | s / remember (median) | s / 1k chars (best) "
             "| s / 1k chars (median) | best / 200-char best |")
_ADD = PendingPassages.add


def set_mode(mode: str) -> None:
    """whole: no passages at all; pooled: the memory's vector from its passages, no passage
    vectors kept (the engine's memo left empty); best passage: today's engine."""
    pooled.PASSAGE_UNITS = WHOLE if mode == "whole" else pooled.LIMIT
    PendingPassages.add = _ADD if mode == "best passage" else _skip  # type: ignore[method-assign]


def _skip(self: PendingPassages, vector: Any, parts: Any) -> None:
    return None


# ---------------------------------------------------------------- cost

def cost(model: Any, repeat: int) -> list[dict[str, Any]]:
    """Each size's turns remembered in every mode in turn (the machine's load drifts less
    between modes than over a whole run)."""
    per: dict[tuple[str, str, int], tuple[list[float], list[str]]] = {}
    for lang in ("en", "zh"):
        for size in SIZES:
            rng = random.Random(f"{lang}{size}")
            texts = [long_turn(rng, lang == "zh", size, ("mixed", "prose", "log")[i % 3])
                     for i in range(repeat)]
            for mode in MODES:
                set_mode(mode)
                per[mode, lang, size] = (_remember_each(model, texts), texts)
                print(mode, lang, size, [round(t, 2) for t in per[mode, lang, size][0]],
                      flush=True)
    set_mode("best passage")
    rows = []
    for mode in MODES:
        for lang in ("en", "zh"):
            base = None
            for size in SIZES:
                seconds, texts = per[mode, lang, size]
                each = [t / len(x) * 1000 for t, x in zip(seconds, texts, strict=True)]
                base = min(each) if base is None else base
                rows.append({"mode": mode, "lang": lang, "size": size,
                             "chars": round(statistics.mean(len(t) for t in texts)),
                             "s_call": statistics.median(seconds), "best_1k": min(each),
                             "median_1k": statistics.median(each), "ratio": min(each) / base})
    return rows


def _remember_each(model: Any, texts: list[str]) -> list[float]:
    out = []
    with tempfile.TemporaryDirectory() as tmp, \
            engramdb.open(str(Path(tmp) / "cost.db"), embedder=model) as mem:
        mem.remember("warm up the write path once", kind="event")
        for text in texts:
            start = time.perf_counter()
            mem.remember(text, kind="event")
            out.append(time.perf_counter() - start)
    return out


def _cost_line(r: dict[str, Any]) -> str:
    return (f"| {r['mode']} | {r['lang']} | {r['size']} | {r['chars']} | {r['s_call']:.2f} | "
            f"{r['best_1k']:.2f} | {r['median_1k']:.2f} | {r['ratio']:.2f} |")


# ---------------------------------------------------------------- probe

def exact_words(detail: str) -> str:
    """A span of the detail's own words, as a user who remembers them would type it: its 4th to
    10th words (English), its 4th to 16th characters (Chinese)."""
    if _is_zh(detail):
        return detail[3:15]
    return " ".join(detail.split()[3:10])


def probe_corpus() -> tuple[list[str], list[tuple[int, str, bool]]]:
    """The texts to store, and per detail (index of its message, question, cross-language)."""
    rng = random.Random(15)
    texts: list[str] = []
    asks = []
    for i, (lang, detail, question) in enumerate(DETAILS):
        size = PROBE_SIZES[i % len(PROBE_SIZES)]
        body = long_turn(rng, lang == "zh", size, ("mixed", "prose", "log")[i % 3])
        asks.append((len(texts), question, _is_zh(question) != (lang == "zh")))
        asks.append((len(texts), exact_words(detail), None))   # None: by its exact words
        texts.append(_insert(rng, body, detail, lang == "zh"))
    for i in range(20):
        zh = i % 2 == 1
        texts.append(long_turn(rng, zh, rng.choice(PROBE_SIZES[:3]), ("mixed", "log")[i % 2]))
    for i in range(60):
        texts.append(prose(rng, i % 2 == 1, rng.randint(1, 2)))
    return texts, asks


def _is_zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _insert(rng: random.Random, body: str, detail: str, zh: bool) -> str:
    """The detail after a sentence end in the later half (55-90 % of the way in)."""
    lo, hi = int(len(body) * 0.55), int(len(body) * 0.9)
    marks = [i + 1 for i in range(lo, hi) if body[i] in ("。", "\n") or
             (body[i] == "." and i + 1 < len(body) and body[i + 1] == " ")]
    at = rng.choice(marks) if marks else hi
    sep = "" if zh or body[at - 1] == "\n" else " "
    return body[:at] + sep + detail + body[at:]


def probe(mode: str, parts: list[Any], model: Any) -> dict[str, float]:
    set_mode(mode)
    texts, asks = probe_corpus()
    hits: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp, \
            engramdb.open(str(Path(tmp) / "probe.db"), embedder=model) as mem:
        ids = [r.memory.id for r in mem.remember_many([Draft(t, kind="event") for t in texts])]
        for cache in parts:
            cache.save()
        for preset in ("dense", "lexical", None):
            for index, question, cross in asks:
                found = [h.memory.id for h in mem.recall(question, k=5, preset=preset,
                                                         track=False)]
                rank = found.index(ids[index]) + 1 if ids[index] in found else 0
                keys = ("exact",) if cross is None else ("all", "cross" if cross else "same")
                for key in keys:
                    hits.setdefault(f"{preset or 'default'}/{key}", []).append(rank)
    set_mode("best passage")
    out = {}
    for key, ranks in hits.items():
        out[f"{key}/hit@1"] = sum(r == 1 for r in ranks) / len(ranks)
        out[f"{key}/hit@5"] = sum(r >= 1 for r in ranks) / len(ranks)
    return out


def dense_alone(model: Any) -> dict[str, dict[str, float]]:
    """The dense ranking alone, outside the engine (numpy cosines over the same vectors): the
    whole text's vector, the pooled passages' vector, and the best of a memory's passages and
    its pooled vector (what a passage table would give the dense leg)."""
    texts, asks = probe_corpus()
    whole = model.embed_batch(texts)
    got = pooled.embed_passages(model, texts)
    queries = model.embed_batch([q for _, q, _ in asks], query=True)
    best = np.array([[max([float(got.vectors[i] @ q)] +
                          ([] if got.parts[i] is None else (got.parts[i] @ q).tolist()))
                      for i in range(len(texts))] for q in queries])
    out = {}
    for name, scores in (("whole", queries @ whole.T), ("pooled", queries @ got.vectors.T),
                         ("best passage", best)):
        ranks = [int((row > row[index]).sum()) + 1 for row, (index, _, _) in zip(scores, asks,
                                                                                  strict=True)]
        out[name] = {"hit@1": sum(r == 1 for r in ranks) / len(ranks),
                     "hit@5": sum(r <= 5 for r in ranks) / len(ranks)}
    return out


# ---------------------------------------------------------------- report

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("cost", "probe", "all"), default="all")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", default=",".join(MODES),
                        help="the probe's modes, comma-separated (default: all three)")
    parser.add_argument("--out", default=str(HERE / "results" / "long_turns.md"))
    args = parser.parse_args()
    lines = ["# Long turns (bench/long_turns.py)", "",
             f"`PYTHONPATH=src python bench/long_turns.py --part {args.part} "
             f"--repeat {args.repeat}`; default embedder, one thread; "
             f"passage limit {pooled.LIMIT} units (text/passages.py).", ""]
    if args.part in ("cost", "all"):
        model = make_embedder("default", threads=1)
        model.embed_batch(["warm up both models"])
        print(COST_HEAD)
        rows = cost(model, args.repeat)
        print("\n".join(map(_cost_line, rows)))
        lines += ["## Cost of one remember (the turns of each size: best and median)", "",
                  COST_HEAD,
                  "|---|---|---|---|---|---|---|---|", *map(_cost_line, rows), ""]
    if args.part in ("probe", "all"):
        locomo.CACHE = HERE / ".cache" / "long_turns"
        model, parts = locomo.cached_embedder("default")
        keys: list[str] = []
        results = {}
        modes = [m for m in MODES if m in args.modes.split(",")]
        for mode in modes:
            results[mode] = probe(mode, parts, model)
            keys = list(results[mode])
            print(mode, {k: round(v, 3) for k, v in results[mode].items()}, flush=True)
        alone = dense_alone(model)
        for cache in parts:
            cache.save()
        print("dense alone", alone, flush=True)
        lines += ["## Deep detail probe (40 details; 28 same-language, 12 cross-language; "
                  "each also asked by a span of its exact words)", "",
                  "| figure | " + " | ".join(modes) + " |",
                  "|---|" + "---|" * len(modes)]
        lines += [f"| {k} | " + " | ".join(f"{results[m][k]:.3f}" for m in modes) + " |"
                  for k in sorted(keys)]
        lines += ["", "The dense ranking alone, outside the engine (numpy cosines, 40 details):",
                  "", "| vectors | hit@1 | hit@5 |", "|---|---|---|"]
        lines += [f"| {name} | {v['hit@1']:.3f} | {v['hit@5']:.3f} |"
                  for name, v in alone.items()]
        lines.append("")
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

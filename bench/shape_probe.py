"""Probe of supersession by the shape of a fact (issue 13), through the public API only.

For each attribute type of bench/shape_cases.py (none in the slot table), in English and in
Chinese: a chain of three values of one subject, written oldest first, next to the first value
said of a second subject (the same frame: must stay current). Then near-miss pairs (one subject,
two attributes), extensions (an UPDATE expected) and revised procedures.

Figures: current top-1 (the present question's first hit holds the newest value), stale rate
(share of hits that hold a former value of the chain), missed supersessions (former values
still current), false supersessions (texts that must stay current but do not), extension as
update, procedure revised. Cases are split in two halves by type (even / odd line): "tune"
and "held-out"; both are printed.

    PYTHONPATH=src .venv/bin/python bench/shape_probe.py [--embedder default|hashing]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engramdb
from engramdb.testing import FrozenClock

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shape_cases import EXTENSIONS, NEAR_MISS, PROCEDURES, chains, pairs  # noqa: E402

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
START = datetime(2025, 1, 1, tzinfo=UTC)


class _Gone:  # a text a write did not keep (a NOOP): it does not hold as its own memory
    invalid_at = "not stored"


GONE = _Gone()
GATES = {"current_top1": (">=", 0.95), "stale_rate": ("<=", 0.02),
         "false_supersessions": ("<=", 0.02)}


def fill(frame: str, subject: str, value: str) -> str:
    return frame.replace("{s}", subject).replace("{v}", value)


def probe_chains(mem: engramdb.Memory, cases: list[dict[str, object]]) -> dict[str, float]:
    top1 = stale = seen = missed = false = keep = 0
    failures: list[str] = []
    for n, case in enumerate(cases):
        me = mem.scope(user=f"chain{n}")
        frames, values = case["frames"], case["values"]
        s1, s2 = case["subjects"]  # type: ignore[misc]
        other = fill(frames[0], s2, values[0])  # type: ignore[index]
        me.remember(other, kind="fact", at=START)
        texts = [fill(frames[i % len(frames)], s1, v)  # type: ignore[arg-type, index]
                 for i, v in enumerate(values)]  # type: ignore[arg-type]
        for step, text in enumerate(texts):
            me.remember(text, kind="fact", at=START + timedelta(days=30 * (step + 1)))
        state = {r.content: r for r in me.list(include_superseded=True)}
        state = {t: state.get(t, GONE) for t in [other, *texts]}
        missed += sum(1 for t in texts[:2] if state[t].invalid_at is None)
        false += (state[other].invalid_at is not None) + (state[texts[2]].invalid_at is not None)
        keep += 2
        hits = me.recall(fill(case["question"], s1, ""), k=5, track=False)  # type: ignore[arg-type]
        ok = bool(hits) and hits[0].memory.content == texts[2]
        top1 += ok
        stale += sum(1 for h in hits if h.memory.content in texts[:2])
        seen += len(hits)
        if not ok or any(state[t].invalid_at is None for t in texts[:2]):
            top = hits[0].memory.content if hits else "-"
            failures.append(f"{case['type']}/{case['language']}: " + " -> ".join(texts)
                            + f" | top: {top}")
    n = len(cases)
    for line in failures[:12]:
        print("   miss", line)
    return {"current_top1": top1 / n, "stale_rate": stale / max(seen, 1),
            "missed_supersessions": missed / (2 * n), "chain_false_supersessions": false / keep,
            "chains": n}


def probe_pairs(mem: engramdb.Memory, items: list[tuple[str, str]], tag: str,
                kind: str = "fact") -> list[str]:
    """Write each pair into its own scope; the second write's action per pair."""
    actions = []
    for n, (first, second) in enumerate(items):
        me = mem.scope(user=f"{tag}{n}")
        me.remember(first, kind=kind, at=START)
        result = me.remember(second, kind=kind, at=START + timedelta(days=30))
        actions.append(result.action.value)
        if tag.startswith("near") and result.action.value != "add":
            print(f"   false {result.rule}: {first!r} / {second!r}")
        if not tag.startswith("near") and result.action.value not in ("update", "supersede"):
            print(f"   not updated ({result.rule}): {first!r} / {second!r}")
    return actions


def run(embedder: str) -> dict[str, dict[str, float]]:
    all_cases = chains()
    types = list(dict.fromkeys(str(c["type"]) for c in all_cases))
    half = {t: ("tune" if i % 2 == 0 else "held-out") for i, t in enumerate(types)}
    near, ext, proc = pairs(NEAR_MISS), pairs(EXTENSIONS), pairs(PROCEDURES)
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        mem = engramdb.open(Path(folder) / "shape.db", embedder=embedder, clock=FrozenClock(NOW))
        with mem:
            for part in ("tune", "held-out"):
                print(f"-- {part}")
                cases = [c for c in all_cases if half[str(c["type"])] == part]
                figures = probe_chains(mem, cases)
                mine = [p for i, p in enumerate(near) if (i % 2 == 0) == (part == "tune")]
                acts = probe_pairs(mem, mine, f"near{part}")
                figures["near_miss_false_supersessions"] = sum(a != "add" for a in acts) / len(acts)
                figures["false_supersessions"] = (
                    figures["chain_false_supersessions"] * 2 * figures["chains"]
                    + figures["near_miss_false_supersessions"] * len(acts)) / (
                    2 * figures["chains"] + len(acts))
                figures["near_miss_pairs"] = len(acts)
                mine = [p for i, p in enumerate(ext) if (i % 2 == 0) == (part == "tune")]
                acts = probe_pairs(mem, mine, f"ext{part}")
                figures["extension_as_update"] = sum(a == "update" for a in acts) / len(acts)
                mine = [p for i, p in enumerate(proc) if (i % 2 == 0) == (part == "tune")]
                acts = probe_pairs(mem, mine, f"proc{part}", kind="procedure")
                figures["procedure_revised"] = sum(a in ("update", "supersede")
                                                   for a in acts) / len(acts)
                out[part] = figures
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="hashing")
    args = parser.parse_args()
    started = time.perf_counter()
    out = run(args.embedder)
    failed = []
    for part, figures in out.items():
        print(f"{part}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                      for k, v in figures.items()))
        for name, (op, limit) in GATES.items():
            value = figures[name]
            if not (value >= limit if op == ">=" else value <= limit):
                failed.append(f"{part}.{name}={value:.3f} (gate {op} {limit})")
    print(f"{time.perf_counter() - started:.1f} s; embedder {args.embedder}")
    print("FAILED: " + "; ".join(failed) if failed else "all gates pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Questions over a faded store: does an on-topic question wake the memory it asks about, and
does an off-topic one wake nothing? (issue 27, waking; the wake file's controls are eight to ten
per set, this asks hundreds.)

Each store of a relevance file (the behaviour data's and bench/fresh*'s: memories, on-topic
questions with the memory each expects, off-topic questions) is built as the shared scorer's
``run_relevance`` builds it, then left to fade: 30 days a step and a full sleep, at most 24
steps, as ``run_wake`` fades its episodes. Then each on-topic question whose memory is archived
is asked (recall, k=3, track=False, on the faded store): woken if that memory is among the hits;
and each off-topic question: a false wake if any hit is woken.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/wake_questions.py            # the design files
    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/wake_questions.py FILE ...   # these files

Figures: bench/results/wake.md. Not a test."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).parent
SCORER = Path(os.environ.get("ENGRAM_BEHAVIOURS_SCORER",
                             HERE.parent.parent / "shared" / "bench" / "behaviours" / "score.py"))
DESIGN = [SCORER.parent / "relevance.json",
          *(HERE / name / "relevance.json"
            for name in ("fresh", "fresh3", "fresh4", "fresh6", "fresh7", "fresh8", "fresh9"))]
STEP_DAYS, MAX_STEPS, K = 30, 24, 3


def scorer():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("behaviours_score", SCORER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def faded(score, ctx, store: dict, path: str):  # type: ignore[no-untyped-def]
    """Build ``store`` at ``path`` and fade it: (memory id of each case id, layers, the time)."""
    mem, me, clock = ctx.open(path)
    with mem:
        ids = {}
        for i, m in enumerate(store["memories"]):
            clock.set(score.START + timedelta(days=i))
            ids[m["id"]] = me.remember(m["text"], kind=m.get("kind") or "fact").memory.id
        for _ in range(MAX_STEPS):
            clock.advance(days=STEP_DAYS)
            me.sleep(full=True)
            if all(me.get(x).layer.value != "core" for x in ids.values()):
                break
        return ids, {k: me.get(x).layer.value for k, x in ids.items()}, clock.now()


def run(score, ctx, file: Path) -> tuple[int, int, int, int, int, int]:  # type: ignore[no-untyped-def]
    """(archived, memories, on-topic woken, on-topic asked, off-topic waking, off-topic)."""
    out = [0] * 6
    for store in json.loads(file.read_text("utf-8"))["stores"]:
        tmp = tempfile.mkdtemp(prefix="engram-wakeq-")
        try:
            path = os.path.join(tmp, "faded.db")
            ids, layers, then = faded(score, ctx, store, path)
            out[0] += sum(v == "archived" for v in layers.values())
            out[1] += len(layers)
            mem, me, clock = ctx.open(path)
            with mem:
                clock.set(then + timedelta(hours=1))
                for q in store["on_topic"]:
                    if layers.get(q["expect"]) != "archived":
                        continue
                    hits = me.recall(q["q"], k=K, track=False)
                    out[2] += any(h.memory.id == ids[q["expect"]] for h in hits)
                    out[3] += 1
                for q in store["off_topic"]:
                    out[4] += any(h.woken for h in me.recall(q["q"], k=K, track=False))
                    out[5] += 1
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return tuple(out)  # type: ignore[return-value]


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or DESIGN
    score = scorer()
    ctx = score.Ctx("default", False)
    total = [0] * 6
    print("| file | archived | on-topic questions that wake their memory | "
          "off-topic questions that wake something |\n|---|---|---|---|")
    for file in files:
        got = run(score, ctx, file)
        total = [a + b for a, b in zip(total, got, strict=True)]
        print(f"| {file.parent.name} | {got[0]}/{got[1]} | {got[2]}/{got[3]} | {got[4]}/{got[5]} |",
              flush=True)
    print(f"| all | {total[0]}/{total[1]} | {total[2]}/{total[3]} | {total[4]}/{total[5]} |")


if __name__ == "__main__":
    main()

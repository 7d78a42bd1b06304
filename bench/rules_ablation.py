"""What each hand-written extraction rule buys on data the team did not write (the rules
inventory, issue 26).

Every sentence pattern of the rule extractor (write/patterns.py, through write/extract.py's
``_COMPILED``) and every slot rule (write/slots.py ``RULES``) is taken out in turn, and the cases
it decided are run again without it. The cases: the behaviour files' extraction, update chains
and near-miss pairs (../shared/bench/behaviours, written independently of the code) and the
fresh sets written by people who had not read it (bench/fresh, fresh2, fresh3). A case is
"decided" by a rule when the rule was the one that matched one of its sentences (first match
wins, so taking out a rule changes no other case). A case counts as lost when it passed with
the rule and fails without it, won the other way round, judged by the shared scorer's own
functions (a case passes when the scorer reports no failure for it).

    python bench/rules_ablation.py [--embedder hashing] [--only en:diet] [--sets dev,fresh]

Not a test: figures only (bench/results/rules.md)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import engramdb.write.extract as extract  # noqa: E402
import engramdb.write.slots as slots  # noqa: E402

HERE = Path(__file__).resolve().parent
SCORER = HERE.parents[1] / "shared" / "bench" / "behaviours" / "score.py"
SETS = {"dev": SCORER.parent, "fresh": HERE / "fresh", "fresh2": HERE / "fresh2",
        "fresh3": HERE / "fresh3", "fresh5": HERE / "fresh5"}
FILES = {"extraction": ("items", "run_extraction"), "updates": ("chains", "run_updates"),
         "near_misses": ("pairs", "run_near")}


def scorer() -> Any:
    spec = importlib.util.spec_from_file_location("behaviours_score", SCORER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Recorder:
    """The rules that decided each sentence while one case runs."""

    def __init__(self) -> None:
        self.fired: set[str] = set()
        self.classify = extract.classify
        self.extract_slot = slots.extract_slot.__wrapped__  # uncached: the table changes

        def classify(sentence: str) -> Any:
            found = self.classify(sentence)
            if found is not None:
                self.fired.add(found[1])
            return found

        def extract_slot(content: str) -> Any:
            slot = self.extract_slot(content)
            if slot is not None:
                self.fired.add(self.slot_rule(content))
            return slot

        self.table = slots._COMPILED
        extract.classify = classify
        extract.extract_slot = extract_slot
        slots.extract_slot = extract_slot


    def slot_rule(self, content: str) -> str:
        """The slot rule that read ``content``: the first of the table's rules whose prefix
        of the table reads it (a rule may match and still be passed over)."""
        saved = slots._COMPILED
        try:
            for i in range(len(self.table)):
                slots._COMPILED = self.table[: i + 1]
                if self.extract_slot(content) is not None:
                    return slot_name(i)
        finally:
            slots._COMPILED = saved
        return "slot:?"


def slot_name(i: int) -> str:
    attr, pattern, chinese = slots._COMPILED[i]
    return f"slot#{i}:{'zh' if chinese else 'en'}:{attr or 'my X is'}"


@contextmanager
def without(rule: str) -> Iterator[None]:
    """The extractor (or the slot table) with one rule taken out."""
    saved = extract._COMPILED, slots._COMPILED
    if rule.startswith("slot#"):
        at = int(rule[5:].split(":")[0])
        slots._COMPILED = slots._COMPILED[:at] + slots._COMPILED[at + 1:]
    else:
        extract._COMPILED = tuple(r for r in extract._COMPILED if r[1] != rule)
    try:
        yield
    finally:
        extract._COMPILED, slots._COMPILED = saved


def cases(folder: Path) -> Iterator[tuple[str, str, dict, dict]]:
    for name, (key, _) in FILES.items():
        path = folder / f"{name}.json"
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            for case in data[key]:
                yield name, case["id"], case, data


def run_case(score: Any, ctx: Any, name: str, case: dict, data: dict) -> frozenset[str]:
    """The scorer's failures for one case (empty: it passed)."""
    key, runner = FILES[name]
    failures: list[str] = []
    ctx.fail = lambda case_id, why: failures.append(why)
    score.load = lambda _: {**data, key: [case]}
    getattr(score, runner)(ctx)
    return frozenset(failures)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--embedder", default="default")
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--only", action="append", help="one rule id (repeatable)")
    args = p.parse_args()
    score = scorer()
    ctx = score.Ctx(args.embedder, False)
    rec = Recorder()
    chosen = [s for s in args.sets.split(",") if s]
    base: dict[tuple[str, str, str], frozenset[str]] = {}
    decided: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    runs: dict[tuple[str, str, str], Callable[[], frozenset[str]]] = {}
    for set_name in chosen:
        for name, case_id, case, data in cases(SETS[set_name]):
            key = (set_name, name, case_id)
            rec.fired = set()
            runs[key] = (lambda c=case, d=data, n=name: run_case(score, ctx, n, c, d))
            base[key] = runs[key]()
            for rule in rec.fired:
                decided[rule].append(key)
    rules = [r for _, r, _ in extract._COMPILED]
    rules = [*dict.fromkeys(rules), *(slot_name(i) for i in range(len(slots._COMPILED)))]
    print(f"| rule | cases it decides ({', '.join(chosen)}) | lost without it | won without it |"
          " lost, by set |\n|---|---:|---:|---:|---|")
    for rule in args.only or rules:
        keys = decided.get(rule, [])
        lost, won = [], []
        with without(rule):
            for key in keys:
                after = runs[key]()
                if not base[key] and after:
                    lost.append(key)
                elif base[key] and not after:
                    won.append(key)
        by_set = defaultdict(int)
        for set_name, _, _ in lost:
            by_set[set_name] += 1
        where = ", ".join(f"{s} {n}" for s, n in sorted(by_set.items())) or "-"
        print(f"| `{rule}` | {len(keys)} | {len(lost)} | {len(won)} | {where} |", flush=True)
        for key in lost + won:
            print(f"  {'lost' if key in lost else 'won'}: {'/'.join(key)}", file=sys.stderr)


if __name__ == "__main__":
    main()

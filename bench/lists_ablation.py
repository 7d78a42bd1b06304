"""What each hand-written word list of the decision path buys on data the team did not write
(the rules inventory, issues 26 and 27; bench/results/rules.md).

For each list below, a copy of this checkout's committed code (``git archive HEAD``) has that one
list emptied (a regular expression: one that never matches), and the shared scorer
(../shared/bench/behaviours/score.py) and bench/fresh_score.py run on it over the design sets:
the dev files and the fresh sets not held out (fresh10, fresh13, fresh14 and fresh15 are held
out and are not read here). The figures are summed over the sets, as the scorer counts them.

    python bench/lists_ablation.py                  # every list, then the code as committed
    python bench/lists_ablation.py --only cues_en   # one list (repeatable)

Not a test: figures only. About 90 s of two cores per list."""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCORER = ROOT.parent / "shared" / "bench" / "behaviours" / "score.py"
DESIGN = ("fresh", "fresh2", "fresh3", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9",
          "fresh11", "fresh12")
FILES = ("updates", "near_misses", "relevance", "wake")
EMPTY, NEVER = "frozenset()", 're.compile(r"(?!)")'
# label -> (module under src/engramdb, the name, what replaces it)
LISTS = {
    "cues_en": ("write/align.py", "CUES_EN", EMPTY),
    "cues_zh": ("write/align.py", "CUES_ZH", EMPTY),
    "en_verbs": ("write/align.py", "EN_VERBS", EMPTY),
    "mood_plan": ("write/reading.py", 'MOODS["plan"]', EMPTY),
    "mood_past": ("write/reading.py", 'MOODS["past"]', EMPTY),
    "mood_passing": ("write/reading.py", 'MOODS["passing"]', EMPTY),
    "mood_more": ("write/reading.py", 'MOODS["more"]', EMPTY),
    "relations": ("write/reading.py", "RELATIONS", EMPTY),
    "occasion": ("write/reading.py", "_OCCASION", NEVER),
    "usual": ("recall/nearpair.py", "USUAL", EMPTY),
    "past": ("recall/temporal.py", "_PAST", NEVER),
    "now": ("recall/temporal.py", "_NOW", NEVER),
    "neg_en": ("write/align.py", "NEG_EN", EMPTY),
    "neg_zh": ("write/align.py", "NEG_ZH", EMPTY),
    "date_words": ("write/align.py", "DATE_WORDS", EMPTY),
    "number_words": ("write/align.py", "NUMBER_WORDS", EMPTY),
    "units": ("write/align.py", "UNITS", EMPTY),
    "zh_time": ("write/align.py", "ZH_TIME", NEVER),
    "zh_unit_chars": ("write/align.py", "ZH_UNIT_CHARS", EMPTY),
    "copulas": ("write/align.py", "COPULAS", EMPTY),
    "prepositions": ("write/align.py", "PREPOSITIONS", EMPTY),
    "zh_neg": ("write/reading.py", "_ZH_NEG", EMPTY),
    "from": ("write/reading.py", "_FROM", EMPTY),
    "new_state": ("write/align.py", "NEW_STATE", NEVER),
    "first_person": ("recall/conflicts.py", "FIRST_PERSON", EMPTY),
    "asks": ("recall/asked.py", "_ASKS", "()"),
}
KEYS = ("current_top1", "stale_above_current", "previous_top3", "both_current_and_top1",
        "on_topic_hit@3", "off_topic_abstained", "woken[exact]", "woken[paraphrase]",
        "woken[cross_lingual]", "false_wakes")
_FIGURE = re.compile(r"\s*([\w@\[\]]+):?\s.*\((\d+)/(\d+)\)")


def emptied(path: Path, name: str, value: str) -> None:
    """Replace the module-level ``name`` (or, for ``D["k"]``, set that key just after ``D``)."""
    lines = path.read_text("utf-8").split("\n")
    base = name.split("[")[0]
    for node in ast.parse("\n".join(lines)).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target",
                                                                               None)
        if isinstance(target, ast.Name) and target.id == base:
            assert node.end_lineno is not None
            if "[" in name:
                lines.insert(node.end_lineno, f"{name} = {value}")
            else:
                lines[node.lineno - 1:node.end_lineno] = [f"{name} = {value}"]
            path.write_text("\n".join(lines), "utf-8")
            return
    raise SystemExit(f"{name} not found in {path}")


def score(code: Path) -> Counter[str]:
    """The design sets' figures for the code under ``code``, summed."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(code / "src")}
    runs = [[sys.executable, str(SCORER), *sum((["--only", f] for f in FILES), [])]]
    for name in DESIGN:
        there = [f for f in FILES if (code / "bench" / name / f"{f}.json").is_file()]
        if there:
            runs.append([sys.executable, str(code / "bench" / "fresh_score.py"), "--dir",
                         str(code / "bench" / name), *sum((["--only", f] for f in there), [])])
    with ThreadPoolExecutor(3) as pool:
        outs = list(pool.map(lambda cmd: subprocess.run(cmd, cwd=code, env=env, text=True,
                                                         capture_output=True).stdout, runs))
    total: Counter[str] = Counter()
    for line in "\n".join(outs).splitlines():
        m = _FIGURE.match(line)
        if m and m.group(1) in KEYS:
            total[m.group(1) + "/n"] += int(m.group(3))
            total[m.group(1)] += int(m.group(2))
    return total


def copies(labels: list[str]) -> Iterator[tuple[str, Path]]:
    """Each label, then "(as committed)", with a fresh copy of this checkout's committed src/
    and bench/ (``git archive HEAD``), removed once the next is asked for."""
    archive = subprocess.run(["git", "archive", "HEAD", "src", "bench"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    for label in [*labels, "(as committed)"]:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            yield label, Path(tmp)


def cells(got: Counter[str]) -> list[str]:
    """The figures of ``score`` as "n/total", in KEYS's order."""
    return [f"{got[k]}/{got[k + '/n']}" for k in KEYS]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", action="append", choices=sorted(LISTS))
    args = p.parse_args()
    print("| list | " + " | ".join(KEYS) + " |\n|---|" + "---:|" * len(KEYS))
    for label, code in copies(args.only or list(LISTS)):
        if label in LISTS:
            module, name, value = LISTS[label]
            emptied(code / "src" / "engramdb" / module, name, value)
        print(f"| {label} | " + " | ".join(cells(score(code))) + " |", flush=True)


if __name__ == "__main__":
    main()

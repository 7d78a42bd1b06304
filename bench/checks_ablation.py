"""What each decision mechanism of the write and recall paths buys on data the team did not
write (the rules inventory, issues 26 and 27; bench/results/rules.md).

bench/lists_ablation.py empties the word lists; this switches off whole checks. For each one
below, a copy of this checkout's committed code (``git archive HEAD``) has that one function's
body replaced by what it returns when it decides nothing (``return None``, ``return []``, the
hits unchanged...), and the shared scorer and bench/fresh_score.py run on it over the design
sets (lists_ablation.py ``score``: the dev files and the fresh sets not held out). The figures
are summed over the sets, as the scorer counts them.

    python bench/checks_ablation.py                  # every check, then the code as committed
    python bench/checks_ablation.py --only ended     # one check (repeatable)
    python bench/checks_ablation.py --state          # and what the write path leaves current

``--state`` adds bench/chain_state.py's count: the remembered chains that end with their
previous value superseded (the scorer reads the recall's order, which the recall-time net puts
right for many pairs the write path leaves side by side).

Not a test: figures only. About 90 s of two cores per check."""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

from lists_ablation import HERE, KEYS, cells, copies, score

# label -> (module under src/engramdb, function ("Class.method" for a method), its new body)
CHECKS = {
    # the write path's decisions (write/supersede.py ``_judge``, in its order)
    "split_apart": ("write/tripledecide.py", "split_apart", "return list(current), [], {}"),
    "shape": ("write/shape.py", "shape_decision", "return None"),
    "triple": ("write/tripledecide.py", "triple_decision", "return None"),
    "ended": ("write/supersede.py", "_ended", "return None"),
    "changed_value": ("write/supersede.py", "_changed_value", "return None"),
    "near_duplicate": ("write/supersede.py", "_near_duplicate", "return None"),
    # the recall path's orderings and judgements
    "conflicts": ("recall/conflicts.py", "order_conflicts", "return []"),
    "for_a_while": ("recall/conflicts.py", "for_a_while", "return False"),
    "restated": ("recall/restated.py", "restated", "return False"),
    "change_meaning": ("recall/changemeaning.py", "book_for", "return None"),
    "near_order": ("recall/nearpair.py", "order_near", "return []"),
    "meaning_vote": ("recall/rerank.py", "meaning_vote", "return top"),
    "slot_cue": ("recall/slotcue.py", "slot_factor", "return 1.0"),
    "mixed_rank": ("recall/mixedrank.py", "mixed_rank", "return hits"),
    "collapse": ("recall/collapse.py", "collapse", "return hits"),
    "earlier": ("recall/earlier.py", "book_for", "return None"),
    "unanswered": ("recall/asked.py", "unanswered", "return None"),
    "worldly": ("recall/worldly.py", "book_for", "return None"),
}


def switched_off(path: Path, name: str, body: str) -> None:
    """Replace the body of function ``name`` (``Class.method`` for a method) with ``body``,
    its docstring kept out."""
    lines = path.read_text("utf-8").split("\n")
    nodes: list[ast.stmt] = ast.parse("\n".join(lines)).body
    *owners, fn = name.split(".")
    for owner in owners:
        nodes = next(n.body for n in nodes if isinstance(n, ast.ClassDef) and n.name == owner)
    found = next((n for n in nodes if isinstance(n, ast.FunctionDef) and n.name == fn), None)
    if found is None:
        raise SystemExit(f"{name} not found in {path}")
    first, last = found.body[0], found.body[-1]
    assert last.end_lineno is not None
    indent = " " * first.col_offset
    lines[first.lineno - 1:last.end_lineno] = [indent + body]
    path.write_text("\n".join(lines), "utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", action="append", choices=sorted(CHECKS))
    p.add_argument("--state", action="store_true", help="add bench/chain_state.py's count")
    args = p.parse_args()
    keys = [*KEYS, "state"] if args.state else list(KEYS)
    print("| check off | " + " | ".join(keys) + " |\n|---|" + "---:|" * len(keys))
    for label, code in copies(args.only or list(CHECKS)):
        if label in CHECKS:
            module, name, body = CHECKS[label]
            switched_off(code / "src" / "engramdb" / module, name, body)
        row = cells(score(code))
        if args.state:
            env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(code / "src")}
            out = subprocess.run([sys.executable, str(HERE / "chain_state.py")], cwd=HERE,
                                 env=env, text=True, capture_output=True).stdout
            row.append(out.strip().rsplit(" ", 1)[-1])
        print(f"| {label} | " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()

"""What the write path leaves current: of the update chains said through ``remember`` in the
design sets (the shared dev file and the fresh sets not held out), how many end with every
memory holding the previous value superseded and the last statement current.

The shared scorer reads the recall's order, which the recall-time net (recall/conflicts.py)
puts right for many pairs the write path left side by side; what ``list()``, ``context()``, an
export or a mem0 ``get_all`` show is the stored state, counted here. Chains said through
``ingest`` are left out: what is extracted from a conversation is not superseded at write
(write/supersede.py ``_changed_value``).

    python bench/chain_state.py            # the code on PYTHONPATH
    python bench/chain_state.py --verbose  # and each chain that does not end so

Not a test: figures only (bench/results/rules.md)."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import engramdb  # noqa: E402
from engramdb.testing import FrozenClock  # noqa: E402
from lists_ablation import DESIGN, HERE, SCORER  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)   # the shared scorer's


def has(text: str, value: str) -> bool:
    return value.lower() in text.lower()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    files = [SCORER.parent / "updates.json", *(HERE / name / "updates.json" for name in DESIGN)]
    ok = n = 0
    clock = FrozenClock(START)
    with tempfile.TemporaryDirectory() as tmp, \
            engramdb.open(Path(tmp) / "chains.db", clock=clock) as mem:
        for path in (f for f in files if f.is_file()):
            for chain in json.loads(path.read_text("utf-8"))["chains"]:
                if chain["via"] != "remember":
                    continue
                n += 1
                scope = mem.scope(user=f"chain{n}", agent="bench")
                for i, said in enumerate(chain["statements"]):
                    clock.set(START + timedelta(days=said["day"], minutes=i))
                    scope.remember(said["text"], kind=chain.get("kind") or "fact")
                kept = list(scope.list(include_superseded=True))
                last = chain["statements"][-1]["text"]
                now = [r for r in kept if r.content == last]
                before = [r for r in kept if has(r.content, chain["previous"])
                          and not has(r.content, chain["current"])]
                good = bool(now) and now[0].invalid_at is None and bool(before) \
                    and all(r.invalid_at is not None for r in before)
                ok += good
                if args.verbose and not good:
                    print(f"  {chain['id']}: current {[r.content[:50] for r in kept if r.current]}")
    print(f"remembered chains ending with the previous value superseded: {ok}/{n}")


if __name__ == "__main__":
    main()

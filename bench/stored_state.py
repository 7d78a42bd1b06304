"""What the store holds after each update chain, not what recall ranks first.

For each ``remember`` chain of a behaviours-format updates file (../shared/bench/behaviours,
bench/fresh*): the chain's statements are remembered in order into a fresh in-memory store (a
FrozenClock moved to each statement's day), then the current (not superseded) memories are
listed, events excluded:

- **current held**: a current memory holds the current value;
- **previous is history**: no current memory holds the previous value without the current one
  (the old value was superseded, or merged into the memory that states the new one).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/stored_state.py FILE [FILE ...]
        [--half design|held] [--embedder default] [--verbose]

``--half``: only the chains of one half of the dev data, split by the hash of
bench/behaviours_half.py ``in_half``. ``--verbose``: each chain whose previous value stays
current, with the current memories that hold it."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engramdb
from engramdb.registry import make_embedder
from engramdb.testing import FrozenClock

sys.path.insert(0, str(Path(__file__).resolve().parent))
from behaviours_half import HALVES, in_half  # noqa: E402

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def has(text: str, value: str) -> bool:
    return value.lower() in text.lower()


def stored(chain: dict, model: object) -> list[str]:
    """The current memories (not events) after remembering the chain."""
    clock = FrozenClock(START)
    with engramdb.open(":memory:", embedder=model, clock=clock) as mem:
        s = mem.scope(user="u", agent="a")
        for i, st in enumerate(chain["statements"]):
            clock.set(START + timedelta(days=st["day"], minutes=i))
            s.remember(st["text"], kind=chain.get("kind") or "fact")
        return [r.content for r in s.list(include_superseded=False) if r.kind.value != "event"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--half", choices=sorted(HALVES))
    ap.add_argument("--embedder", default="default")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    model = make_embedder(args.embedder, threads=1)
    for path in args.files:
        chains = [c for c in json.loads(path.read_text(encoding="utf-8"))["chains"]
                  if c["via"] == "remember"
                  and (args.half is None or in_half(c["id"], HALVES[args.half]))]
        held = history = 0
        for c in chains:
            live = stored(c, model)
            held += any(has(t, c["current"]) for t in live)
            stale = [t for t in live if has(t, c["previous"]) and not has(t, c["current"])]
            history += not stale
            if stale and args.verbose:
                print(f"  {c['id']}: {c['previous']!r} current in {stale}")
        n = len(chains) or 1
        half = f" ({args.half} half)" if args.half else ""
        print(f"{path}{half}: remember chains {len(chains)}, current held {held}, "
              f"previous is history {history} ({history / n:.1%})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Score engramdb on fresh behaviour cases, with the shared scorer's own functions.

The cases in bench/fresh/ (updates, near_misses, relevance, wake; and extraction, written later
the same day, README-extraction.md) were written on 2026-12-04 by someone who had not read
engramdb's code, its tests or its other benchmarks: only the data README and score.py in
/work/shared/bench/behaviours/. They use new
wordings, domains and names, so they serve as a held-out check on the development data there.

    python bench/fresh_score.py --embedder hashing
    python bench/fresh_score.py --only updates --only wake --verbose
    python bench/fresh_score.py --dir bench/fresh2   # the second set (bench/fresh2/README.md)
    python bench/fresh_score.py --dir bench/fresh3   # the third (bench/fresh3/README.md)

This script imports that score.py by path, replaces its `load` so it reads bench/fresh/<name>.json,
limits its file list to the five files written here, and runs its `main` (which takes
--embedder, --only and --verbose as usual)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

SCORER = Path(os.environ.get("ENGRAM_BEHAVIOURS_SCORER",
                             "/work/shared/bench/behaviours/score.py"))
FRESH = Path(__file__).resolve().parent / "fresh"
FILES = ("updates", "near_misses", "relevance", "wake", "extraction")


def load(name: str) -> dict:
    with open(FRESH / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


def folder() -> None:
    """``--dir D`` (taken out of the arguments before the scorer reads them): read the cases
    from D; only its files run."""
    global FRESH, FILES
    if "--dir" in sys.argv:
        at = sys.argv.index("--dir")
        FRESH = Path(sys.argv[at + 1]).resolve()
        del sys.argv[at:at + 2]
        FILES = tuple(name for name in FILES if (FRESH / f"{name}.json").is_file())


def scorer():
    spec = importlib.util.spec_from_file_location("behaviours_score", SCORER)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the scorer at {SCORER}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    mod.load = load  # the run_* functions look `load` up in the module at call time
    mod.FILES = FILES  # main() reads FILES for --only's choices and the default run
    mod.__doc__ = __doc__  # so --help describes this script
    return mod


def main() -> int:
    folder()
    return scorer().main()


if __name__ == "__main__":
    sys.exit(main())

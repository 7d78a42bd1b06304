"""MEMORY.md migration figures: what a messy, hand-kept memory file becomes. Prints; not a test.

    .venv/bin/python bench/memory_md.py                      # tests/data/messy_memory.md
    .venv/bin/python bench/memory_md.py PATH [--today YYYY-MM-DD]

Migrates PATH (a file or a folder) into a fresh database on a frozen clock (default
2026-03-01, the day the fixture was written, so its TEMP expiries and due dates read as they
were meant), then exports the zoned MEMORY.md and prints: entries and characters before,
memories, zones and characters after (the exported file), duplicates merged, problems, and
memories per zone and kind.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import engramdb
from engramdb.io.markdown import ZONES, zone_of
from engramdb.testing import FrozenClock

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "data" / "messy_memory.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(FIXTURE))
    parser.add_argument("--today", default="2026-03-01")
    args = parser.parse_args()
    clock = FrozenClock(datetime.fromisoformat(args.today).replace(hour=12, tzinfo=UTC))
    with tempfile.TemporaryDirectory() as tmp, engramdb.open(
            Path(tmp) / "m.db", embedder="hashing", clock=clock) as mem:
        plan = mem.migrate(args.path)
        exported = mem.export_memory_md()
        records = list(mem.list())
    print(f"source: {args.path} ({', '.join(plan.sources)})")
    print(f"before: {plan.entries_before} entries, {plan.chars_before:,} characters")
    print(f"after:  {len(records)} memories in {len(ZONES)} zones, {len(exported):,} characters "
          f"of MEMORY.md ({len(exported) / plan.chars_before:.0%} of before)")
    print(f"merged duplicates: {plan.duplicates}; problems: {len(plan.problems)}; "
          f"writes: {plan.actions}")
    zones = Counter(zone_of(r) for r in records)
    print("per zone: " + ", ".join(f"{z} {zones[z]}" for z in ZONES))
    print("per kind: " + ", ".join(f"{k} {n}" for k, n in Counter(
        r.kind.value for r in records).most_common()))
    for problem in plan.problems:
        print(f"  problem: {problem}")


if __name__ == "__main__":
    main()

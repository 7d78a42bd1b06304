"""The CLI's tables as an 80-column terminal shows them (issue 30): `recall` (an English and a
Chinese query, and -v), `list`, `history` of a fact that changed twice, `status` and the grouped
`--help`, on a store of English and Chinese memories written a few minutes apart (a frozen
clock in March 2026; the CLI reads them with today's clock, hence "... months ago") and a short
conversation ingested after them (its turns share a millisecond).

    .venv/bin/python bench/cli_80cols.py                       # prints the tables
    .venv/bin/python bench/cli_80cols.py --out bench/results/cli_80cols.txt

Not a test (tests/test_cli_tables.py checks the layouts at 80 and 120 columns): a record of
what a person sees. The default embedder, as a user has it (``--embedder hashing`` is quicker).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

import engramdb
from engramdb.cli import app
from engramdb.testing import FrozenClock

MEMORIES = [
    ("I moved to Hamburg last spring for the new job at the harbour office", "fact"),
    ("我喜欢喝绿茶，尤其是西湖龙井，每天早上都要泡一壶", "preference"),
    ("Anna and I went hiking in the Alps last weekend; the weather was perfect", "event"),
    ("上周和李雷在北京吃了烤鸭，他说明年要去上海工作", "event"),
    ("Never deploy on a Friday afternoon", "rule"),
    ("I live in Berlin now", "fact"),
    ("我现在住在上海", "fact"),
]
CHAT = [{"role": "user", "content": "我下周要去上海出差，帮我记得订酒店"},
        {"role": "assistant", "content": "好的，我会提醒你。"},
        {"role": "user", "content": "Also, my manager is Priya Nair now, since the reorg."}]
COMMANDS = [
    ["recall", "where do I live now?", "--no-track"],
    ["recall", "喝什么茶", "--no-track"],
    ["recall", "hiking with Anna", "--no-track", "-v"],
    ["list"],
    ["history", "{home}"],
    ["status"],
    ["--help"],
]


def build(folder: Path, embedder: str) -> dict[str, str]:
    clock = FrozenClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    ids: dict[str, str] = {}
    with engramdb.open(folder / "memory.db", embedder=embedder, clock=clock) as mem:
        for text, kind in MEMORIES:
            ids[text] = mem.remember(text, kind=kind, importance=0.65).memory.id
            clock.advance(minutes=3)
        mem.ingest(CHAT, session="chat-1")   # turns written in one millisecond: 12-character ids
    return {"home": ids["I moved to Hamburg last spring for the new job at the harbour office"]}


def main(argv: list[str] | None = None) -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--out", type=Path, help="also write the text here")
    args.add_argument("--embedder", default="default")
    opts = args.parse_args(argv)
    out = opts.out.resolve() if opts.out else None
    blocks = []
    with tempfile.TemporaryDirectory() as tmp:
        names = build(Path(tmp), opts.embedder)
        os.chdir(tmp)
        env = {"COLUMNS": "80", "NO_COLOR": "1", "ENGRAMDB_EMBEDDER": opts.embedder}
        for command in COMMANDS:
            argv_ = [part.format(**names) for part in command]
            done = CliRunner().invoke(app, ["--db", "memory.db", *argv_], env=env)
            shown = "\n".join(line.rstrip() for line in done.stdout.splitlines())
            words = " ".join(f'"{a}"' if " " in a else a for a in argv_)
            blocks.append(f"$ engramdb {words}\n{shown}\n")
            if done.exit_code != 0:
                sys.exit(f"{words}: exit {done.exit_code}\n{done.stderr}")
    text = "\n".join(blocks)
    print(text)
    if out:
        out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

"""The main job on the embedded default: remember a multi-session conversation (English and
Chinese) in a SQLite file, recall answers with their explanations, print a short status.

    make demo            # or: python examples/demo.py [--db demo.db] [--embedder hashing]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

import engramdb
from engramdb import Draft

HERE = Path(__file__).resolve().parent


def load_drafts(sample: dict) -> list[Draft]:
    drafts = []
    for number, session in enumerate(sample["sessions"], start=1):
        when = datetime.fromisoformat(session["date"])
        for i, turn in enumerate(session["turns"]):
            drafts.append(Draft(
                content=f"{turn['speaker']}: {turn['text']}", kind="event", at=when,
                people=[turn["speaker"]], session=f"S{number}", turn=str(i),
                metadata={"session": number, "turn": i},
            ))
    return drafts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--db", default="demo-memory.db")
    ap.add_argument("--embedder", default="default")
    args = ap.parse_args()
    console = Console()
    sample = json.loads((HERE / "sample_conversation.json").read_text(encoding="utf-8"))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(args.db + suffix):
            os.remove(args.db + suffix)

    with engramdb.open(args.db, embedder=args.embedder) as mem:
        me = mem.scope(user=sample["user"], agent=sample["agent"])
        started = time.perf_counter()
        results = me.remember_many(load_drafts(sample))
        me.remember("Maya", kind="identity", uri="core://user/name")
        me.remember("Vegetarian: never suggest meat-based restaurants", kind="preference",
                    uri="knowledge://user/diet")
        console.print(f"[bold]Remembered[/] {len(results)} turns in "
                      f"{time.perf_counter() - started:.1f}s into {args.db}\n")
        for fact, when in (("Our stack is Java 8", "2026-01-10T19:30:00+00:00"),
                           ("Our stack is Java 21", "2026-02-14T09:00:00+00:00"),
                           ("Maya lives in Lisbon", "2026-01-10T19:30:00+00:00"),
                           ("Maya lives in Berlin", "2026-05-02T18:45:00+00:00")):
            r = me.remember(fact, kind="fact", at=datetime.fromisoformat(when))
            console.print(f"remember {fact!r}: [bold]{r.action.value}[/] ({r.rule})")
        console.print()
        for question in sample["questions"]:
            hits = me.recall(question, k=3)
            table = Table(title=question, show_lines=False, title_justify="left")
            table.add_column("score", justify="right")
            table.add_column("memory")
            table.add_column("why", style="dim")
            for hit in hits:   # why: one line a person reads; every term: hit.explanation
                table.add_row(f"{hit.score:.3f}", hit.memory.content, hit.why)
            if hits.abstained:
                table.add_row("-", f"(abstained: {hits.note})", "")
            console.print(table)
        stats = me.stats()
        console.print(f"\n[bold]Status[/]: {stats.total} memories "
                      f"({', '.join(f'{k} {v}' for k, v in stats.by_kind.items())}), "
                      f"{stats.events} events, file {stats.path}", soft_wrap=True)
        console.print(f"[bold]Embedder[/]: {stats.embedder}", soft_wrap=True)


if __name__ == "__main__":
    main()

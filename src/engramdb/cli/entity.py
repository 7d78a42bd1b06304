"""The entity page at the CLI: what the memory holds about one person, place, project or topic
(recall/entity.py); and the facts' subject-predicate-object triples (recall/triples.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .guard import guarded, open_memory
from .options import Door, command
from .render import emit, out, records_table, when

commands = typer.Typer()


@command(commands)
def entity(
    d: Door,
    name: Annotated[str, typer.Argument(help="A person, place, project or topic, as the "
                                        "memories name it.")],
) -> None:
    """Everything remembered about NAME: its aliases, first and last seen, the facts that hold
    now, recent episodes and each chain of superseded values."""
    with guarded(d), open_memory(d) as mem:
        page = mem.entity(name)
        if d.json:
            emit(page.to_dict())
            return
        console = out()
        names = mem.abbreviate([r.id for r in (*page.facts, *page.episodes)])
        console.print(Text(f"{page.name} ({', '.join(page.kinds) or 'named in text'}): "
                           f"{page.memories} memories, first seen {when(page.first_seen)}, "
                           f"last seen {when(page.last_seen)}"))
        console.print(Text(f"aliases: {', '.join(page.aliases) or 'none'}"))
        if page.facts:
            console.print(Text("facts now:"))
            console.print(records_table(page.facts, False, names))
        for fact in page.triples:
            t = fact.triple
            console.print(Text(f"  ({t.subject}) -[{t.predicate}]-> ({t.object})  "
                               f"{names.get(fact.memory_id, fact.memory_id)}"))
        if page.episodes:
            console.print(Text("episodes, newest first:"))
            console.print(records_table(page.episodes, False, names))
        for chain in page.history:
            console.print(Text("changed: " + " -> ".join(r.content for r in chain)))


@command(commands)
def triples(
    d: Door,
    memory: Annotated[str | None, typer.Argument(help="Only this memory's (an id, a prefix "
                                                 "of one, or a URI).")] = None,
    subject: Annotated[str | None, typer.Option(help="Only this subject: user, or the words "
                                                "that name another (parents).")] = None,
    predicate: Annotated[str | None, typer.Option(help="Only this predicate (live in).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Also those of facts that no longer "
                                       "hold (superseded).")] = False,
    limit: Annotated[int, typer.Option(help="At most this many (1-1000).")] = 100,
) -> None:
    """The subject-predicate-object triples read from the facts, the newest first."""
    with guarded(d), open_memory(d) as mem:
        found = mem.triples(memory, subject=subject, predicate=predicate, current=not all_,
                            limit=limit)
        if d.json:
            emit({"triples": [f.to_dict() for f in found]})
            return
        console = out()
        names = mem.abbreviate([f.memory_id for f in found])
        for f in found:
            t = f.triple
            mark = "" if f.current else "  (no longer holds)"
            console.print(Text(f"{names.get(f.memory_id, f.memory_id)}  ({t.subject}) "
                               f"-[{t.predicate}]-> ({t.object}){mark}"))
        if not found:
            console.print(Text("no triples"))

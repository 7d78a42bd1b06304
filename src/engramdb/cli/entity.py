"""The entity page at the CLI: what the memory holds about one person, place, project or topic
(recall/entity.py)."""

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
        if page.episodes:
            console.print(Text("episodes, newest first:"))
            console.print(records_table(page.episodes, False, names))
        for chain in page.history:
            console.print(Text("changed: " + " -> ".join(r.content for r in chain)))

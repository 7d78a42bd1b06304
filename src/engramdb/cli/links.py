"""Associations between memories (recall/graph.py): link, unlink, links, related, path."""

from __future__ import annotations

from typing import Annotated

import typer

from .guard import guarded, open_memory
from .options import Door, IdOrUri, command
from .render import (
    emit,
    links_table,
    out,
    path_hits,
)

commands = typer.Typer()


@command(commands)
def link(
    d: Door,
    source: Annotated[str, typer.Argument(metavar="A", help="Memory id or URI the link leaves.")],
    target: Annotated[str, typer.Argument(metavar="B", help="Memory id or URI it reaches.")],
    relation: Annotated[str, typer.Option(
        metavar="RELATION", help="related, caused, reminds, evolved, contradicts, supersedes, "
        "gist_of, derived_from, associated.")] = "related",
    weight: Annotated[float, typer.Option(metavar="W", help="From 0 to 1.")] = 0.5,
) -> None:
    """Link memory A to memory B ("A caused B"); linking again sets the weight."""
    with guarded(d), open_memory(d) as mem:
        made = mem.link(source, target, relation=relation, weight=weight)
        if d.json:
            emit(made.to_dict())
        else:
            out().print(f"linked {made.source} {made.relation} {made.target} "
                        f"(weight {made.weight:.2f})")


@command(commands)
def unlink(
    d: Door,
    source: Annotated[str, typer.Argument(metavar="A", help="Memory id or URI.")],
    target: Annotated[str, typer.Argument(metavar="B", help="Memory id or URI.")],
    relation: Annotated[str | None, typer.Option(
        metavar="RELATION", help="Only links of this relation (default: all).")] = None,
) -> None:
    """Remove the links between A and B, both ways."""
    with guarded(d), open_memory(d) as mem:
        removed = mem.unlink(source, target, relation=relation)
        if d.json:
            emit({"removed": removed})
        else:
            out().print(f"removed {removed} link(s)")


@command(commands, "links")
def links_cmd(
    d: Door,
    id_or_uri: IdOrUri,
) -> None:
    """List every link from or to a memory."""
    with guarded(d), open_memory(d) as mem:
        found = mem.links(id_or_uri)
        if d.json:
            emit([x.to_dict() for x in found])
        else:
            ids = [i for x in found for i in (x.source, x.target)]
            out().print(links_table(found, mem.abbreviate(ids)))


@command(commands)
def related(
    d: Door,
    id_or_uri: IdOrUri,
    hops: Annotated[int, typer.Option(metavar="N", help="Links away, 1 to 3.")] = 2,
) -> None:
    """Memories linked to this one (both ways), strongest path first."""
    with guarded(d), open_memory(d) as mem:
        hits = mem.related(id_or_uri, hops=hops)
        path_hits(hits, d.json, mem.abbreviate([h.memory.id for h in hits]))


@command(commands)
def path(
    d: Door,
    uri: Annotated[str, typer.Argument(metavar="URI", help="A URI, or a prefix ending in /.")],
    hops: Annotated[int, typer.Option(metavar="N", help="Then links away, 0 to 3.")] = 0,
) -> None:
    """The memory at URI (or every memory under a prefix), then what is linked to it."""
    with guarded(d), open_memory(d) as mem:
        hits = mem.recall_path(uri, hops=hops)
        path_hits(hits, d.json, mem.abbreviate([h.memory.id for h in hits]))

"""The `engramdb update`, `engramdb sources` and `engramdb procedure triggered` commands
(registered on cli.app): the verbs the other doors had and the CLI lacked. Thin like the rest
of the CLI: parse, call one Memory verb, render."""

from __future__ import annotations

from typing import Annotated

import typer

from .cli import (
    Agent,
    AsJson,
    Db,
    EmbedderName,
    User,
    app,
    door,
    emit,
    guarded,
    open_memory,
    opt_json,
    opt_time,
    out,
    procedure_app,
    read_text,
    record_table,
    records_table,
    show_procedure,
)

Names = Annotated[list[str] | None, typer.Option(metavar="NAME", help="Repeatable; replaces "
                                                 "the list.")]


@app.command()
def update(
    ctx: typer.Context,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A memory id.")],
    content: Annotated[str | None, typer.Option(
        metavar="TEXT", help="The new content; '-' reads it from stdin.")] = None,
    kind: Annotated[str | None, typer.Option(metavar="KIND")] = None,
    uri: Annotated[str | None, typer.Option(metavar="URI")] = None,
    importance: Annotated[float | None, typer.Option(metavar="0..1")] = None,
    metadata: Annotated[str | None, typer.Option(
        metavar="JSON", help="A JSON object; replaces the metadata.")] = None,
    people: Names = None, places: Names = None, topics: Names = None,
    at: Annotated[str | None, typer.Option(
        metavar="TIME", help="When it happened, ISO 8601 (no timezone = UTC).")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Change fields of a memory in place, as a new version (see `history`)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        changes = {"content": read_text(content) if content is not None else None,
                   "kind": kind, "uri": uri, "importance": importance,
                   "metadata": opt_json(metadata, "--metadata"), "people": people or None,
                   "places": places or None, "topics": topics or None,
                   "at": opt_time(at, "--at")}
        with open_memory(d) as mem:
            rec = mem.update(memory_id, **changes)
        emit(rec.to_dict()) if d.json else out().print(record_table(rec))


@app.command()
def sources(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The conversation turns a memory was extracted from (see `ingest`)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        found = mem.sources(id_or_uri)
        if d.json:
            emit([r.to_dict() for r in found])
        else:
            out().print(records_table(found, show_layer=False))


@procedure_app.command("triggered")
def procedure_triggered(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What the turn is about.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The procedures QUERY (or the active goal) fires, and on which words."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        fired = mem.triggered_procedures(query)
        if d.json:
            emit([t.to_dict() for t in fired])
            return
        for t in fired:
            show_procedure(t.procedure)
            out().print(f"  fired: {t.why}")


@app.command()
def count(
    ctx: typer.Context,
    kind: Annotated[list[str] | None, typer.Option(
        metavar="KIND", help="Only this kind (repeatable).")] = None,
    uri_prefix: Annotated[str | None, typer.Option(
        metavar="PREFIX", help="Only URIs starting with this, e.g. core://user/.")] = None,
    since: Annotated[str | None, typer.Option(metavar="TIME", help="ISO 8601.")] = None,
    until: Annotated[str | None, typer.Option(metavar="TIME", help="ISO 8601.")] = None,
    layer: Annotated[list[str] | None, typer.Option(
        metavar="LAYER", help="core, archived, deleted (repeatable; default core).")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """How many memories `list` would show with the same filters."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        since_t, until_t = opt_time(since, "--since"), opt_time(until, "--until")
        with open_memory(d) as mem:
            n = mem.count(kind=kind or None, uri_prefix=uri_prefix, since=since_t,
                          until=until_t, layer=layer or None)
        emit({"count": n}) if d.json else out().print(str(n))


@app.command("index-scope")
def index_scope(
    ctx: typer.Context,
    drop: Annotated[bool, typer.Option("--drop", help="Drop the scope's index instead.")
                    ] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """PostgreSQL: give a large scope its own vector index (see docs/scale-out.md)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        done = mem.index_scope(drop=drop)
    if d.json:
        emit(done)
    elif drop:
        out().print("dropped" if done["dropped"] else "this scope had no index of its own")
    else:
        out().print(f"built in {done['built_in_s']:.1f} s")

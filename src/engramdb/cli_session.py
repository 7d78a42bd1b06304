"""The `engramdb context` and `engramdb session ...` commands (registered on cli.app).

Thin like the rest of the CLI: parse, call Memory.context / Memory.session, render."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .cli import (
    Agent,
    AsJson,
    Db,
    EmbedderName,
    User,
    app,
    door,
    emit,
    err,
    guarded,
    open_memory,
    out,
    read_text,
)

session_app = typer.Typer(
    name="session", help="Working memory: one session's window within a token budget.",
    no_args_is_help=True,
)
app.add_typer(session_app, name="session")

SessionId = Annotated[str, typer.Argument(metavar="ID", help="The session id.")]
Encoding = Annotated[str | None, typer.Option(
    metavar="NAME", help="Token encoding: cl100k_base, o200k_base, estimate; else "
    "$ENGRAMDB_ENCODING, else cl100k_base.", show_default=False)]


@app.command()
def context(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What the turn is about.")],
    budget: Annotated[int, typer.Option(metavar="N", help="At most this many tokens.")] = 800,
    session: Annotated[str | None, typer.Option(
        metavar="ID", help="Add this session's summary and recent turns.")] = None,
    k: Annotated[int, typer.Option("-k", metavar="N", help="Relevant memories to consider.")] = 8,
    encoding: Encoding = None,
    no_track: Annotated[bool, typer.Option(
        "--no-track", help="Pure read: do not record the memories as used.")] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The block to put in the prompt at the start of a turn, within --budget tokens: identity,
    rules, relevant memories with dates, the session's summary and recent turns, and what
    was cut (docs/context.md)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        block = mem.context(query, budget=budget, session=session, k=k, track=not no_track,
                            encoding=encoding)
        if d.json:
            emit(block.to_dict())
            return
        if block.text:
            out().print(Text(block.text))
        cut = f", {len(block.cut)} items cut" if block.cut else ""
        err().print(Text(f"{block.tokens} of {block.budget} tokens ({block.encoding}){cut}"))


@session_app.command("add")
def session_add(
    ctx: typer.Context,
    session_id: SessionId,
    role: Annotated[str, typer.Argument(
        metavar="ROLE", help="system, developer, user, assistant or tool.")],
    content: Annotated[str, typer.Argument(
        metavar="CONTENT", help="The message; '-' reads it from stdin.")],
    pin: Annotated[bool, typer.Option(
        "--pin", help="Keep it verbatim for the whole session (a constraint).")] = False,
    budget: Annotated[int | None, typer.Option(
        metavar="N", help="Tokens the window may hold (stored with the session).",
        show_default=False)] = None,
    keep: Annotated[int | None, typer.Option(
        metavar="N", help="Newest turns always kept verbatim.", show_default=False)] = None,
    offload: Annotated[int | None, typer.Option(
        metavar="N", help="Offload a turn above this many tokens.", show_default=False)] = None,
    encoding: Encoding = None,
    summarizer: Annotated[str | None, typer.Option(
        metavar="NAME", help="extractive or llm.", show_default=False)] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Add a turn to session ID (created on first use)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        wm = mem.session(session_id, budget=budget, keep=keep, offload_tokens=offload,
                         encoding=encoding, summarizer=summarizer)
        turn = wm.add(role, read_text(content), pin=pin)
        if d.json:
            emit({"turn": turn.to_dict(), "tokens": wm.tokens, "budget": wm.settings.budget,
                  "over_budget": wm.over_budget})
            return
        what = f"turn {turn.seq} ({turn.tokens} tokens)"
        if turn.ref:
            what += f", offloaded as {turn.ref}"
        err().print(Text(f"{what}; window {wm.tokens} of {wm.settings.budget} tokens"
                         + (" (over budget)" if wm.over_budget else "")))


@session_app.command("show")
def session_show(
    ctx: typer.Context, session_id: SessionId,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Print the session's window as the prompt sees it."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        wm = mem.session(session_id, create=False)
        if d.json:
            emit(wm.to_dict())
            return
        if wm.to_prompt():
            out().print(Text(wm.to_prompt()))
        turns = wm.turns()
        folded = sum(t.folded for t in turns)
        state = "ended" if wm.ended else "open"
        err().print(Text(f"{state}; {len(turns)} turns ({folded} in the summary); window "
                         f"{wm.tokens} of {wm.settings.budget} tokens"
                         + (" (over budget)" if wm.over_budget else "")))
        for note in wm.notes:
            err().print(Text(f"note: {note}"))


@session_app.command("end")
def session_end(
    ctx: typer.Context, session_id: SessionId,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """End the session and print its hand-over to long-term memory."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        handover = mem.session(session_id, create=False).end()
        if d.json:
            emit(handover.to_dict())
            return
        err().print(Text(f"session {session_id} ended: {len(handover.messages)} turns handed "
                         "over"))


@session_app.command("fetch")
def session_fetch(
    ctx: typer.Context, session_id: SessionId,
    ref: Annotated[str, typer.Argument(metavar="REF", help="An offload reference (wm-...).")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Print the whole content of an offloaded turn."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        content = mem.session(session_id, create=False).fetch(ref)
        if d.json:
            emit({"ref": ref, "content": content})
        else:
            typer.echo(content)


@session_app.command("list")
def session_list(
    ctx: typer.Context,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The scope's sessions, oldest first."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        ids = mem.sessions()
        if d.json:
            emit(ids)
        else:
            for sid in ids:
                out().print(Text(sid))

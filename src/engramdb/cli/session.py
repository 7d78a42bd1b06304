"""Conversations and working memory: context, ingest, and `engramdb session ...`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from engramdb.errors import Invalid

from .guard import guarded, open_memory
from .inputs import opt_time, progress_bar, read_file, read_text
from .options import Door, ShowProgress, Topic, command
from .render import (
    emit,
    err,
    info,
    out,
    short,
)

if TYPE_CHECKING:
    import engramdb
    from engramdb.io.messages import Conversation
    from engramdb.model import IngestReport

commands = typer.Typer()
session_app = typer.Typer(
    name="session", help="Working memory: one session's window within a token budget.",
    no_args_is_help=True,
)
SessionId = Annotated[str, typer.Argument(metavar="ID", help="The session id.")]
Encoding = Annotated[str | None, typer.Option(
    metavar="NAME", help="Token encoding: cl100k_base, o200k_base, estimate; else "
    "$ENGRAMDB_ENCODING, else cl100k_base.", show_default=False)]


@command(commands)
def context(
    d: Door,
    query: Topic,
    budget: Annotated[int, typer.Option(metavar="N", help="At most this many tokens.")] = 800,
    session: Annotated[str | None, typer.Option(
        metavar="ID", help="Add this session's summary and recent turns.")] = None,
    k: Annotated[int, typer.Option("-k", metavar="N", help="Relevant memories to consider.")] = 8,
    encoding: Encoding = None,
    no_track: Annotated[bool, typer.Option(
        "--no-track", help="Pure read: do not record the memories as used.")] = False,
) -> None:
    """The block to put in the prompt at the start of a turn, within --budget tokens: identity,
    rules, relevant memories with dates, the session's summary and recent turns, and what
    was cut (docs/context.md)."""
    with guarded(d), open_memory(d) as mem:
        block = mem.context(query, budget=budget, session=session, k=k, track=not no_track,
                            encoding=encoding)
        if d.json:
            emit(block.to_dict())
            return
        if block.text:
            out().print(Text(block.text))
        cut = f", {len(block.cut)} items cut" if block.cut else ""
        info(d, f"{block.tokens} of {block.budget} tokens ({block.encoding}){cut}")


@command(commands)
def ingest(
    d: Door,
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="Messages as JSON or JSON lines, or the sample format (sessions "
        "with dates and speakers, examples/sample_conversation.json); '-' reads stdin.")],
    session: Annotated[str | None, typer.Option(
        "--session", help="The conversation's id (default: the file's, else a new one); with "
        "several sessions in the file, ID-1, ID-2, ...")] = None,
    at: Annotated[str | None, typer.Option(
        "--at", metavar="TIME", help="When messages without their own 'at' (or their "
        "session's date) were said.")] = None,
    extractor: Annotated[str, typer.Option(
        "--extractor", help="auto, rules or llm (auto: the LLM when ENGRAMDB_LLM_URL is set).")
    ] = "auto",
    no_turns: Annotated[bool, typer.Option(
        "--no-turns", help="Do not keep each turn as an event; store only what is extracted.")
    ] = False,
    show_progress: ShowProgress = None,
) -> None:
    """Remember a conversation: its turns as events and the facts, preferences, lessons and
    pending items extracted from them, all or nothing (every session of the file)."""
    from engramdb.io.messages import read_conversations

    with guarded(d):
        convos = read_conversations(read_file(file), "stdin" if file == "-" else file)
        when_ = opt_time(at, "--at")
        ids = [f"{session}-{n}" if session and len(convos) > 1 else session or c.session
               for n, c in enumerate(convos, start=1)]
        with open_memory(d) as mem, progress_bar("ingesting", show_progress) as update:
            reports = ingest_all(mem, convos, ids, when_, extractor, not no_turns, update)
        if d.json:
            emit(reports[0].to_dict() if len(reports) == 1 else [r.to_dict() for r in reports])
            return
        for report in reports:
            show_ingest(report)


def ingest_all(mem: engramdb.Memory, convos: list[Conversation], ids: list[str | None],
               at: datetime | None, extractor: str, keep_turns: bool,
               update: Callable[[int, int], None]) -> list[IngestReport]:
    """Each conversation in turn, in one transaction: every message is checked first."""
    from engramdb.write.ingest import check_messages

    for n, convo in enumerate(convos, start=1):
        try:
            check_messages(convo.messages, at or datetime.now(UTC))
        except Invalid as exc:
            raise Invalid(f"session {n}: {exc}" if len(convos) > 1 else str(exc)) from None
    total, done, reports = sum(len(c.messages) for c in convos), 0, []
    with mem.store.transaction():
        for convo, sid in zip(convos, ids, strict=True):
            offset = done
            reports.append(mem.ingest(
                convo.messages, session=sid, at=at, extractor=extractor, keep_turns=keep_turns,
                progress=lambda n, _t, offset=offset: update(offset + n, total)))
            done += len(convo.messages)
    return reports


def show_ingest(report: IngestReport) -> None:
    counts = ", ".join(f"{k} {v}" for k, v in report.counts().items()) or "nothing"
    out().print(Text(f"session {report.session}: {report.turns} turns, "
                     f"{len(report.events)} kept as events; extracted by "
                     f"{report.extractor}: {counts}"))
    if report.repeated_turns:
        err().print(Text(f"note: {report.repeated_turns} turns were already ingested "
                         "(same content and time): nothing extracted from them again"))
    if report.fallback_reason:
        err().print(Text(f"note: the LLM extractor failed, the rules ran instead: "
                         f"{report.fallback_reason}"))
    for r in report.extracted:
        turn = "" if r.memory.source_turn is None else f" turn={r.memory.source_turn}"
        out().print(Text(f"{r.action.value} {r.memory.id} kind={r.memory.kind.value}{turn}: ")
                    + short(r.memory.content))
    for rec in report.forgotten:
        out().print(Text(f"forgot {rec.id} (asked in the conversation): ") + short(rec.content))


@command(session_app, "add")
def session_add(
    d: Door,
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
) -> None:
    """Add a turn to session ID (created on first use)."""
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
        if wm.over_budget:
            err().print(Text(f"{what}; window {wm.tokens} of {wm.settings.budget} tokens "
                             "(over budget)"))
        else:
            info(d, f"{what}; window {wm.tokens} of {wm.settings.budget} tokens")


@command(session_app, "show")
def session_show(
    d: Door, session_id: SessionId,
    layers: Annotated[bool, typer.Option(
        "--layers", help="Print its layered summaries instead: one every --every turns, a "
        "higher one every --higher of those, and a keyframe around each important turn, "
        "each sentence with the turns it came from.")] = False,
    every: Annotated[int, typer.Option(metavar="N", help="Turns per summary.")] = 8,
    higher: Annotated[int, typer.Option(metavar="M", help="Summaries per higher one.")] = 4,
) -> None:
    """Print the session's window as the prompt sees it (or its layered summaries)."""
    with guarded(d), open_memory(d) as mem:
        wm = mem.session(session_id, create=False)
        if layers:
            show_layers(wm.layers(every, higher).to_dict(), d.json)
            return
        if d.json:
            emit(wm.to_dict())
            return
        if wm.to_prompt():
            out().print(Text(wm.to_prompt()))
        turns = wm.turns()
        folded = sum(t.folded for t in turns)
        state = "ended" if wm.ended else "open"
        info(d, f"{state}; {len(turns)} turns ({folded} in the summary); window "
             f"{wm.tokens} of {wm.settings.budget} tokens"
             + (" (over budget)" if wm.over_budget else ""))
        for note in wm.notes:
            err().print(Text(f"note: {note}"))


def show_layers(found: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit(found)
        return
    for name, title in (("summaries", "summary"), ("higher_summaries", "higher summary"),
                        ("keyframes", "keyframe")):
        for item in found[name]:
            first, last = item["turns"]
            why = f" ({item['reason']})" if item.get("reason") else ""
            out().print(Text(f"[{title}, turns {first}-{last}{why}]"))
            for sentence in item["sentences"]:
                turns = ",".join(str(n) for n in sentence["sources"])
                out().print(Text(f"- {sentence['text']}  (turn {turns})"))


@command(session_app, "end")
def session_end(
    d: Door, session_id: SessionId,
) -> None:
    """End the session and print its hand-over to long-term memory."""
    with guarded(d), open_memory(d) as mem:
        handover = mem.session(session_id, create=False).end()
        if d.json:
            emit(handover.to_dict())
            return
        err().print(Text(f"session {session_id} ended: {len(handover.messages)} turns handed "
                         "over"))


@command(session_app, "fetch")
def session_fetch(
    d: Door, session_id: SessionId,
    ref: Annotated[str, typer.Argument(metavar="REF", help="An offload reference (wm-...).")],
) -> None:
    """Print the whole content of an offloaded turn."""
    with guarded(d), open_memory(d) as mem:
        content = mem.session(session_id, create=False).fetch(ref)
        if d.json:
            emit({"ref": ref, "content": content})
        else:
            typer.echo(content, nl=not content.endswith("\n"))   # as it was: `| tail -1` works


@command(session_app, "list")
def session_list(
    d: Door,
) -> None:
    """The scope's sessions, oldest first."""
    with guarded(d), open_memory(d) as mem:
        ids = mem.sessions()
        if d.json:
            emit(ids)
        else:
            for sid in ids:
                out().print(Text(sid))

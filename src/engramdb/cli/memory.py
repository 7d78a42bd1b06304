"""The commands on single memories: remember, recall, get, update, forget, restore,
history, rollback, list, count, explain, sources. remember, recall, get and list ask a running
`engramdb serve` on the same file when there is one (remote.py), and print the same."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

import engramdb
from engramdb.errors import EngramError, NotFound

from .guard import EXIT_USAGE, confirmed, fail, guarded, open_memory
from .inputs import opt_json, opt_time, read_text
from .options import Door, IdOrUri, Kinds, Layers, Reason, Since, Until, UriPrefix, command
from .remote import Served, open_served
from .render import (
    emit,
    err,
    explain_hit,
    fields,
    hits_table,
    info,
    out,
    record_table,
    records_table,
    show_write,
    versions_table,
)

if TYPE_CHECKING:
    from engramdb.write.infer import Inference

commands = typer.Typer()
Names = Annotated[list[str] | None, typer.Option(metavar="NAME", help="Repeatable; replaces "
                                                 "the list.")]


@command(commands)
def remember(
    d: Door,
    text: Annotated[str, typer.Argument(
        metavar="TEXT", help="What to remember; '-' reads it from stdin.")],
    kind: Annotated[str | None, typer.Option(
        "--kind", "--type", metavar="KIND", help="identity, preference, fact, event, lesson, "
        "rule, procedure, "
        "pending, gist, emotion; or an alias: knowledge or idea (= fact), story or interaction "
        "(= event). Default: inferred from TEXT by the extractor's rules (else fact).")] = None,
    uri: Annotated[str | None, typer.Option(
        metavar="URI", help="A slot such as core://user/name; remembering the same URI again "
        "updates it.")] = None,
    at: Annotated[str | None, typer.Option(
        metavar="TIME", help="When it happened, ISO 8601 (no timezone = UTC); default now.",
    )] = None,
    importance: Annotated[float | None, typer.Option(
        metavar="0..1", help="0 to 1 (default 0.5).")] = None,
    metadata: Annotated[str | None, typer.Option(
        metavar="JSON", help="A JSON object kept unchanged on the memory.")] = None,
    people: Annotated[list[str] | None, typer.Option(
        metavar="NAME", help="A person (repeatable).")] = None,
    places: Annotated[list[str] | None, typer.Option(
        metavar="NAME", help="A place (repeatable).")] = None,
    topics: Annotated[list[str] | None, typer.Option(
        metavar="TOPIC", help="A topic (repeatable).")] = None,
    priority: Annotated[str | None, typer.Option(
        metavar="P0..P3", help="P0 to P3 (default: derived from the kind or URI).")] = None,
    valence: Annotated[float | None, typer.Option(
        metavar="-1..1", help="How it felt, -1 (bad) to 1 (good); default: read from TEXT.",
        show_default=False)] = None,
    intensity: Annotated[float | None, typer.Option(
        metavar="0..1", help="How strongly, 0 to 1 (a strong feeling fades slower); default: "
        "read from TEXT.", show_default=False)] = None,
) -> None:
    """Remember one memory; print what the write did (add, update, noop), its id and its kind
    (inferred from TEXT when --kind is not given)."""
    with guarded(d):
        content = read_text(text)
        when_ = at  # ISO 8601; "2025-03" spans the month (text/timespan.py)
        meta = opt_json(metadata, "--metadata")
        with open_served(d) as mem:
            guess = None if kind is not None else infer(mem, content, uri, at)
            result = mem.remember(
                content, kind=guess.kind if guess else kind, uri=uri, at=when_,
                importance=importance, metadata=meta, people=people or None,
                places=places or None, topics=topics or None, priority=priority,
                valence=valence, intensity=intensity,
            )
        if d.json:
            emit({**result.to_dict(), **({"inferred": guess.to_dict()} if guess else {})})
        else:
            show_write(result, guess)


def infer(mem: engramdb.Memory | Served, content: str, uri: str | None,
          at: str | None) -> Inference | None:
    """The kind TEXT reads as (write/infer.py); None for a URI already in memory, which keeps
    its kind when none is given."""
    from engramdb.write.infer import infer_kind

    if uri is not None:
        try:
            mem.get(uri)
            return None
        except NotFound:
            pass
    try:
        said = opt_time(at, "--at")
    except EngramError:
        said = None  # the library reports a bad --at itself
    return infer_kind(content, said)


@command(commands)
def recall(
    d: Door,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for (plain text).")],
    k: Annotated[int, typer.Option("-k", metavar="N", help="How many hits (1 to 1000).")] = 5,
    preset: Annotated[str | None, typer.Option(
        metavar="NAME", help="Recall preset: default, lexical, dense, factual, temporal, "
        "causal, exploratory (none given: the query's intent picks one of the last four).")]
        = None,
    kind: Annotated[list[str] | None, typer.Option(
        "--kind", "--type", metavar="KIND", help="Only memories of this kind (repeatable).")]
        = None,
    uri_prefix: Annotated[str | None, typer.Option(
        metavar="PREFIX", help="Only memories under this URI prefix (project://billing/).")]
        = None,
    keyword: Annotated[list[str] | None, typer.Option(
        "--keyword", "--keywords", metavar="WORD", help="More words to match as written "
        "(repeatable).")] = None,
    time_context: Annotated[str | None, typer.Option(
        metavar="WHEN", help="When the answer happened, in words: 'last week', '上周', "
        "'2025-03', 'from 2025-03-01 to 2025-03-15'; it takes the place of a time QUERY "
        "names.")] = None,
    no_track: Annotated[bool, typer.Option(
        "--no-track", help="Pure read: do not record the hits as used.")] = False,
    cold: Annotated[bool, typer.Option(
        "--cold", help="Search the cold tier too (memories archived for cold_after): what a "
        "strong cue finds there comes back to core.")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Print each hit's full score breakdown (as -v does), and how the "
        "query was planned (on stderr).")] = False,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="table (ranked, each with why in one line), json "
        "(as --json) or "
        "text (one hit's content per line, for pipes and prompts).")] = "table",
) -> None:
    """Recall the memories that best match QUERY, best first, with why each one ranks in one
    line; -v or --explain adds every term of each hit's score."""
    if fmt not in RECALL_FORMATS:
        raise typer.BadParameter(f"one of {', '.join(RECALL_FORMATS)}", param_hint="--format")
    with guarded(d), open_served(d) as mem:
        hits = mem.recall(query, k=k, track=not no_track, preset=preset, kinds=kind or None,
                          uri_prefix=uri_prefix, keywords=keyword or None,
                          time_context=time_context, include_cold=cold)
        if d.json or fmt == "json":
            emit(hits.to_dict())
            return
        if fmt == "text":
            for hit in hits:
                typer.echo(" ".join(hit.memory.content.split()))
        names = mem.abbreviate([h.memory.id for h in hits]) if fmt == "table" else {}
        if fmt == "table" and hits:
            out().print(hits_table(hits, names))
        if explain or (d.verbose and fmt == "table"):
            for rank, hit in enumerate(hits, start=1):
                out().print(explain_hit(rank, hit, names))
        if hits.note or not hits:
            err().print(Text(hits.note or "no memory matches this query"))
        if hits.plan.get("intent"):
            line = (f"intent: {hits.plan['intent']} (preset {hits.plan['preset']}; "
                    f"{hits.plan['intent_reason']})")
            info(replace(d, verbose=d.verbose or explain), line)


RECALL_FORMATS = ("table", "json", "text")


@command(commands)
def get(
    d: Door,
    id_or_uri: IdOrUri,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="Show the values the PII policy masked ([email#3f9a...]).")] = False,
) -> None:
    """Show one memory, every field."""
    with guarded(d), open_served(d) as mem:
        rec = mem.get(id_or_uri, reveal=reveal)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(record_table(rec))


@command(commands)
def update(
    d: Door,
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
    valence: Annotated[float | None, typer.Option(
        metavar="-1..1", help="How it felt, -1 to 1; default: read from new --content, else "
        "kept.", show_default=False)] = None,
    intensity: Annotated[float | None, typer.Option(
        metavar="0..1", help="How strongly, 0 to 1; default: read from new --content, else "
        "kept.", show_default=False)] = None,
) -> None:
    """Change fields of a memory in place, as a new version (see `history`). New content
    without --valence or --intensity reads the feeling again from the new text."""
    with guarded(d):
        changes = {"content": read_text(content) if content is not None else None,
                   "kind": kind, "uri": uri, "importance": importance,
                   "metadata": opt_json(metadata, "--metadata"), "people": people or None,
                   "places": places or None, "topics": topics or None,
                   "at": opt_time(at, "--at"), "valence": valence, "intensity": intensity}
        with open_memory(d) as mem:
            rec = mem.update(memory_id, **changes)
        emit(rec.to_dict()) if d.json else out().print(record_table(rec))


@command(commands)
def forget(
    d: Door,
    memory_id: Annotated[str | None, typer.Argument(
        metavar="ID", help="A memory id (or URI); omit it with --all.", show_default=False,
    )] = None,
    hard: Annotated[bool, typer.Option(
        "--hard", help="Erase it: content, metadata, anchors and vector are gone for good, "
        "history included; a tombstone stays. Cannot be restored.")] = False,
    all_: Annotated[bool, typer.Option(
        "--all", help="Remove every memory of the scope (needs --user NAME), its vectors and "
        "event logs, leaving one audit event.")] = False,
    yes: Annotated[bool, typer.Option(
        "--yes", help="With --all: do not ask to confirm.")] = False,
    reason: Reason = None,
) -> None:
    """Forget a memory (soft: it leaves every search, `restore` brings it back), erase it
    (--hard), or remove a whole scope (--user NAME --all)."""
    if all_:
        forget_scope(d, memory_id, yes, reason)
        return
    if memory_id is None:
        raise typer.BadParameter("give a memory ID, or --all with --user NAME",
                                 param_hint="ID")
    with guarded(d), open_memory(d) as mem:
        rec = mem.forget(memory_id, hard=hard, reason=reason)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(Text(f"{'erased' if hard else 'forgot'} {rec.id}"))


def forget_scope(d: Door, memory_id: str | None, yes: bool, reason: str | None) -> None:
    """`forget --user NAME --all`: asks to confirm unless --yes; with --json it cannot ask, so
    it refuses (exit 2). A declined confirmation also exits 2, having removed nothing."""
    if memory_id is not None:
        raise typer.BadParameter("--all removes the whole scope: give no ID with it",
                                 param_hint="ID")
    if not d.user:
        raise typer.BadParameter("--all needs --user NAME (the scope to remove)",
                                 param_hint="--all")
    with guarded(d), open_memory(d) as mem:
        where = mem.default_scope
        scope = f"user={where.user} agent={where.agent}"
        if not yes and d.json:
            fail("needs_confirmation", f"refusing to forget every memory of {scope} without "
                 f"--yes", EXIT_USAGE, True)
        if not yes:
            n = mem.count(layer=["core", "archived", "deleted", "cold"])
            if not confirmed(f"Forget all {n} memories of {scope}? This cannot be undone"):
                fail("aborted", "nothing forgotten", EXIT_USAGE, False)
        removed = mem.forget_scope(reason=reason)
        if d.json:
            emit({"removed": removed, "user": where.user, "agent": where.agent})
        else:
            out().print(Text(f"forgot {removed} memories of {scope}"))


@command(commands)
def restore(
    d: Door,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A forgotten memory's id.")],
) -> None:
    """Bring a forgotten memory back."""
    with guarded(d), open_memory(d) as mem:
        rec = mem.restore(memory_id)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(Text(f"restored {rec.id}"))


@command(commands)
def history(
    d: Door,
    id_or_uri: IdOrUri,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="Show the values the PII policy masked ([email#...]).")] = False,
) -> None:
    """Show every version of a memory, oldest first, from the event log: what, who and why."""
    with guarded(d), open_memory(d) as mem:
        versions = mem.history(id_or_uri, reveal=reveal)
        if d.json:
            emit([v.to_dict() for v in versions])
        else:
            out().print(versions_table(versions, mem.abbreviate([v.memory.id for v in versions])))


@command(commands)
def rollback(
    d: Door,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A memory id (or URI).")],
    version: Annotated[int, typer.Argument(
        metavar="VERSION", help="The version to go back to (see `history`).")],
    reason: Reason = None,
) -> None:
    """Make a memory say again what VERSION said, as a new version."""
    with guarded(d), open_memory(d) as mem:
        rec = mem.rollback(memory_id, version, reason=reason)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(Text(f"rolled {rec.id} back to version {version}: now version "
                             f"{rec.version}"))


@command(commands, "list")
def list_cmd(
    d: Door,
    kind: Kinds = None,
    uri_prefix: UriPrefix = None,
    since: Since = None,
    until: Until = None,
    layer: Layers = None,
    limit: Annotated[int | None, typer.Option(metavar="N", help="At most this many.")] = None,
    offset: Annotated[int, typer.Option(metavar="N", help="Skip this many first.")] = 0,
) -> None:
    """List memories, oldest first (by when they happened)."""
    with guarded(d):
        since_t, until_t = opt_time(since, "--since"), opt_time(until, "--until")
        with open_served(d) as mem:
            records = list(mem.list(kind=kind or None, uri_prefix=uri_prefix, since=since_t,
                                    until=until_t, layer=layer or None, limit=limit,
                                    offset=offset))
            names = {} if d.json else mem.abbreviate([rec.id for rec in records])
        if d.json:
            emit([rec.to_dict() for rec in records])
        elif records:
            out().print(records_table(records, bool(layer), names))
        else:
            err().print(Text("no memories"))


@command(commands)
def count(
    d: Door,
    kind: Kinds = None,
    uri_prefix: UriPrefix = None,
    since: Since = None,
    until: Until = None,
    layer: Layers = None,
) -> None:
    """How many memories `list` would show with the same filters."""
    with guarded(d):
        since_t, until_t = opt_time(since, "--since"), opt_time(until, "--until")
        with open_memory(d) as mem:
            n = mem.count(kind=kind or None, uri_prefix=uri_prefix, since=since_t,
                          until=until_t, layer=layer or None)
        emit({"count": n}) if d.json else out().print(str(n))


@command(commands)
def explain(
    d: Door,
    id_or_uri: IdOrUri,
) -> None:
    """Show a memory's strength: layer, retention, decay rate, priority, half-life, weight."""
    with guarded(d), open_memory(d) as mem:
        strength = mem.explain(id_or_uri)
        if d.json:
            emit(strength.to_dict())
            return
        out().print(fields(strength.to_dict(), spaced=True))
        out().print(Text(str(strength)))


@command(commands)
def sources(
    d: Door,
    id_or_uri: IdOrUri,
) -> None:
    """The conversation turns a memory was extracted from (see `ingest`)."""
    with guarded(d), open_memory(d) as mem:
        found = mem.sources(id_or_uri)
        if d.json:
            emit([r.to_dict() for r in found])
        elif found:
            out().print(records_table(found, False, mem.abbreviate([r.id for r in found])))
        else:
            err().print(Text("no source turns: it was not extracted from a conversation"))

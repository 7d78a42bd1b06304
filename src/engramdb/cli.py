"""The `engramdb` command: a thin door onto the Memory engine.

Every command takes the global options --db, --user, --agent, --embedder and --json (before or
after the command name). Human output is rich tables on stdout; progress, notes and errors go
to stderr. Exit codes: 0 ok, 1 unexpected error, 2 usage error, 3 not found, 4 invalid input,
5 conflict, 6 store or config error. See docs/cli.md.
"""

from __future__ import annotations

import io
import json
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import engramdb
from engramdb.clock import parse_time
from engramdb.errors import ConfigError, Conflict, EngramError, Invalid, NotFound, StoreError
from engramdb.model import Action, Hit, Hits, Link, Record, Stats, Version, WriteResult

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE = 0, 1, 2
EXIT_CODES: dict[type[EngramError], int] = {
    NotFound: 3, Invalid: 4, Conflict: 5, StoreError: 6, ConfigError: 6,
}
SHORT = 160  # characters of content shown in a table row

app = typer.Typer(
    name="engramdb", help="Memory for AI agents: remember, recall, inspect one memory file.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)

GLOBAL = "Global options"
Db = Annotated[str | None, typer.Option(
    "--db", metavar="FILE", help="SQLite file or postgresql:// URL; else $ENGRAMDB_URL, else the "
    "per-user default file.",
    rich_help_panel=GLOBAL, show_default=False)]
User = Annotated[str | None, typer.Option(
    "--user", metavar="NAME", help="User scope; else $ENGRAMDB_USER, else 'default'.",
    rich_help_panel=GLOBAL, show_default=False)]
Agent = Annotated[str | None, typer.Option(
    "--agent", metavar="NAME", help="Agent scope; else $ENGRAMDB_AGENT, else 'default'.",
    rich_help_panel=GLOBAL, show_default=False)]
EmbedderName = Annotated[str | None, typer.Option(
    "--embedder", metavar="NAME", help="Embedder registry name (default, e5, hashing, openai); "
    "else $ENGRAMDB_EMBEDDER, else 'default'.", rich_help_panel=GLOBAL, show_default=False)]
AsJson = Annotated[bool, typer.Option(
    "--json", help="Machine output: one JSON document on stdout.", rich_help_panel=GLOBAL)]


# ---------------------------------------------------------------- the door: options, errors


@dataclass(frozen=True)
class Door:
    """The global options of one invocation."""

    db: str | None = None
    user: str | None = None
    agent: str | None = None
    embedder: str | None = None
    json: bool = False


def door(ctx: typer.Context, db: str | None, user: str | None, agent: str | None,
         embedder: str | None, as_json: bool) -> Door:
    """Options given after the command win over the same options given before it."""
    base = ctx.obj if isinstance(ctx.obj, Door) else Door()
    return Door(db or base.db, user or base.user, agent or base.agent,
                embedder or base.embedder, as_json or base.json)


def exit_code(exc: EngramError) -> int:
    for cls in type(exc).__mro__:
        if cls in EXIT_CODES:
            return EXIT_CODES[cls]
    return EXIT_UNEXPECTED


@contextmanager
def guarded(d: Door) -> Iterator[None]:
    """Turn errors into 'error: ...' on stderr and a documented exit code, never a traceback
    for an EngramError. With --json the error is also written to stdout."""
    try:
        yield
    except EngramError as exc:
        fail(exc.code, str(exc), exit_code(exc), d.json)
    except Exception as exc:
        if isinstance(exc, typer.Exit | typer.BadParameter | BrokenPipeError):
            raise  # typer's own exits; a closed pipe (`| head`) ends quietly with 1
        traceback.print_exc()
        fail("unexpected", f"{type(exc).__name__}: {exc}", EXIT_UNEXPECTED, d.json)


def fail(code: str, message: str, status: int, as_json: bool) -> NoReturn:
    if as_json:
        emit({"error": {"code": code, "message": message}})
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(status)


def open_memory(d: Door) -> engramdb.Memory:
    return engramdb.open(d.db, embedder=d.embedder, user=d.user, agent=d.agent)


# ---------------------------------------------------------------- output helpers


def emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def out() -> Console:
    return Console(highlight=False)


def err() -> Console:
    return Console(stderr=True, highlight=False)


def short(text: str, limit: int = SHORT) -> Text:
    return Text(text if len(text) <= limit else text[: limit - 1] + "…")


def when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def record_table(rec: Record) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in rec.to_dict().items():
        if name != "content_hash" and value not in (None, "", [], {}):
            table.add_row(name, Text(plain(value)))
    return table


def records_table(records: Iterable[Record], show_layer: bool) -> Table:
    table = Table(show_lines=False)
    table.add_column("id", no_wrap=True)
    table.add_column("at", no_wrap=True)
    table.add_column("kind")
    if show_layer:
        table.add_column("layer")
    table.add_column("uri", overflow="fold")
    table.add_column("content", ratio=1, overflow="fold")
    for rec in records:
        layer = [rec.layer.value] if show_layer else []
        table.add_row(rec.id, when(rec.at), rec.kind.value, *layer, Text(rec.uri or ""),
                      short(rec.content))
    return table


def hits_table(hits: Hits) -> Table:
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("score", justify="right")
    table.add_column("kind")
    table.add_column("content", ratio=1, overflow="fold")
    table.add_column("why")
    table.add_column("id", no_wrap=True)
    for rank, hit in enumerate(hits, start=1):
        why = " ".join(f"{name}#{leg.rank}" for name, leg in hit.explanation.legs.items())
        why += " (woken)" if hit.woken else ""
        table.add_row(str(rank), f"{hit.score:.4f}", hit.memory.kind.value,
                      short(hit.memory.content), why, hit.memory.id)
    return table


def explain_hit(rank: int, hit: Hit) -> Text:
    e = hit.explanation
    legs = ", ".join(f"{name} rank {leg.rank} score {leg.score:.4f}"
                     for name, leg in e.legs.items())
    terms = ", ".join(f"{name}={value:.4f}" for name, value in e.terms.items())
    lines = [f"#{rank} {hit.memory.id}  score {hit.score:.4f}",
             f"  legs: {legs or 'none'}",
             f"  fused {e.fused:.4f}  strength {e.strength:.4f}  final {e.final:.4f}",
             f"  terms: {terms or 'none'}"]
    lines += [f"  note: {note}" for note in e.notes]
    return Text("\n".join(lines))


def versions_table(versions: list[Version]) -> Table:
    table = Table()
    chain = len({v.memory.id for v in versions}) > 1  # a supersession chain: name each link
    if chain:
        table.add_column("memory", no_wrap=True)
    table.add_column("version", justify="right")
    table.add_column("op")
    table.add_column("at", no_wrap=True)
    table.add_column("who")
    table.add_column("why", overflow="fold")
    table.add_column("layer")
    table.add_column("kind")
    table.add_column("content", ratio=1, overflow="fold")
    for v in versions:
        cells = [f"{v.version}*" if v.current else str(v.version), v.op, when(v.at),
                 Text(v.who), Text(v.reason or ""), v.memory.layer.value, v.memory.kind.value,
                 short(v.memory.content)]
        table.add_row(*([f"…{v.memory.id[-6:]}"] if chain else []), *cells)
    return table


def stats_table(stats: Stats) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_row("path", Text(stats.path))
    table.add_row("embedder", Text(f"{stats.embedder} ({stats.dimensions} dimensions)"))
    table.add_row("scope", Text(f"user={stats.user} agent={stats.agent}"))
    table.add_row("memories", str(stats.total))
    for layer, n in stats.by_layer.items():
        table.add_row(f"  {layer}", str(n))
    table.add_row("by kind", ", ".join(f"{k} {n}" for k, n in stats.by_kind.items()) or "-")
    table.add_row("events", str(stats.events))
    return table


def show_write(result: WriteResult) -> None:
    rec = result.memory
    failed = result.evidence.get("failed") if result.action == Action.REJECT else None
    out().print(Text(f"{result.action.value} {rec.id} kind={rec.kind.value} "
                     f"rule={result.rule}" + (f" uri={rec.uri}" if rec.uri else "")
                     + (f" failed={','.join(failed)} (nothing stored)" if failed else "")))


# ---------------------------------------------------------------- input helpers


def opt_time(value: str | None, name: str) -> datetime | None:
    """ISO 8601; a time without a timezone is taken as UTC."""
    return parse_time(value, name) if value is not None else None


def opt_json(value: str | None, name: str) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise Invalid(f"{name} is not valid JSON: {exc}") from None


def read_text(text: str) -> str:
    return sys.stdin.read() if text == "-" else text


def read_file(name: str) -> str:
    """The text of FILE ('-' = stdin); an unreadable FILE is a usage error (exit 2)."""
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise Invalid(f"{name} is not UTF-8 text") from None
    except OSError as exc:
        raise typer.BadParameter(f"cannot read {name}: {exc.strerror}",
                                 param_hint="FILE") from None


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress(done, total) callback drawing a bar on stderr from its first call on."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress(label, BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=err())
    task = bar.add_task(label, total=None)
    started = False

    def update(done: int, total: int) -> None:
        nonlocal started
        if not started:
            bar.start()
            started = True
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if started:
            bar.stop()


# ---------------------------------------------------------------- commands


@app.callback()
def root(ctx: typer.Context, db: Db = None, user: User = None, agent: Agent = None,
         embedder: EmbedderName = None, as_json: AsJson = False,
         version: Annotated[bool, typer.Option("--version", help="Print the version.")] = False,
         ) -> None:
    """Memory for AI agents: remember, recall, inspect one memory file."""
    if version:
        typer.echo(engramdb.__version__)
        raise typer.Exit(EXIT_OK)
    ctx.obj = Door(db, user, agent, embedder, as_json)


@app.command()
def init(ctx: typer.Context, db: Db = None, user: User = None, agent: Agent = None,
         embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """Create (or open) the memory file; print its path and embedder."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        make_parent(d.db)
        with open_memory(d) as mem:
            stats = mem.stats()
        path = (stats.path if stats.path == ":memory:" or "://" in stats.path
                else str(Path(stats.path).resolve()))
        info = {"path": path, "embedder": stats.embedder, "dimensions": stats.dimensions}
        if d.json:
            emit(info)
        else:
            out().print(Text(f"{path}\nembedder {stats.embedder} ({stats.dimensions} dimensions)"))


def make_parent(db: str | None) -> None:
    if not db or db == ":memory:" or "://" in db:
        return
    parent = Path(db).expanduser().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create directory {parent}: {exc.strerror}") from None


@app.command()
def remember(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(
        metavar="TEXT", help="What to remember; '-' reads it from stdin.")],
    kind: Annotated[str | None, typer.Option(
        metavar="KIND", help="identity, preference, fact, event, lesson, rule, procedure, "
        "pending, gist, emotion (default: fact).")] = None,
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
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Remember one memory; print what the write did (add, update, noop) and its id."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        content = read_text(text)
        when_ = at  # ISO 8601; "2025-03" spans the month (text/timespan.py)
        meta = opt_json(metadata, "--metadata")
        with open_memory(d) as mem:
            result = mem.remember(
                content, kind=kind, uri=uri, at=when_, importance=importance, metadata=meta,
                people=people or None, places=places or None, topics=topics or None,
                priority=priority,
            )
        if d.json:
            emit(result.to_dict())
        else:
            show_write(result)


@app.command()
def recall(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for (plain text).")],
    k: Annotated[int, typer.Option("-k", metavar="N", help="How many hits (1 to 1000).")] = 5,
    preset: Annotated[str | None, typer.Option(
        metavar="NAME", help="Recall preset: default, lexical, dense, factual, temporal, "
        "causal, exploratory (none given: the query's intent picks one of the last four).")]
        = None,
    kind: Annotated[list[str] | None, typer.Option(
        metavar="KIND", help="Only memories of this kind (repeatable).")] = None,
    no_track: Annotated[bool, typer.Option(
        "--no-track", help="Pure read: do not record the hits as used.")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Print each hit's full score breakdown.")] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Recall the memories that best match QUERY, best first, with why each one ranks."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        hits = mem.recall(query, k=k, track=not no_track, preset=preset, kinds=kind or None)
        if d.json:
            emit(hits.to_dict())
            return
        if hits:
            out().print(hits_table(hits))
        if explain:
            for rank, hit in enumerate(hits, start=1):
                out().print(explain_hit(rank, hit))
        if hits.note or not hits:
            err().print(Text(hits.note or "no memory matches this query"))
        if hits.plan.get("intent"):
            err().print(Text(f"intent: {hits.plan['intent']} (preset {hits.plan['preset']}; "
                             f"{hits.plan['intent_reason']})"))


@app.command()
def get(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Show one memory, every field."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        rec = mem.get(id_or_uri)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(record_table(rec))


@app.command()
def forget(
    ctx: typer.Context,
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
    reason: Annotated[str | None, typer.Option(
        metavar="TEXT", help="Why, kept in the event log.")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Forget a memory (soft: it leaves every search, `restore` brings it back), erase it
    (--hard), or remove a whole scope (--user NAME --all)."""
    d = door(ctx, db, user, agent, embedder, as_json)
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
            n = mem.count(layer=["core", "archived", "deleted"])
            if not confirmed(f"Forget all {n} memories of {scope}? This cannot be undone"):
                fail("aborted", "nothing forgotten", EXIT_USAGE, False)
        removed = mem.forget_scope(reason=reason)
        if d.json:
            emit({"removed": removed, "user": where.user, "agent": where.agent})
        else:
            out().print(Text(f"forgot {removed} memories of {scope}"))


def confirmed(question: str) -> bool:
    """Ask on stderr; no answer (end of input) is a no."""
    try:
        return typer.confirm(question, err=True)
    except typer.Abort:
        return False


@app.command()
def restore(
    ctx: typer.Context,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A forgotten memory's id.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Bring a forgotten memory back."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        rec = mem.restore(memory_id)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(Text(f"restored {rec.id}"))


@app.command()
def history(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Show every version of a memory, oldest first, from the event log: what, who and why."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        versions = mem.history(id_or_uri)
        if d.json:
            emit([v.to_dict() for v in versions])
        else:
            out().print(versions_table(versions))


@app.command()
def rollback(
    ctx: typer.Context,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A memory id (or URI).")],
    version: Annotated[int, typer.Argument(
        metavar="VERSION", help="The version to go back to (see `history`).")],
    reason: Annotated[str | None, typer.Option(
        metavar="TEXT", help="Why, kept in the event log.")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Make a memory say again what VERSION said, as a new version."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        rec = mem.rollback(memory_id, version, reason=reason)
        if d.json:
            emit(rec.to_dict())
        else:
            out().print(Text(f"rolled {rec.id} back to version {version}: now version "
                             f"{rec.version}"))


@app.command("list")
def list_cmd(
    ctx: typer.Context,
    kind: Annotated[list[str] | None, typer.Option(
        metavar="KIND", help="Only this kind (repeatable).")] = None,
    uri_prefix: Annotated[str | None, typer.Option(
        metavar="PREFIX", help="Only URIs starting with this, e.g. core://user/.")] = None,
    since: Annotated[str | None, typer.Option(
        metavar="TIME", help="Happened at or after, ISO 8601 (no timezone = UTC).")] = None,
    until: Annotated[str | None, typer.Option(
        metavar="TIME", help="Happened before, ISO 8601 (no timezone = UTC).")] = None,
    layer: Annotated[list[str] | None, typer.Option(
        metavar="LAYER", help="core, archived, deleted (repeatable; default core).")] = None,
    limit: Annotated[int | None, typer.Option(metavar="N", help="At most this many.")] = None,
    offset: Annotated[int, typer.Option(metavar="N", help="Skip this many first.")] = 0,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """List memories, oldest first (by when they happened)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        since_t, until_t = opt_time(since, "--since"), opt_time(until, "--until")
        with open_memory(d) as mem:
            records = list(mem.list(kind=kind or None, uri_prefix=uri_prefix, since=since_t,
                                    until=until_t, layer=layer or None, limit=limit,
                                    offset=offset))
        if d.json:
            emit([rec.to_dict() for rec in records])
        elif records:
            out().print(records_table(records, show_layer=bool(layer)))
        else:
            err().print(Text("no memories"))


@app.command()
def status(ctx: typer.Context, db: Db = None, user: User = None, agent: Agent = None,
           embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """Show counts by layer and kind, events, the embedder and the file's path."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        stats = mem.stats()
        if d.json:
            emit(stats.to_dict())
        else:
            out().print(stats_table(stats))


@app.command()
def sleep(
    ctx: typer.Context,
    phase: Annotated[str | None, typer.Option(
        metavar="NAME",
        help="Run one phase only: sync, decay, tidy, lessons, consolidate, govern.")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
    full: Annotated[bool, typer.Option(
        "--full", help="Look at every memory, not only what changed since the last sleep.")
    ] = False,
) -> None:
    """Maintenance: sync, decay (archive the weak), tidy (expired, overdue), lessons,
    consolidate (merge duplicates, gists), govern."""
    """Maintenance: sync, decay (archive the weak), tidy (expired, overdue), consolidate
    (merge near-duplicates, gists of settled episodes), govern."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        report = mem.sleep(phase, full=full)
        if d.json:
            emit(report.to_dict())
            return
        table = Table()
        for name in ("phase", "examined", "changed", "seconds", "note"):
            table.add_column(name, overflow="fold")
        for p in report.phases:
            changed = ", ".join(f"{k} {n}" for k, n in p.counts().items()) or "-"
            table.add_row(p.phase, str(p.examined), changed, f"{p.seconds:.3f}", Text(p.note))
        for name, why in report.skipped.items():
            table.add_row(name, "-", "-", "-", Text(f"skipped: {why}"))
        out().print(table)
        out().print(Text(f"{report.mode} sleep, {report.visited} memories visited"))


@app.command()
def explain(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Show a memory's strength: layer, retention, decay rate, priority, half-life, weight."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        strength = mem.explain(id_or_uri)
        if d.json:
            emit(strength.to_dict())
            return
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column("field", style="bold", no_wrap=True)
        table.add_column("value", overflow="fold")
        for name, value in strength.to_dict().items():
            table.add_row(name.replace("_", " "), Text(plain(value)))
        out().print(table)
        out().print(Text(str(strength)))


@app.command()
def export(
    ctx: typer.Context,
    file: Annotated[str | None, typer.Argument(
        metavar="FILE", help="Output file; stdout when omitted or '-'.", show_default=False,
    )] = None,
    all_scopes: Annotated[bool, typer.Option(
        "--all-scopes", help="Every user and agent, not only the current scope.")] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="jsonl (lossless), memory-md (the zoned MEMORY.md) "
        "or agents-md (the rules, AGENTS.md style).")] = "jsonl",
    uris: Annotated[bool, typer.Option(
        "--uris", help="memory-md: add each memory's URI as a comment.")] = False,
) -> None:
    """Export memories, their vectors and event logs as JSONL (lossless; `import` reads it)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    to_stdout = file is None or file == "-"
    if fmt != "jsonl":
        export_markdown(d, fmt, None if to_stdout else str(file), uris, all_scopes)
        return
    with guarded(d), open_memory(d) as mem:
        if to_stdout:
            n = mem.export(sys.stdout, all_scopes=all_scopes)
            sys.stdout.flush()
        else:
            n = export_to_file(mem, str(file), all_scopes)
        if d.json and not to_stdout:
            emit({"exported": n, "path": file})
        else:
            err().print(Text(f"exported {n} memories" + ("" if to_stdout else f" to {file}")))


def export_markdown(d: Door, fmt: str, file: str | None, uris: bool, all_scopes: bool) -> None:
    if fmt not in ("memory-md", "agents-md"):
        raise typer.BadParameter("one of jsonl, memory-md, agents-md", param_hint="--format")
    if all_scopes:
        raise typer.BadParameter("--all-scopes is for jsonl only", param_hint="--all-scopes")
    with guarded(d), open_memory(d) as mem:
        text = mem.export_memory_md(uris=uris) if fmt == "memory-md" else mem.agents_md()
        if file is None:
            typer.echo(text, nl=False)
            return
        try:
            Path(file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise typer.BadParameter(f"cannot write {file}: {exc.strerror}",
                                     param_hint="FILE") from None
        if d.json:
            emit({"format": fmt, "path": file, "characters": len(text)})
        else:
            err().print(Text(f"wrote {fmt} ({len(text):,} characters) to {file}"))


def export_to_file(mem: engramdb.Memory, file: str, all_scopes: bool) -> int:
    try:
        fp = open(file, "w", encoding="utf-8")
    except OSError as exc:
        raise typer.BadParameter(f"cannot write {file}: {exc.strerror}",
                                 param_hint="FILE") from None
    with fp:
        return mem.export(fp, all_scopes=all_scopes)


@app.command("import")
def import_cmd(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A JSONL export; '-' reads stdin.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Import a JSONL export, all or nothing.

    Memories keep their user and agent; known ids are skipped; other embedders' vectors are redone.
    """
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        text = read_file(file)
        with open_memory(d) as mem, progress_bar("importing") as update:
            counts = mem.import_(io.StringIO(text), progress=update)
            done = counts["imported"] + counts["skipped"]
            if done:
                update(done, done)  # the engine reports imported records only, not skipped ones
        if d.json:
            emit(counts)
        else:
            out().print(Text(", ".join(f"{name} {n}" for name, n in counts.items())))


@app.command()
def boot(
    ctx: typer.Context,
    budget: Annotated[int | None, typer.Option(
        metavar="N", help="At most this many tokens (the configured encoding); the order decides "
        "what stays.",
    )] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """What an agent loads at start: P0 memories, core://agent/ and core://user/ memories,
    then the URIs listed in the memory at system://boot."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        loaded = mem.boot(budget=budget)
        if d.json:
            emit(loaded.to_dict())
            return
        if loaded.memories:
            out().print(records_table(loaded.memories, show_layer=False))
        cut = " (cut short by the budget)" if loaded.truncated else ""
        err().print(Text(f"{len(loaded.memories)} memories, about {loaded.tokens} tokens{cut}"))
        for uri in loaded.missing:
            err().print(Text(f"missing: {uri}"))


@app.command()
def snapshot(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="The snapshot file to write.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Write the whole scope (every layer, vectors, event logs) to FILE; `restore-snapshot`
    brings the scope back to it."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        parent = Path(file).expanduser().parent
        if not parent.is_dir():
            raise typer.BadParameter(f"cannot write {file}: {parent} is not a directory",
                                     param_hint="FILE")
        n = mem.snapshot(Path(file).expanduser())
        scope = mem.default_scope
        if d.json:
            emit({"memories": n, "path": file, "user": scope.user, "agent": scope.agent})
        else:
            out().print(Text(f"snapshot of {n} memories of user={scope.user} "
                             f"agent={scope.agent} written to {file}"))


@app.command("restore-snapshot")
def restore_snapshot(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A snapshot; '-' reads stdin.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Replace everything the scope holds with a snapshot of it, in one transaction."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        text = read_file(file)
        with open_memory(d) as mem:
            counts = mem.restore_snapshot(io.StringIO(text))
        if d.json:
            emit(counts)
        else:
            out().print(Text(", ".join(f"{name} {n}" for name, n in counts.items())))


@app.command("mcp")
def mcp_cmd(
    ctx: typer.Context,
    http: Annotated[bool, typer.Option(
        "--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option(metavar="HOST", help="With --http: the address to bind.")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="With --http: the port.")] = 8765,
    scope_per_call: Annotated[bool, typer.Option(
        "--scope-per-call", help="Let each tool call name its user and agent (else the "
        "server's scope only); also ENGRAMDB_MCP_SCOPE_PER_CALL=1.")] = False,
    snapshots: Annotated[str | None, typer.Option(
        metavar="DIR", help="Folder of the snapshot tool; else $ENGRAMDB_SNAPSHOT_DIR, else "
        "<db file>.snapshots/.", show_default=False)] = None,
    keys: Annotated[bool, typer.Option(
        "--keys", help="With --http: every request needs an API key (engramdb keys create), "
        "whose scope and role it acts with; also ENGRAMDB_MCP_KEYS=1.")] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Serve this memory to agents over MCP (stdio by default; see docs/mcp.md)."""
    from engramdb.mcp import Options, serve

    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        serve(Options(d.db, d.user, d.agent, d.embedder, scope_per_call, snapshots, keys),
              http=http, host=host, port=port)
# ---------------------------------------------------------------- attention: goals, procedures,
# focus, learned rules, MEMORY.md (engine/goals.py)

goal_app = typer.Typer(help="The goal stack: start, pause, resume, done, note, list.",
                       no_args_is_help=True)
procedure_app = typer.Typer(help="Procedures: steps with trigger words and a confidence.",
                            no_args_is_help=True)
app.add_typer(goal_app, name="goal")
app.add_typer(procedure_app, name="procedure")
Texts = Annotated[list[str] | None, typer.Option(metavar="TEXT")]
GoalId = Annotated[str | None, typer.Argument(
    metavar="[ID]", help="A goal id; default the active goal.", show_default=False)]


def show_goal(goal: Any, d: Door) -> None:
    if d.json:
        emit(goal.to_dict())
        return
    out().print(Text(f"{goal.status.value:<7} {goal.id}  {goal.title}"))
    for name in ("constraints", "open_loops", "evidence"):
        for item in getattr(goal, name):
            out().print(Text(f"        {name.rstrip('s').replace('_', ' ')}: {item}"))


@goal_app.command("start")
def goal_start(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(metavar="TITLE", help="What the goal is.")],
    constraint: Texts = None, loop: Texts = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Start a goal (--constraint, --loop repeatable); the active one pauses under it."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_start(title, constraints=constraint, open_loops=loop), d)


@goal_app.command("pause")
def goal_pause(ctx: typer.Context, goal_id: GoalId = None, db: Db = None, user: User = None,
               agent: Agent = None, embedder: EmbedderName = None,
               as_json: AsJson = False) -> None:
    """Pause the active goal (or ID)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_pause(goal_id), d)


@goal_app.command("resume")
def goal_resume(
    ctx: typer.Context, goal_id: Annotated[str, typer.Argument(metavar="ID")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Make a paused goal active again."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_resume(goal_id), d)


@goal_app.command("done")
def goal_done(ctx: typer.Context, goal_id: GoalId = None, evidence: Texts = None,
              db: Db = None, user: User = None, agent: Agent = None,
              embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """Complete the active goal (or ID), with --evidence; its parent goal resumes."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_done(goal_id, evidence=evidence), d)


@goal_app.command("note")
def goal_note(ctx: typer.Context, goal_id: GoalId = None, evidence: Texts = None,
              loop: Texts = None, close: Texts = None, constraint: Texts = None,
              db: Db = None, user: User = None, agent: Agent = None,
              embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """Add --evidence, --loop or --constraint to a goal, or --close an open loop."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_note(goal_id, evidence=evidence, open_loops=loop, close_loops=close,
                                constraints=constraint), d)


@goal_app.command("list")
def goal_list(ctx: typer.Context, status: Texts = None, db: Db = None, user: User = None,
              agent: Agent = None, embedder: EmbedderName = None,
              as_json: AsJson = False) -> None:
    """List goals, oldest first (--status active|paused|done, repeatable)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        goals = mem.goals(status)
        if d.json:
            emit([g.to_dict() for g in goals])
            return
        for goal in goals:
            show_goal(goal, d)
        if not goals:
            err().print(Text("no goals"))


def show_procedure(proc: Any) -> None:
    out().print(Text(f"{proc.title}  ({proc.uri}, confidence {proc.confidence:.2f}, "
                     f"{proc.successes} ok / {proc.failures} failed)"))
    out().print(Text(f"  triggers: {', '.join(proc.triggers)}"))
    for i, step in enumerate(proc.steps, 1):
        out().print(Text(f"  {i}. {step}"))


@procedure_app.command("add")
def procedure_add(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(metavar="TITLE", help="What the procedure does.")],
    step: Texts = None, trigger: Texts = None,
    confidence: Annotated[float | None, typer.Option(metavar="0..1")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Add or replace a procedure: --step and --trigger are repeatable (in order)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        proc = mem.add_procedure(title, step or [], trigger or [], confidence=confidence)
        emit(proc.to_dict()) if d.json else show_procedure(proc)


@procedure_app.command("list")
def procedure_list(ctx: typer.Context, db: Db = None, user: User = None, agent: Agent = None,
                   embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """List the procedures."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        procs = mem.procedures()
        if d.json:
            emit([p.to_dict() for p in procs])
            return
        for proc in procs:
            show_procedure(proc)


@procedure_app.command("outcome")
def procedure_outcome(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI")],
    result: Annotated[str, typer.Argument(metavar="success|failure")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Record that following a procedure worked (success) or not (failure)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    if result not in ("success", "failure"):
        raise typer.BadParameter("must be success or failure", param_hint="RESULT")
    with guarded(d), open_memory(d) as mem:
        proc = mem.procedure_outcome(id_or_uri, result == "success")
        emit(proc.to_dict()) if d.json else show_procedure(proc)


@app.command()
def focus(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What the agent faces now.")],
    k: Annotated[int, typer.Option("-k", metavar="N", help="Memories at most.")] = 5,
    audit: Annotated[bool, typer.Option("--audit", help="Print every candidate's score "
                                        "breakdown, the excluded ones too.")] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The attention workspace: active goal, triggered procedures, chosen memories."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        ws = mem.focus(query, k=k)
        if d.json:
            emit(ws.to_dict())
            return
        out().print(Text(ws.render() or "nothing in focus"))
        if audit:
            for s in ws.audit:
                parts = " ".join(f"{n}={v:.2f}" for n, v in s.terms.items())
                mark = "IN " if s.included else "OUT"
                out().print(Text(f"{mark} {s.score:+.3f} {short(s.memory.content, 60)} | "
                                 f"{parts} | {s.reason}"))


@app.command()
def learn(
    ctx: typer.Context,
    mistake: Annotated[str, typer.Argument(metavar="MISTAKE", help="What went wrong.")],
    rule: Annotated[str, typer.Argument(metavar="RULE", help="The rule that avoids it.")],
    file: Annotated[str | None, typer.Option(
        metavar="FILE", help="Also append the rule to this AGENTS.md-style file.")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Learn a rule from a mistake, once (a rule saying the same is not added again)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        learned = mem.learn_from_mistake(mistake, rule, file=file)
        if d.json:
            emit(learned.to_dict())
            return
        said = "learned" if learned.added else "already known"
        out().print(Text(f"{said}: {learned.memory.content} ({learned.memory.uri})"))
        if file:
            out().print(Text(f"{file}: {'appended' if learned.file_added else 'already there'}"))


@app.command()
def migrate(
    ctx: typer.Context,
    path: Annotated[str, typer.Argument(metavar="PATH", help="A MEMORY.md, a Markdown file or "
                                        "a folder of notes and dated journals.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would happen; write "
                                          "nothing.")] = False,
    backup: Annotated[str | None, typer.Option(
        metavar="FILE", help="Where the snapshot taken first goes (default: next to the "
        "database).")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Import Markdown memory as typed memories with URIs and lifecycles (backup first)."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        plan = mem.migrate(path, dry_run=dry_run, backup=backup)
        if d.json:
            emit(plan.to_dict())
            return
        if dry_run:
            for item in plan.planned:
                merged = f" (+{len(item.merged)} merged)" if item.merged else ""
                out().print(Text(f"{item.entry.where:<24} {item.zone:<9} {item.kind.value:<10} "
                                 f"{short(item.entry.text, 70)}{merged}"))
        for problem in plan.problems:
            err().print(Text(f"problem: {problem}"))
        if plan.backup:
            err().print(Text(f"backup: {plan.backup}"))
        actions = ", ".join(f"{k} {n}" for k, n in plan.actions.items())
        out().print(Text(("dry run: " if dry_run else "") + plan.summary()
                         + (f"; {actions}" if actions else "")))
from . import cli_session  # noqa: E402, F401 - registers `context` and `session ...` on app

# ---------------------------------------------------------------- the HTTP door (docs/http.md)


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8765,
    workers: Annotated[int, typer.Option(metavar="N", help="Worker processes, all on the "
                                         "same file.")] = 1,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Serve the HTTP API (/v1), its docs (/docs) and the web page (/); needs API keys."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        make_parent(d.db)
        from engramdb.server import serve as run_server

        run_server(d.db, embedder=d.embedder, host=host, port=port, workers=workers)


keys_app = typer.Typer(help="API keys for `engramdb serve`: create, list, revoke.",
                       no_args_is_help=True)
app.add_typer(keys_app, name="keys")


def key_table(keys: list[engramdb.model.ApiKey]) -> Table:
    table = Table()
    for name in ("id", "user", "agent", "role", "name", "created", "revoked"):
        table.add_column(name, no_wrap=name in ("id", "role", "created", "revoked"))
    for k in keys:
        table.add_row(k.id, Text(k.user), Text(k.agent), k.role.value, Text(k.name),
                      when(k.created_at), when(k.revoked_at))
    return table


@keys_app.command("create")
def keys_create(
    ctx: typer.Context,
    role: Annotated[str, typer.Option(metavar="ROLE", help="read, write or admin (any "
                                      "scope).")] = "read",
    name: Annotated[str, typer.Option(metavar="TEXT", help="A label, e.g. who holds it.")] = "",
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Create a key bound to --user/--agent; its secret is printed once, never stored."""
    from engramdb.keys import Keys

    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        make_parent(d.db)
        with open_memory(d) as mem:
            key, secret = Keys(mem).create(role=role, name=name)
        if d.json:
            emit({"key": key.to_dict(), "secret": secret})
        else:
            out().print(Text(f"key {key.id} role={key.role.value} user={key.user} "
                             f"agent={key.agent}\n{secret}"))
            err().print("This secret is shown once: store it now.")


@keys_app.command("list")
def keys_list(ctx: typer.Context, db: Db = None, user: User = None, agent: Agent = None,
              embedder: EmbedderName = None, as_json: AsJson = False) -> None:
    """Every key (of one scope when --user or --agent is given); never the secrets."""
    from engramdb.keys import Keys

    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        with open_memory(d) as mem:
            keys = Keys(mem).list(user=d.user, agent=d.agent)
        if d.json:
            emit([k.to_dict() for k in keys])
        else:
            out().print(key_table(keys))


@keys_app.command("revoke")
def keys_revoke(
    ctx: typer.Context,
    key_id: Annotated[str, typer.Argument(metavar="KEY_ID", help="The id `keys list` shows.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Revoke a key for good: every later request with it gets 401."""
    from engramdb.keys import Keys

    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        with open_memory(d) as mem:
            key = Keys(mem).revoke(key_id)
        if d.json:
            emit(key.to_dict())
        else:
            out().print(Text(f"revoked {key.id} (user={key.user} agent={key.agent})"))
# ---------------------------------------------------------------- links (recall/graph.py)


def links_table(links: list[Link]) -> Table:
    table = Table()
    for col in ("source", "relation", "target", "weight", "updated"):
        table.add_column(col, no_wrap=col != "relation")
    for link in links:
        table.add_row(link.source, link.relation, link.target, f"{link.weight:.2f}",
                      when(link.updated_at))
    return table


def path_hits(hits: list[Hit], as_json: bool) -> None:
    if as_json:
        emit([h.to_dict() for h in hits])
        return
    table = Table()
    for col in ("#", "score", "content", "how", "id"):
        table.add_column(col, ratio=1 if col == "content" else None,
                         overflow="fold" if col == "content" else "ellipsis")
    for rank, hit in enumerate(hits, start=1):
        table.add_row(str(rank), f"{hit.score:.3f}", short(hit.memory.content),
                      Text("; ".join(hit.explanation.notes)), hit.memory.id)
    out().print(table)
    if not hits:
        err().print(Text("nothing is linked to it"))


@app.command()
def link(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="A", help="Memory id or URI the link leaves.")],
    target: Annotated[str, typer.Argument(metavar="B", help="Memory id or URI it reaches.")],
    relation: Annotated[str, typer.Option(
        metavar="RELATION", help="related, caused, reminds, evolved, contradicts, supersedes, "
        "gist_of, derived_from, associated.")] = "related",
    weight: Annotated[float, typer.Option(metavar="W", help="From 0 to 1.")] = 0.5,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Link memory A to memory B ("A caused B"); linking again sets the weight."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        made = mem.link(source, target, relation=relation, weight=weight)
        if d.json:
            emit(made.to_dict())
        else:
            out().print(f"linked {made.source} {made.relation} {made.target} "
                        f"(weight {made.weight:.2f})")


@app.command()
def unlink(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="A", help="Memory id or URI.")],
    target: Annotated[str, typer.Argument(metavar="B", help="Memory id or URI.")],
    relation: Annotated[str | None, typer.Option(
        metavar="RELATION", help="Only links of this relation (default: all).")] = None,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Remove the links between A and B, both ways."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        removed = mem.unlink(source, target, relation=relation)
        if d.json:
            emit({"removed": removed})
        else:
            out().print(f"removed {removed} link(s)")


@app.command("links")
def links_cmd(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """List every link from or to a memory."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        found = mem.links(id_or_uri)
        if d.json:
            emit([x.to_dict() for x in found])
        else:
            out().print(links_table(found))


@app.command()
def related(
    ctx: typer.Context,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")],
    hops: Annotated[int, typer.Option(metavar="N", help="Links away, 1 to 3.")] = 2,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Memories linked to this one (both ways), strongest path first."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        path_hits(mem.related(id_or_uri, hops=hops), d.json)


@app.command()
def path(
    ctx: typer.Context,
    uri: Annotated[str, typer.Argument(metavar="URI", help="A URI, or a prefix ending in /.")],
    hops: Annotated[int, typer.Option(metavar="N", help="Then links away, 0 to 3.")] = 0,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """The memory at URI (or every memory under a prefix), then what is linked to it."""
    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d), open_memory(d) as mem:
        path_hits(mem.recall_path(uri, hops=hops), d.json)
@app.command()
def ingest(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="Messages as JSON or JSON lines; '-' reads stdin.")],
    session: Annotated[str | None, typer.Option(
        "--session", help="The conversation's id (default: the file's, else a new one).")] = None,
    at: Annotated[str | None, typer.Option(
        "--at", metavar="TIME", help="When messages without their own 'at' were said.")] = None,
    extractor: Annotated[str, typer.Option(
        "--extractor", help="auto, rules or llm (auto: the LLM when ENGRAMDB_LLM_URL is set).")
    ] = "auto",
    no_turns: Annotated[bool, typer.Option(
        "--no-turns", help="Do not keep each turn as an event; store only what is extracted.")
    ] = False,
    db: Db = None, user: User = None, agent: Agent = None, embedder: EmbedderName = None,
    as_json: AsJson = False,
) -> None:
    """Remember a conversation: its turns as events and the facts, preferences, lessons and
    pending items extracted from them, all or nothing."""
    from .io.messages import read_conversation

    d = door(ctx, db, user, agent, embedder, as_json)
    with guarded(d):
        convo = read_conversation(read_file(file), "stdin" if file == "-" else file)
        when_ = opt_time(at, "--at")
        with open_memory(d) as mem, progress_bar("ingesting") as update:
            report = mem.ingest(convo.messages, session=session or convo.session, at=when_,
                                extractor=extractor, keep_turns=not no_turns, progress=update)
        if d.json:
            emit(report.to_dict())
            return
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
            out().print(Text(f"{r.action.value} {r.memory.id} kind={r.memory.kind.value} "
                             f"turn={r.memory.source_turn}: ") + short(r.memory.content))


from . import cli_more  # noqa: E402, F401 - update, sources, count, procedure triggered


def main() -> None:
    app(prog_name="engramdb")


if __name__ == "__main__":
    main()

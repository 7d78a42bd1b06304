"""Looking after the memory file: init, status, sleep (and its alias reflect), migrate,
index-scope, check-uris, and the API keys (`engramdb keys ...`). status asks a running
`engramdb serve` on the same file when there is one (remote.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from .guard import guarded, open_memory
from .options import Door, command
from .remote import open_served
from .render import (
    emit,
    err,
    key_table,
    out,
    short,
    stats_table,
)

if TYPE_CHECKING:
    from engramdb.dynamics.sleep import SleepReport

commands = typer.Typer()
keys_app = typer.Typer(help="API keys for `engramdb serve`: create, list, revoke.",
                       no_args_is_help=True)


@command(commands)
def init(d: Door) -> None:
    """Create (or open) the memory file; print its path and embedder."""
    with guarded(d):
        with open_memory(d, create=True) as mem:
            stats = mem.stats()
        path = (stats.path if stats.path == ":memory:" or "://" in stats.path
                else str(Path(stats.path).resolve()))
        info = {"path": path, "embedder": stats.embedder, "dimensions": stats.dimensions}
        if d.json:
            emit(info)
        else:
            out().print(Text(f"{path}\nembedder {stats.embedder} ({stats.dimensions} dimensions)"))


@command(commands)
def status(d: Door) -> None:
    """Show counts by layer and kind, events, the embedder and the file's path."""
    with guarded(d), open_served(d) as mem:
        stats = mem.stats()
        if d.json:
            emit(stats.to_dict())
        else:
            out().print(stats_table(stats))


Phase = Annotated[str | None, typer.Option(
    metavar="NAME", help="Run one phase only: sync, decay, tidy, lessons, consolidate, govern.")]
Full = Annotated[bool, typer.Option(
    "--full", help="Look at every memory, not only what changed since the last sleep.")]


Everything = Annotated[str | None, typer.Argument(
    metavar="all", show_default=False,
    help="all: every scope in the database, every memory (as --full): what `reflect all` "
    "meant in the TypeScript sleep-cycle memory server. Without it: this scope, incrementally.")]


@command(commands)
def sleep(d: Door, target: Everything = None, phase: Phase = None, full: Full = False) -> None:
    """Maintenance: sync, decay (archive the weak), tidy (expired, overdue), lessons,
    consolidate (merge near-duplicates, gists of settled episodes), govern."""
    run_sleep(d, target, phase, full, reflect=False)


@command(commands)
def reflect(d: Door, target: Everything = None, phase: Phase = None, full: Full = False) -> None:
    """The same maintenance as `sleep` (the design's name for it), the same report;
    `reflect all` sleeps every scope in full."""
    run_sleep(d, target, phase, full, reflect=True)


def run_sleep(d: Door, target: str | None, phase: str | None, full: bool,
              reflect: bool) -> None:
    if target is not None and target.strip().lower() != "all":
        raise typer.BadParameter(f"the only target is 'all' (every scope), got {target!r}",
                                 param_hint="all")
    with guarded(d), open_memory(d) as mem:
        if target is not None:
            reports = mem.sleep_all(phase, full=True)
        else:
            reports = [(mem.reflect if reflect else mem.sleep)(phase, full=full)]
        if d.json:
            emit(reports[0].to_dict() if target is None
                 else {"scopes": [r.to_dict() for r in reports]})
            return
        for report in reports:
            show_sleep(report, target is not None)
        if target is not None and not reports:
            out().print(Text("no scope holds a memory yet: nothing to sleep"))


def show_sleep(report: SleepReport, named: bool) -> None:
    table = Table(title=f"user {report.user}, agent {report.agent}" if named else None)
    for name in ("phase", "examined", "changed", "seconds", "note"):
        table.add_column(name, overflow="fold")
    for p in report.phases:
        changed = ", ".join(f"{k} {n}" for k, n in p.counts().items()) or "-"
        table.add_row(p.phase, str(p.examined), changed, f"{p.seconds:.3f}", Text(p.note))
    for name, why in report.skipped.items():
        table.add_row(name, "-", "-", "-", Text(f"skipped: {why}"))
    out().print(table)
    out().print(Text(f"{report.mode} sleep, {report.visited} memories visited"))


@command(commands)
def migrate(
    d: Door,
    path: Annotated[str, typer.Argument(metavar="PATH", help="A MEMORY.md, a Markdown file or "
                                        "a folder of notes and dated journals.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would happen; write "
                                          "nothing.")] = False,
    backup: Annotated[str | None, typer.Option(
        metavar="FILE", help="Where the snapshot taken first goes (default: next to the "
        "database).")] = None,
) -> None:
    """Import Markdown memory as typed memories with URIs and lifecycles (backup first)."""
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


@command(commands)
def index(
    d: Door,
    wait: Annotated[bool, typer.Option("--wait", help="Compute every pending vector now (all "
                                       "scopes) and return when none is left.")] = False,
) -> None:
    """Vectors that deferred writes (ENGRAMDB_EMBED=deferred) left pending: how many wait in
    this scope; with --wait, compute them all now."""
    with guarded(d), open_memory(d) as mem:
        computed = mem.flush() if wait else 0
        pending = mem.stats().pending_vectors
    if d.json:
        emit({"computed": computed, "pending": pending})
    elif wait:
        out().print(f"computed {computed} vectors; {pending} pending")
    else:
        out().print(f"{pending} pending" + (" (engramdb index --wait computes them now)"
                                            if pending else ""))


@command(commands, "index-scope")
def index_scope(
    d: Door,
    drop: Annotated[bool, typer.Option("--drop", help="Drop the scope's index instead.")
                    ] = False,
) -> None:
    """PostgreSQL: give a large scope its own vector index (see docs/scale-out.md)."""
    with guarded(d), open_memory(d) as mem:
        done = mem.index_scope(drop=drop)
    if d.json:
        emit(done)
    elif drop:
        out().print("dropped" if done["dropped"] else "this scope had no index of its own")
    else:
        out().print(f"built in {done['built_in_s']:.1f} s")


@command(commands, "check-uris")
def check_uris(
    d: Door,
    all_scopes: Annotated[bool, typer.Option(
        "--all-scopes", help="Every user and agent, not only the current scope.")] = False,
) -> None:
    """List stored memories whose URI today's rules refuse ('.' or '..' segments, empty
    segments, control characters), from files an older engramdb wrote; exit 1 when any is
    found. Fix one with `update ID --uri NEW` or `forget ID`."""
    with guarded(d), open_memory(d) as mem:
        bad = mem.check_uris(all_scopes=all_scopes)
    if d.json:
        emit({"bad": [b.to_dict() for b in bad], "count": len(bad)})
    elif bad:
        table = Table("user", "agent", "uri", "layer", "problem")
        table.add_column("id", no_wrap=True)
        for b in bad:
            table.add_row(b.user, b.agent, repr(b.uri)[1:-1], b.layer, b.problem, b.id)
        out().print(table)
    else:
        out().print("every stored URI is valid")
    if bad:
        raise typer.Exit(1)


@command(keys_app, "create")
def keys_create(
    d: Door,
    role: Annotated[str, typer.Option(metavar="ROLE", help="read, write or admin (any "
                                      "scope).")] = "read",
    name: Annotated[str, typer.Option(metavar="TEXT", help="A label, e.g. who holds it.")] = "",
) -> None:
    """Create a key bound to --user/--agent; its secret is printed once, never stored."""
    from engramdb.keys import Keys

    with guarded(d):
        with open_memory(d) as mem:
            key, secret = Keys(mem).create(role=role, name=name)
        if d.json:
            emit({"key": key.to_dict(), "secret": secret})
        else:
            out().print(Text(f"key {key.id} role={key.role.value} user={key.user} "
                             f"agent={key.agent}\n{secret}"))
            err().print("This secret is shown once: store it now.")


@command(keys_app, "list")
def keys_list(d: Door) -> None:
    """Every key (of one scope when --user or --agent is given); never the secrets."""
    from engramdb.keys import Keys

    with guarded(d):
        with open_memory(d) as mem:
            keys = Keys(mem).list(user=d.user, agent=d.agent)
        if d.json:
            emit([k.to_dict() for k in keys])
        else:
            out().print(key_table(keys))


@command(keys_app, "revoke")
def keys_revoke(
    d: Door,
    key_id: Annotated[str, typer.Argument(metavar="KEY_ID", help="The id `keys list` shows.")],
) -> None:
    """Revoke a key for good: every later request with it gets 401."""
    from engramdb.keys import Keys

    with guarded(d):
        with open_memory(d) as mem:
            key = Keys(mem).revoke(key_id)
        if d.json:
            emit(key.to_dict())
        else:
            out().print(Text(f"revoked {key.id} (user={key.user} agent={key.agent})"))

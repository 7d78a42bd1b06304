"""Moving memories in and out: export, import, boot, snapshot, restore-snapshot."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

import engramdb

from .guard import EXIT_PARTIAL, guarded, open_memory
from .inputs import progress_bar, read_file
from .options import Door, ShowProgress, SkipBad, command
from .render import (
    emit,
    err,
    info,
    out,
    records_table,
)

commands = typer.Typer()


@command(commands)
def export(
    d: Door,
    file: Annotated[str | None, typer.Argument(
        metavar="FILE", help="Output file; stdout when omitted or '-'.", show_default=False,
    )] = None,
    all_scopes: Annotated[bool, typer.Option(
        "--all-scopes", help="Every user and agent, not only the current scope.")] = False,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="jsonl (lossless), memory-md (the zoned MEMORY.md) "
        "or agents-md (the rules, AGENTS.md style).")] = "jsonl",
    uris: Annotated[bool, typer.Option(
        "--uris", help="memory-md: add each memory's URI as a comment.")] = False,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="jsonl: the values the PII policy masked ([email#3f9a...]).")] = False,
) -> None:
    """Export memories, their vectors and event logs as JSONL (lossless; `import` reads it)."""
    to_stdout = file is None or file == "-"
    if fmt != "jsonl":
        export_markdown(d, fmt, None if to_stdout else str(file), uris, all_scopes)
        return
    with guarded(d), open_memory(d) as mem:
        if to_stdout:
            n = mem.export(sys.stdout, all_scopes=all_scopes, reveal=reveal)
            sys.stdout.flush()
        else:
            n = export_to_file(mem, str(file), all_scopes, reveal)
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


def export_to_file(mem: engramdb.Memory, file: str, all_scopes: bool,
                   reveal: bool = False) -> int:
    try:
        fp = open(file, "w", encoding="utf-8")
    except OSError as exc:
        raise typer.BadParameter(f"cannot write {file}: {exc.strerror}",
                                 param_hint="FILE") from None
    with fp:
        return mem.export(fp, all_scopes=all_scopes, reveal=reveal)


@command(commands, "import")
def import_cmd(
    d: Door,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A JSONL export; '-' reads stdin.")],
    skip_bad: SkipBad = False,
    show_progress: ShowProgress = None,
) -> None:
    """Import a JSONL export, all or nothing: a bad line stops it, named with its number and
    reason, and nothing is written. --skip-bad writes the good ones, names each bad line on
    stderr and exits 7.

    Memories keep their user and agent; known ids are skipped; other embedders' vectors are redone.
    """
    with guarded(d):
        text = read_file(file)
        with open_memory(d) as mem, progress_bar("importing", show_progress) as update:
            counts = mem.import_(io.StringIO(text), progress=update, skip_bad=skip_bad)
            done = counts["imported"] + counts["skipped"]
            if done:
                update(done, done)  # the engine reports imported records only, not skipped ones
        show_import(counts, d.json)


def show_import(counts: dict[str, Any], as_json: bool) -> None:
    """The counts on stdout, each bad item on stderr; exit 7 when some were left out."""
    bad = counts.pop("bad", [])
    if as_json:
        emit({**counts, "bad": bad} if bad else counts)
    else:
        shown = {**counts, "bad": len(bad)} if bad else counts
        out().print(Text(", ".join(f"{name} {n}" for name, n in shown.items())))
    for item in bad:
        where = "line" if "line" in item else "item"
        err().print(Text(f"skipped {where} {item[where]}: {item['reason']}"))
    if bad:
        raise typer.Exit(EXIT_PARTIAL)


@command(commands)
def boot(
    d: Door,
    budget: Annotated[int | None, typer.Option(
        metavar="N", help="At most this many tokens (the configured encoding); the order decides "
        "what stays.",
    )] = None,
) -> None:
    """What an agent loads at start: P0 memories, core://agent/ and core://user/ memories,
    then the URIs listed in the memory at system://boot."""
    with guarded(d), open_memory(d) as mem:
        loaded = mem.boot(budget=budget)
        if d.json:
            emit(loaded.to_dict())
            return
        if loaded.memories:
            names = mem.abbreviate([r.id for r in loaded.memories])
            out().print(records_table(loaded.memories, False, names))
        cut = " (cut short by the budget)" if loaded.truncated else ""
        info(d, f"{len(loaded.memories)} memories, about {loaded.tokens} tokens{cut}")
        for uri in loaded.missing:
            err().print(Text(f"missing: {uri}"))
        if loaded.still_true:
            out().print(Text(loaded.still_true_title))
            for rec in loaded.still_true:
                out().print(Text(f"- {rec.content} (id {rec.id})"))


@command(commands)
def snapshot(
    d: Door,
    file: Annotated[str, typer.Argument(metavar="FILE", help="The snapshot file to write.")],
) -> None:
    """Write the whole scope (every layer, vectors, event logs) to FILE; `restore-snapshot`
    brings the scope back to it."""
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


@command(commands, "restore-snapshot")
def restore_snapshot(
    d: Door,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A snapshot; '-' reads stdin.")],
) -> None:
    """Replace everything the scope holds with a snapshot of it, in one transaction."""
    with guarded(d):
        text = read_file(file)
        with open_memory(d) as mem:
            counts = mem.restore_snapshot(io.StringIO(text))
        if d.json:
            emit(counts)
        else:
            out().print(Text(", ".join(f"{name} {n}" for name, n in counts.items())))

"""Errors and exit codes of the `engramdb` commands, and opening the memory.

Exit codes: 0 ok, 1 unexpected error, 2 usage error, 3 not found, 4 invalid input, 5 conflict,
6 store or config error, 7 done in part: an import with --skip-bad left bad items out and
wrote the rest (docs/cli.md)."""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

import engramdb
from engramdb.config import env_name
from engramdb.errors import ConfigError, Conflict, EngramError, Invalid, NotFound, StoreError

from .options import Door
from .render import emit

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_PARTIAL = 0, 1, 2, 7
EXIT_CODES: dict[type[EngramError], int] = {
    NotFound: 3, Invalid: 4, Conflict: 5, StoreError: 6, ConfigError: 6,
}


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


def open_memory(d: Door, *, create: bool = False) -> engramdb.Memory:
    """The memory the options name. A --db (or $ENGRAMDB_URL) file that does not exist is
    refused unless ``create`` (`init`) or --create: see ``check_exists``."""
    make_parent(check_exists(d, create=create))
    return engramdb.open(d.db, embedder=d.embedder, user=d.user, agent=d.agent)


def check_exists(d: Door, *, create: bool = False) -> str | None:
    """Refuse (StoreError, exit 6) a --db or $ENGRAMDB_URL path that does not exist, unless
    ``create`` or --create: a mistyped path would otherwise open a new, empty memory and every
    command would answer "no memory". The per-user default file (neither given), ":memory:"
    and postgresql:// URLs are not checked. Returns the file whose folder may be made (when
    creating), else None."""
    creating = create or d.create
    target, source = d.db, "--db"
    if not target:
        target = engramdb.Config.load().url
        env = env_name("url")
        source = f"${env}" if env else "the config file's url"
    if not target or target == ":memory:" or "://" in target:
        return None
    if not creating and not Path(target).exists():
        raise StoreError(
            f"no memory file at {Path(target).absolute()} ({source} {target}): check the path; "
            f"to make a new one run `engramdb --db {target} init` or add --create")
    return target if creating else None


def make_parent(db: str | None) -> None:
    if not db or db == ":memory:" or "://" in db:
        return
    parent = Path(db).expanduser().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create directory {parent}: {exc.strerror}") from None


def confirmed(question: str) -> bool:
    """Ask on stderr; no answer (end of input) is a no."""
    try:
        return typer.confirm(question, err=True)
    except typer.Abort:
        return False

"""Input of the `engramdb` commands: times, JSON, text and files ('-' = stdin), progress."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from engramdb.clock import parse_time
from engramdb.errors import Invalid

from .render import err


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
def progress_bar(label: str, show: bool | None = None) -> Iterator[Callable[[int, int], None]]:
    """A progress(done, total) callback drawing a bar on stderr from its first call on;
    ``show`` None: only when stderr is a terminal (a script's log gets no bar)."""
    if not (sys.stderr.isatty() if show is None else show):
        yield lambda done, total: None
        return
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

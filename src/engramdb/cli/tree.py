"""The command tree a run needs: the command its arguments name, not every command.

Typer builds every command of the app (each one's parameters read from its function's
signature) before it parses the arguments: ~0.1 s of CPU at every start, for ~60 commands.
``lean(app, args)`` is the app with only the command the arguments name after the global
options (a group such as ``goal`` whole), so its parse, help and errors are the whole app's.
The whole app is returned when no command is named (``engramdb``, ``engramdb --help``), when
something other than the global options comes first, when the name is not a command (the
error lists the commands), and for shell completion."""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence

import typer
from typer.main import get_command_name, solve_typer_info_defaults

VALUED = ("--db", "--user", "--agent", "--embedder")   # the global options that take a value
FLAGS = ("--create", "--json", "-v", "--verbose", "--local")


def named_command(args: Sequence[str]) -> str | None:
    """The command name the arguments give after the global options, or None."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in VALUED:
            skip = True
        elif arg in FLAGS or arg.startswith(tuple(f"{o}=" for o in VALUED)):
            continue
        elif arg.startswith("-"):   # --help, --version, completion, a mistake: the whole app
            return None
        else:
            return arg
    return None


def lean(app: typer.Typer, args: Sequence[str], prog_name: str) -> typer.Typer:
    """``app`` with only the command ``args`` name (see the module's note)."""
    complete = f"_{prog_name}_COMPLETE".replace("-", "_").upper()
    name = None if os.environ.get(complete) else named_command(args)
    if name is None:
        return app
    groups = []
    for info in app.registered_groups:
        group = solve_typer_info_defaults(info).name   # as Typer names it
        if group:   # a named group (goal, session, ...): whole or not at all
            if group == name:
                groups.append(info)
            continue
        sub = info.typer_instance   # a group merged into the root: its commands are the root's
        kept = [c for c in sub.registered_commands if _name(c) == name] if sub else []
        if kept:
            sub = copy.copy(sub)
            sub.registered_commands = kept
            info = copy.copy(info)
            info.typer_instance = sub
            groups.append(info)
    commands = [c for c in app.registered_commands if _name(c) == name]
    if not groups and not commands:
        return app
    out = copy.copy(app)
    out.registered_groups, out.registered_commands = groups, commands
    return out


def _name(info: typer.models.CommandInfo) -> str | None:
    if info.name:
        return info.name
    return get_command_name(info.callback.__name__) if info.callback else None

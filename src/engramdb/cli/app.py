"""The `engramdb` command: a thin door onto the Memory engine.

Every command takes the global options --db, --create, --user, --agent, --embedder, --json,
-v/--verbose and --local (before or after the command name; options.py). recall, get, list,
remember and status ask a running `engramdb serve` on the same file when there is one (remote.py).
A --db (or $ENGRAMDB_URL) file that does not exist is refused unless the command is `init` or
--create is given. Human output is rich tables on stdout; errors and warnings go to stderr,
informational lines too but only with -v. Exit codes: 0 ok, 1 unexpected error, 2 usage
error, 3 not found, 4 invalid input, 5 conflict, 6 store or config error. `engramdb
--install-completion` installs shell completion. See docs/cli.md.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import engramdb

from . import admin, agent, attention, entity, io, links, memory, review, serve, session
from .guard import EXIT_OK
from .options import Agent, AsJson, Create, Db, Door, EmbedderName, Local, User, Verbose
from .panels import GroupedHelp
from .quick import Quick, QuickGroup
from .tree import lean


class RootGroup(Quick, GroupedHelp):
    """Commands listed by panel (panels.py); plain option values without pydantic (quick.py)."""


app = typer.Typer(
    name="engramdb", help="Memory for AI agents: remember, recall, inspect one memory file.",
    no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and usage errors: no rich formatter to load (quick start)
    cls=RootGroup,
)


def show_version(value: bool) -> None:
    if value:
        typer.echo(engramdb.__version__)
        raise typer.Exit(EXIT_OK)


@app.callback()
def root(ctx: typer.Context, db: Db = None, create: Create = False, user: User = None,
         agent: Agent = None, embedder: EmbedderName = None, as_json: AsJson = False,
         verbose: Verbose = False, local: Local = False,
         version: Annotated[bool, typer.Option(
             "--version", help="Print the version.", callback=show_version, is_eager=True)]
         = False,
         ) -> None:
    """Memory for AI agents: remember, recall, inspect one memory file."""
    ctx.obj = Door(db, user, agent, embedder, as_json, verbose, create, local)


for group in (admin.commands, memory.commands, io.commands, serve.commands,
              attention.commands, links.commands, session.commands, review.commands,
              agent.commands, entity.commands):
    app.add_typer(group)
app.add_typer(attention.goal_app, name="goal", cls=QuickGroup)
app.add_typer(attention.procedure_app, name="procedure", cls=QuickGroup)
app.add_typer(session.session_app, name="session", cls=QuickGroup)
app.add_typer(admin.keys_app, name="keys", cls=QuickGroup)


def main() -> None:
    """The console script: the app, built with only the command the arguments name
    (tree.py)."""
    lean(app, sys.argv[1:], "engramdb")(prog_name="engramdb")

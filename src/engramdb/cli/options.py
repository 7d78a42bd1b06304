"""The options and arguments of the `engramdb` commands, each defined once.

Every command takes the global options --db, --create, --user, --agent, --embedder, --json,
-v/--verbose and --local, before or after its name. ``command`` registers a function on a
Typer group with those eight options added to its parameters: the function gets them as one
``Door`` (its first parameter), the options given after the command winning over the same
options given before it."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import typer

from engramdb.registry import embedder_names

from .quick import QuickCommand

GLOBAL = "Global options"
Db = Annotated[str | None, typer.Option(
    "--db", metavar="FILE", help="SQLite file or postgresql:// URL; else $ENGRAMDB_URL, else the "
    "per-user default file. The file must exist (init or --create makes it).",
    rich_help_panel=GLOBAL, show_default=False)]
Create = Annotated[bool, typer.Option(
    "--create", help="Create the --db (or $ENGRAMDB_URL) file if it does not exist; without "
    "it, a path that does not exist is refused (a mistyped path would open a new, empty "
    "memory).", rich_help_panel=GLOBAL)]
User = Annotated[str | None, typer.Option(
    "--user", metavar="NAME", help="User scope; else $ENGRAMDB_USER, else 'default'.",
    rich_help_panel=GLOBAL, show_default=False)]
Agent = Annotated[str | None, typer.Option(
    "--agent", metavar="NAME", help="Agent scope; else $ENGRAMDB_AGENT, else 'default'.",
    rich_help_panel=GLOBAL, show_default=False)]
EmbedderName = Annotated[str | None, typer.Option(
    "--embedder", metavar="NAME", help=f"Embedder registry name ({', '.join(embedder_names())}); "
    "else $ENGRAMDB_EMBEDDER, else 'default'.", rich_help_panel=GLOBAL, show_default=False)]
AsJson = Annotated[bool, typer.Option(
    "--json", help="Machine output: one JSON document on stdout.", rich_help_panel=GLOBAL)]
Local = Annotated[bool, typer.Option(
    "--local", help="Open the memory file in this process even when an `engramdb serve` on it "
    "is running (else recall, get, list, remember and status ask that server; also "
    "ENGRAMDB_NO_SERVER=1).", rich_help_panel=GLOBAL)]
Verbose = Annotated[bool, typer.Option(
    "-v", "--verbose", help="Also print informational lines on stderr (how a recall was "
    "planned, token counts, summaries).", rich_help_panel=GLOBAL)]

# ---------------------------------------------------------------- shared by several commands

SkipBad = Annotated[bool, typer.Option(
    "--skip-bad", help="Write the good items, name each bad one (line or item number and "
    "why) on stderr, and exit 7; without it one bad item imports nothing.")]
ShowProgress = Annotated[bool | None, typer.Option(
    "--progress/--no-progress", help="A progress bar on stderr; default: when stderr is a "
    "terminal.", show_default=False)]
IdOrUri = Annotated[str, typer.Argument(metavar="ID_OR_URI", help="A memory id or URI.")]
Reason = Annotated[str | None, typer.Option(metavar="TEXT", help="Why, kept in the event log.")]
Kinds = Annotated[list[str] | None, typer.Option(
    "--kind", "--type", metavar="KIND", help="Only this kind (repeatable; --type is the same).")]
UriPrefix = Annotated[str | None, typer.Option(
    metavar="PREFIX", help="Only URIs starting with this, e.g. core://user/.")]
Since = Annotated[str | None, typer.Option(
    metavar="TIME", help="Happened at or after, ISO 8601 (no timezone = UTC).")]
Until = Annotated[str | None, typer.Option(
    metavar="TIME", help="Happened before, ISO 8601 (no timezone = UTC).")]
Layers = Annotated[list[str] | None, typer.Option(
    metavar="LAYER", help="core, archived, cold, deleted (repeatable; default core).")]
Topic = Annotated[str, typer.Argument(metavar="QUERY", help="What the turn is about.")]


@dataclass(frozen=True)
class Door:
    """The global options of one invocation."""

    db: str | None = None
    user: str | None = None
    agent: str | None = None
    embedder: str | None = None
    json: bool = False
    verbose: bool = False
    create: bool = False   # --create: a --db file that does not exist is made, not refused
    local: bool = False    # --local: never ask a running server (cli/remote.py)


def door(ctx: typer.Context, db: str | None, user: str | None, agent: str | None,
         embedder: str | None, as_json: bool, verbose: bool = False,
         create: bool = False, local: bool = False) -> Door:
    """Options given after the command win over the same options given before it."""
    base = ctx.obj if isinstance(ctx.obj, Door) else Door()
    return Door(db or base.db, user or base.user, agent or base.agent,
                embedder or base.embedder, as_json or base.json, verbose or base.verbose,
                create or base.create, local or base.local)


KW = inspect.Parameter.KEYWORD_ONLY
GLOBALS = [inspect.Parameter("db", KW, default=None, annotation=Db),
           inspect.Parameter("create", KW, default=False, annotation=Create),
           inspect.Parameter("user", KW, default=None, annotation=User),
           inspect.Parameter("agent", KW, default=None, annotation=Agent),
           inspect.Parameter("embedder", KW, default=None, annotation=EmbedderName),
           inspect.Parameter("as_json", KW, default=False, annotation=AsJson),
           inspect.Parameter("verbose", KW, default=False, annotation=Verbose),
           inspect.Parameter("local", KW, default=False, annotation=Local)]
CTX = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                        annotation=typer.Context)
F = TypeVar("F", bound=Callable[..., Any])


def with_globals(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func(d: Door, ...)`` as the callback Typer reads: ``(ctx, ..., db, create, user,
    agent, embedder, as_json, verbose, local)``."""
    own = list(inspect.signature(func, eval_str=True).parameters.values())[1:]
    params = [CTX, *own, *GLOBALS]

    @functools.wraps(func)
    def callback(ctx: typer.Context, **kw: Any) -> Any:
        d = door(ctx, kw.pop("db"), kw.pop("user"), kw.pop("agent"), kw.pop("embedder"),
                 kw.pop("as_json"), kw.pop("verbose"), kw.pop("create"), kw.pop("local"))
        return func(d, **kw)

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in params}
    return callback


def command(group: typer.Typer, name: str | None = None) -> Callable[[F], F]:
    """Register ``func(d: Door, ...)`` on GROUP as command NAME (default: its own name)."""

    def register(func: F) -> F:
        group.command(name, cls=QuickCommand)(with_globals(func))
        return func

    return register

"""The groups `engramdb --help` lists its commands in. Each top-level command names its group
here (Typer's ``rich_help_panel``, set on the command when the app is built); the help
formatter, plain as the app prints it, writes one section per group in this order (and the
commands of each in theirs), the names aligned across sections. A command missing here lands
under "Other commands" (and tests/test_cli_tables.py fails)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from typer.core import TyperGroup

if TYPE_CHECKING:   # typer's own click, which its groups are built on: not loaded to run
    from typer import _click as click

PANELS: dict[str, tuple[str, ...]] = {
    "Memory": ("remember", "recall", "get", "update", "forget", "restore", "history",
               "rollback", "list", "count", "explain", "sources", "link", "unlink", "links",
               "related", "path", "entity", "triples", "feedback", "review", "confirm"),
    "Conversation": ("ingest", "context", "boot", "focus", "learn", "session", "goal",
                     "procedure", "profile", "ask", "chat"),
    "Maintenance": ("sleep", "reflect", "index", "index-scope", "check-uris", "export",
                    "import", "import-from", "migrate", "snapshot", "restore-snapshot"),
    "Serving": ("serve", "mcp"),
    "Admin": ("init", "status", "keys"),
}
PANEL_OF = {name: panel for panel, names in PANELS.items() for name in names}
OTHER = "Other"


class GroupedHelp(TyperGroup):
    """The root group: its commands' help grouped by panel, in PANELS order."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for name, cmd in self.commands.items():
            if not isinstance(getattr(cmd, "rich_help_panel", None), str):  # typer: a Default
                cmd.rich_help_panel = PANEL_OF.get(name)  # type: ignore[attr-defined]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        order = {name: n for n, name in enumerate(PANEL_OF)}
        shown = [(name, cmd) for name in sorted(self.list_commands(ctx),
                                                key=lambda x: order.get(x, len(order)))
                 if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden]
        if not shown:
            return
        wide = max(len(name) for name, _ in shown)
        groups: dict[str, list[tuple[str, str]]] = {panel: [] for panel in PANELS}
        for name, cmd in shown:
            panel = getattr(cmd, "rich_help_panel", None)
            panel = panel if isinstance(panel, str) and panel else OTHER
            groups.setdefault(panel, []).append(
                (name.ljust(wide), summary(cmd.get_short_help_str(10**6),
                                           2 * (formatter.width - 6 - wide))))
        for panel, rows in groups.items():
            if rows:
                with formatter.section(f"{panel} commands"):
                    formatter.write_dl(rows)


def summary(sentence: str, limit: int) -> str:
    """A command's first sentence for the list, at most ``limit`` characters (two lines of
    it): whole, or cut at a clause boundary outside parentheses that fits, never inside a
    clause: the last ``; ``, ``: `` or ``(`` in the second half of the room, else the last
    ``, ``."""
    sentence = sentence.rstrip(".")
    if len(sentence) <= limit:
        return sentence
    depth, strong, weak = 0, 0, 0
    for i, ch in enumerate(sentence[: limit + 1]):
        if ch == "(":
            strong = i if depth == 0 and i else strong
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and ch in ";:," and sentence[i + 1: i + 2] == " ":
            strong, weak = (i, weak) if ch in ";:" else (strong, i)
    cut = strong if strong > limit // 2 else max(strong, weak)
    if not cut:
        return sentence[: limit - 1].rsplit(" ", 1)[0] + "…"
    return sentence[:cut].rstrip()

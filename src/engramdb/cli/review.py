"""What needs looking after in the memory itself: review (the FSRS schedule's due memories) and
profile (the zoned profile's size against its budget, its pending items)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .guard import guarded, open_memory
from .options import Door, command
from .render import Column, emit, err, fit, out, short, when, width

commands = typer.Typer()


@command(commands)
def review(
    d: Door,
    k: Annotated[int, typer.Option("-k", "--k", metavar="N", help="At most this many.")] = 10,
) -> None:
    """The memories most in need of review now (FSRS over their uses): due ones only, least
    retrievable first. Recalling one counts as a review."""
    with guarded(d), open_memory(d) as mem:
        due = mem.due_for_review(k)
        if d.json:
            emit([r.to_dict() for r in due])
            return
        if not due:
            err().print(Text("nothing is due for review"))
            return
        names = mem.abbreviate([r.memory.id for r in due])
        cols = [Column("id", [Text(names[r.memory.id]) for r in due]),
                Column("kind", [Text(r.memory.kind.value) for r in due], drop=2),
                Column("odds", [Text(f"{r.retrievability:.0%}") for r in due], justify="right"),
                Column("overdue", [Text(f"{r.overdue_days:.1f} d") for r in due],
                       justify="right"),
                Column("due", [Text(when(r.due_at)) for r in due], drop=1),
                Column("reviews", [Text(str(r.reviews)) for r in due], drop=3,
                       justify="right"),
                Column("content", [short(r.memory.content) for r in due], content=True)]
        table = fit(cols, width())
        out().print(table)


@command(commands)
def profile(
    d: Door,
    budget: Annotated[int | None, typer.Option(
        metavar="N", help="The profile's token budget (default: the configured "
        "profile_budget).", show_default=False)] = None,
) -> None:
    """The zoned profile (`export --format memory-md`) against its token budget, and its
    pending items, with the warnings they give (capacity from 80% of the budget, a reminder
    from 8 pending items)."""
    with guarded(d), open_memory(d) as mem:
        check = mem.profile_check(budget)
        if d.json:
            emit(check.to_dict())
            return
        share = check.tokens / check.budget
        out().print(Text(f"profile: {check.tokens} of {check.budget} tokens ({share:.0%}); "
                         f"{check.pending} pending, {check.overdue} overdue"))
        for warning in check.warnings:
            err().print(Text(f"warning: {warning}"))


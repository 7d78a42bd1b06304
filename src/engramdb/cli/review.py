"""What needs looking after in the memory itself: review (the FSRS schedule's due memories, or
with --still-true the facts gone unconfirmed for long), confirm (one of them still holds) and
profile (the zoned profile's size against its budget, its pending items)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from .guard import guarded, open_memory
from .inputs import read_text
from .options import Door, command
from .render import Column, emit, err, fit, out, short, when, width

commands = typer.Typer()


@command(commands)
def review(
    d: Door,
    k: Annotated[int, typer.Option("-k", "--k", metavar="N", help="At most this many.")] = 10,
    still_true: Annotated[bool, typer.Option(
        "--still-true", help="The \"still true?\" queue instead: facts and preferences gone "
        "unconfirmed past their period, the longest overdue first.")] = False,
) -> None:
    """The memories most in need of review now (FSRS over their uses): due ones only, least
    retrievable first. Recalling one counts as a review. With --still-true, the facts to ask
    about (`confirm ID` when one still holds; `update` or `forget` when not)."""
    with guarded(d), open_memory(d) as mem:
        if still_true:
            _still_true(d, mem.review_queue(k), mem)
            return
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


def _still_true(d: Door, queue: list[Any], mem: Any) -> None:
    if d.json:
        emit([s.to_dict() for s in queue])
        return
    if not queue:
        err().print(Text("nothing to ask about: every fact was confirmed within its period"))
        return
    names = mem.abbreviate([s.memory.id for s in queue])
    cols = [Column("id", [Text(names[s.memory.id]) for s in queue]),
            Column("kind", [Text(s.memory.kind.value) for s in queue], drop=2),
            Column("last confirmed", [Text(when(s.last_confirmed)) for s in queue], drop=1),
            Column("period", [Text(f"{s.period_days:.0f} d") for s in queue], drop=3,
                   justify="right"),
            Column("doubt", [Text(f"{s.doubt:.0%}") for s in queue], justify="right"),
            Column("content", [short(s.memory.content) for s in queue], content=True)]
    table = fit(cols, width())
    out().print(table)


@command(commands)
def confirm(
    d: Door,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="A memory id (or URI).")],
    content: Annotated[str | None, typer.Option(
        metavar="TEXT", help="It holds in these words now: update its content first; '-' "
        "reads it from stdin.")] = None,
) -> None:
    """Say that a memory still holds: a `confirm` event in its history and a use, so it
    leaves the "still true?" queue (`review --still-true`) until its period passes again."""
    with guarded(d):
        text = read_text(content) if content is not None else None
        with open_memory(d) as mem:
            s = mem.confirm(memory_id, content=text)
        if d.json:
            emit(s.to_dict())
            return
        out().print(Text(f"confirmed {s.memory.id}: {short(s.memory.content)} (asked again "
                         f"from {when(s.next_at)})"))


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


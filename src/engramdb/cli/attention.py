"""Attention (engine/goals.py): goals, procedures, focus, learned rules."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from .guard import guarded, open_memory
from .options import Door, Topic, command
from .render import (
    emit,
    err,
    out,
    short,
    show_goal,
    show_procedure,
)

commands = typer.Typer()
goal_app = typer.Typer(help="The goal stack: start, pause, resume, done, note, list.",
                       no_args_is_help=True)
procedure_app = typer.Typer(help="Procedures: steps with trigger words and a confidence.",
                            no_args_is_help=True)
Texts = Annotated[list[str] | None, typer.Option(metavar="TEXT")]
GoalId = Annotated[str | None, typer.Argument(
    metavar="[ID]", help="A goal id; default the active goal.", show_default=False)]


@command(goal_app, "start")
def goal_start(
    d: Door,
    title: Annotated[str, typer.Argument(metavar="TITLE", help="What the goal is.")],
    constraint: Texts = None, loop: Texts = None,
) -> None:
    """Start a goal (--constraint, --loop repeatable); the active one pauses under it."""
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_start(title, constraints=constraint, open_loops=loop), d)


@command(goal_app, "pause")
def goal_pause(d: Door, goal_id: GoalId = None) -> None:
    """Pause the active goal (or ID)."""
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_pause(goal_id), d)


@command(goal_app, "resume")
def goal_resume(
    d: Door, goal_id: Annotated[str, typer.Argument(metavar="ID")],
) -> None:
    """Make a paused goal active again."""
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_resume(goal_id), d)


@command(goal_app, "done")
def goal_done(d: Door, goal_id: GoalId = None, evidence: Texts = None) -> None:
    """Complete the active goal (or ID), with --evidence; its parent goal resumes."""
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_done(goal_id, evidence=evidence), d)


@command(goal_app, "note")
def goal_note(d: Door, goal_id: GoalId = None, evidence: Texts = None,
              loop: Texts = None, close: Texts = None, constraint: Texts = None) -> None:
    """Add --evidence, --loop or --constraint to a goal, or --close an open loop."""
    with guarded(d), open_memory(d) as mem:
        show_goal(mem.goal_note(goal_id, evidence=evidence, open_loops=loop, close_loops=close,
                                constraints=constraint), d)


@command(goal_app, "list")
def goal_list(d: Door, status: Texts = None) -> None:
    """List goals, oldest first (--status active|paused|done, repeatable)."""
    with guarded(d), open_memory(d) as mem:
        goals = mem.goals(status)
        if d.json:
            emit([g.to_dict() for g in goals])
            return
        for goal in goals:
            show_goal(goal, d)
        if not goals:
            err().print(Text("no goals"))


@command(procedure_app, "add")
def procedure_add(
    d: Door,
    title: Annotated[str, typer.Argument(metavar="TITLE", help="What the procedure does.")],
    step: Texts = None, trigger: Texts = None,
    confidence: Annotated[float | None, typer.Option(metavar="0..1")] = None,
) -> None:
    """Add or replace a procedure: --step and --trigger are repeatable (in order)."""
    with guarded(d), open_memory(d) as mem:
        proc = mem.add_procedure(title, step or [], trigger or [], confidence=confidence)
        emit(proc.to_dict()) if d.json else show_procedure(proc)


@command(procedure_app, "list")
def procedure_list(d: Door) -> None:
    """List the procedures."""
    with guarded(d), open_memory(d) as mem:
        procs = mem.procedures()
        if d.json:
            emit([p.to_dict() for p in procs])
            return
        for proc in procs:
            show_procedure(proc)


@command(procedure_app, "outcome")
def procedure_outcome(
    d: Door,
    id_or_uri: Annotated[str, typer.Argument(metavar="ID_OR_URI")],
    result: Annotated[str, typer.Argument(metavar="success|failure")],
) -> None:
    """Record that following a procedure worked (success) or not (failure)."""
    if result not in ("success", "failure"):
        raise typer.BadParameter("must be success or failure", param_hint="RESULT")
    with guarded(d), open_memory(d) as mem:
        proc = mem.procedure_outcome(id_or_uri, result == "success")
        emit(proc.to_dict()) if d.json else show_procedure(proc)


@command(procedure_app, "triggered")
def procedure_triggered(
    d: Door,
    query: Topic,
) -> None:
    """The procedures QUERY (or the active goal) fires, and on which words."""
    with guarded(d), open_memory(d) as mem:
        fired = mem.triggered_procedures(query)
        if d.json:
            emit([t.to_dict() for t in fired])
            return
        for t in fired:
            show_procedure(t.procedure)
            out().print(f"  fired: {t.why}")


@command(commands)
def focus(
    d: Door,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What the agent faces now.")],
    k: Annotated[int, typer.Option("-k", metavar="N", help="Memories at most.")] = 5,
    audit: Annotated[bool, typer.Option("--audit", help="Print every candidate's score "
                                        "breakdown, the excluded ones too.")] = False,
) -> None:
    """The attention workspace: active goal, triggered procedures, chosen memories."""
    with guarded(d), open_memory(d) as mem:
        ws = mem.focus(query, k=k)
        if d.json:
            emit(ws.to_dict())
            return
        out().print(Text(ws.render() or "nothing in focus"))
        if audit:
            for s in ws.audit:
                parts = " ".join(f"{n}={v:.2f}" for n, v in s.terms.items())
                mark = "IN " if s.included else "OUT"
                out().print(Text(f"{mark} {s.score:+.3f} {short(s.memory.content, 60)} | "
                                 f"{parts} | {s.reason}"))


@command(commands)
def learn(
    d: Door,
    mistake: Annotated[str, typer.Argument(metavar="MISTAKE", help="What went wrong.")],
    rule: Annotated[str, typer.Argument(metavar="RULE", help="The rule that avoids it.")],
    file: Annotated[str | None, typer.Option(
        metavar="FILE", help="Also append the rule to this AGENTS.md-style file.")] = None,
) -> None:
    """Learn a rule from a mistake, once (a rule saying the same is not added again)."""
    with guarded(d), open_memory(d) as mem:
        learned = mem.learn_from_mistake(mistake, rule, file=file)
        if d.json:
            emit(learned.to_dict())
            return
        said = "learned" if learned.added else "already known"
        out().print(Text(f"{said}: {learned.memory.content} ({learned.memory.uri})"))
        if file:
            out().print(Text(f"{file}: {'appended' if learned.file_added else 'already there'}"))

"""The /v1 routes for attention: goals, procedures, learned rules, and the scope as Markdown."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from ..dto import (
    GoalIn,
    GoalNoteIn,
    LearnIn,
    OutcomeIn,
    ProcedureIn,
    QueryIn,
)
from .common import Read, Write, ok

router = APIRouter(prefix="/v1")


@router.get("/goals", summary="The goal stack (filter by status), and the active goal")
def goals(c: Read, status: Annotated[list[str] | None, Query()] = None) -> JSONResponse:
    active = c.mem.active_goal()
    return ok({"goals": [g.to_dict() for g in c.mem.goals(status)],
               "active": active.to_dict() if active else None})


@router.post("/goals", summary="Start a goal (the active one is paused under it)")
def goal_start(body: GoalIn, c: Write) -> JSONResponse:
    return ok(c.mem.goal_start(body.title, constraints=body.constraints,
                               open_loops=body.open_loops).to_dict())


@router.post("/goals/{goal_id}/{action}", summary="pause, resume, done or note a goal")
def goal_action(goal_id: str, action: Literal["pause", "resume", "done", "note"], c: Write,
                body: GoalNoteIn | None = None) -> JSONResponse:
    b = body or GoalNoteIn()
    if action == "pause":
        return ok(c.mem.goal_pause(goal_id).to_dict())
    if action == "resume":
        return ok(c.mem.goal_resume(goal_id).to_dict())
    if action == "done":
        return ok(c.mem.goal_done(goal_id, evidence=b.evidence).to_dict())
    return ok(c.mem.goal_note(goal_id, evidence=b.evidence, open_loops=b.open_loops,
                              close_loops=b.close_loops, constraints=b.constraints).to_dict())


@router.get("/procedures", summary="The scope's procedures")
def procedures(c: Read) -> JSONResponse:
    return ok({"procedures": [p.to_dict() for p in c.mem.procedures()]})


@router.post("/procedures", summary="Add a procedure: steps and trigger words")
def add_procedure(body: ProcedureIn, c: Write) -> JSONResponse:
    return ok(c.mem.add_procedure(body.title, body.steps, body.triggers,
                                  confidence=body.confidence).to_dict())


@router.post("/procedures/triggered", summary="The procedures a query (or the goal) fires")
def triggered(body: QueryIn, c: Read) -> JSONResponse:
    return ok({"procedures": [t.to_dict() for t in c.mem.triggered_procedures(body.query)]})


@router.post("/procedures/{procedure_id}/outcome", summary="Record a procedure's outcome")
def outcome(procedure_id: str, body: OutcomeIn, c: Write) -> JSONResponse:
    return ok(c.mem.procedure_outcome(procedure_id, body.success).to_dict())


@router.post("/rules", summary="Learn from a mistake: keep the rule that avoids it")
def learn(body: LearnIn, c: Write) -> JSONResponse:
    return ok(c.mem.learn_from_mistake(body.mistake, body.rule).to_dict())


@router.get("/markdown", summary="The scope as MEMORY.md, or its rules as AGENTS.md",
            response_class=Response)
def markdown(c: Read, format: Literal["memory-md", "agents-md"] = "memory-md",  # noqa: A002
             uris: bool = False) -> Response:
    text = c.mem.export_memory_md(uris=uris) if format == "memory-md" else c.mem.agents_md()
    return Response(text, media_type="text/markdown; charset=utf-8")

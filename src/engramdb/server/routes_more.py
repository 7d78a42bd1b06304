"""The /v1 routes for association, context, conversations, working memory, attention,
snapshots and removing a scope. Like routes.py: parse, call one Memory verb on the caller's
scope, return its ``to_dict()``. Roles: reading routes need a read key and never change
anything for it (``track`` only counts for write keys); writing routes need a write key;
restoring a snapshot and removing a whole scope need an admin key."""

from __future__ import annotations

import os
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

from ..errors import Invalid
from ..io import snapshots
from ..model import Role
from .auth import Caller, needs, reader, writer
from .dto import (
    ContextIn,
    FocusIn,
    GoalIn,
    GoalNoteIn,
    IngestIn,
    LearnIn,
    LinkIn,
    OutcomeIn,
    ProcedureIn,
    QueryIn,
    TurnIn,
)
from .routes import ok

router = APIRouter(prefix="/v1")
Read = Annotated[Caller, Depends(reader)]
Write = Annotated[Caller, Depends(writer)]
Admin = Annotated[Caller, Depends(needs(Role.ADMIN))]
Hops = Annotated[int, Query(ge=0, le=3)]


# ---------------------------------------------------------------- counting


@router.get("/count", summary="How many memories match the filters of GET /v1/memories")
def count(
    c: Read,
    kind: Annotated[list[str] | None, Query()] = None,
    uri_prefix: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    layer: Annotated[list[str] | None, Query()] = None,
) -> JSONResponse:
    return ok({"count": c.mem.count(kind=kind, uri_prefix=uri_prefix, since=since, until=until,
                                    layer=layer)})


# ---------------------------------------------------------------- links


@router.get("/memories/{memory_id}/links", summary="Every link from or to a memory")
def links(memory_id: str, c: Read) -> JSONResponse:
    return ok({"links": [x.to_dict() for x in c.mem.links(memory_id)]})


@router.post("/links", summary="Link two memories (again: a new weight)")
def link(body: LinkIn, c: Write) -> JSONResponse:
    return ok(c.mem.link(body.source, body.target, body.relation, body.weight).to_dict())


@router.delete("/links", summary="Remove the links between two memories, both ways")
def unlink(source: str, target: str, c: Write, relation: str | None = None) -> JSONResponse:
    return ok({"removed": c.mem.unlink(source, target, relation)})


@router.get("/memories/{memory_id}/related", summary="Memories linked to this one")
def related(memory_id: str, c: Read, hops: Hops = 2) -> JSONResponse:
    return ok({"hits": [h.to_dict() for h in c.mem.related(memory_id, hops)]})


@router.get("/path", summary="The memory at a URI (or under a prefix/), then what links to it")
def recall_path(uri: str, c: Read, hops: Hops = 0) -> JSONResponse:
    return ok({"hits": [h.to_dict() for h in c.mem.recall_path(uri, hops)]})


@router.get("/memories/{memory_id}/sources", summary="The turns a memory was extracted from")
def sources(memory_id: str, c: Read) -> JSONResponse:
    return ok({"memories": [m.to_dict() for m in c.mem.sources(memory_id)]})


# ---------------------------------------------------------------- context, conversations


@router.post("/context", summary="The prompt block for a turn, within a token budget")
def context(body: ContextIn, c: Read) -> JSONResponse:
    c.limits.check_k(body.k)
    return ok(c.mem.context(body.query, body.budget, session=body.session, k=body.k,
                            track=body.track and c.can(Role.WRITE),
                            encoding=body.encoding).to_dict())


@router.post("/ingest", summary="Read a conversation: its turns and what they say")
def ingest(body: IngestIn, c: Write) -> JSONResponse:
    c.limits.check_batch(len(body.messages))
    return ok(c.mem.ingest(body.turns(), session=body.session, at=body.at,
                           extractor=body.extractor, keep_turns=body.keep_turns).to_dict())


# ---------------------------------------------------------------- attention


@router.post("/focus", summary="The attention workspace for a query, with its audit")
def focus(body: FocusIn, c: Read) -> JSONResponse:
    c.limits.check_k(body.k)
    return ok(c.mem.focus(body.query, body.k, track=body.track and c.can(Role.WRITE))
              .to_dict())


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


# ---------------------------------------------------------------- working memory


@router.get("/sessions", summary="The scope's session ids, oldest first")
def sessions(c: Read) -> JSONResponse:
    return ok({"sessions": c.mem.sessions()})


@router.get("/sessions/{session_id}", summary="A session's window, summary and prompt")
def session(session_id: str, c: Read) -> JSONResponse:
    return ok(c.mem.session(session_id, create=False).to_dict())


@router.post("/sessions/{session_id}/turns", summary="Add a turn (the session starts here)")
def add_turn(session_id: str, body: TurnIn, c: Write) -> JSONResponse:
    with c.mem.memory.store.transaction():  # a turn refused creates no session
        wm = c.mem.session(session_id)
        turn = wm.add(body.role, body.content, pin=body.pin)
    return ok({"turn": turn.to_dict(), "session": wm.to_dict()})


@router.post("/sessions/{session_id}/end", summary="End a session; long-term memory gets it")
def end(session_id: str, c: Write) -> JSONResponse:
    return ok(c.mem.session(session_id, create=False).end().to_dict())


@router.get("/sessions/{session_id}/offloaded/{ref}", summary="An offloaded turn, whole")
def fetch(session_id: str, ref: str, c: Read) -> JSONResponse:
    return ok({"ref": ref, "content": c.mem.session(session_id, create=False).fetch(ref)})


# ---------------------------------------------------------------- snapshots, the scope


def snapshot_folder(request: Request) -> str:
    """ENGRAMDB_SNAPSHOT_DIR, else beside the database file (as for the MCP server)."""
    folder = os.environ.get("ENGRAMDB_SNAPSHOT_DIR")
    memory = request.app.state.engram.memory
    return folder or str(snapshots.default_folder(memory.store.location))


@router.get("/snapshots", summary="The scope's snapshots, newest first")
def snapshot_list(request: Request, c: Read) -> JSONResponse:
    found = snapshots.listing(c.mem.memory, snapshot_folder(request), user=c.mem.user,
                              agent=c.mem.agent)
    return ok({"snapshots": [i.to_dict() for i in found]})


@router.post("/snapshots", summary="Snapshot the scope (a file on the server)")
def snapshot_take(request: Request, c: Write) -> JSONResponse:
    info = snapshots.take(c.mem.memory, snapshot_folder(request), user=c.mem.user,
                          agent=c.mem.agent)
    return ok(info.to_dict())


@router.post("/snapshots/{name}/restore",
             summary="Replace everything the scope holds with a snapshot (admin keys)")
def snapshot_restore(name: str, request: Request, c: Admin) -> JSONResponse:
    return ok(snapshots.restore(c.mem.memory, snapshot_folder(request), name, user=c.mem.user,
                                agent=c.mem.agent))


@router.delete("/scope", summary="Remove every memory of a scope (admin keys; name the user)")
def forget_scope(request: Request, c: Admin, reason: str | None = None) -> JSONResponse:
    if "user" not in request.query_params:
        raise Invalid("name the scope to remove with ?user= (and &agent=)")
    removed = c.mem.forget_scope(reason=reason)
    return ok({"user": c.mem.user, "agent": c.mem.agent, "removed": removed})

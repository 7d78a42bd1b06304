"""The /v1 routes that look after a scope: sleep (and reflect), the review schedule, the
"still true?" queue and confirming a memory, the profile's check, stats, export, snapshots,
removing a scope (snapshot restore and scope removal need an admin key)."""

from __future__ import annotations

import io
import os

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ...errors import Invalid
from ...io import snapshots
from ..dto import (
    ConfirmIn,
    SleepIn,
)
from ..reveal import RevealQuery, may_reveal
from .common import Admin, Read, Write, ok

router = APIRouter(prefix="/v1")


@router.post("/sleep", summary="Maintenance (sync, decay, tidy, lessons, consolidate, govern); "
             "its report")
def sleep(c: Write, body: SleepIn | None = None) -> JSONResponse:
    body = body or SleepIn()
    return ok(c.mem.sleep(body.phase, full=body.full).to_dict())


@router.post("/reflect", summary="The same maintenance as /v1/sleep (the design's name)")
def reflect(c: Write, body: SleepIn | None = None) -> JSONResponse:
    body = body or SleepIn()
    return ok(c.mem.reflect(body.phase, full=body.full).to_dict())


@router.get("/review", summary="The memories due for review now, least retrievable first")
def due_for_review(c: Read, k: int = 10) -> JSONResponse:
    return ok({"reviews": [r.to_dict() for r in c.mem.due_for_review(k)]})


@router.get("/review/still-true", summary="The facts gone unconfirmed for long (\"still "
            "true?\"), the longest overdue first")
def review_queue(c: Read, k: int = 10) -> JSONResponse:
    return ok({"queue": [s.to_dict() for s in c.mem.review_queue(k)]})


@router.post("/memories/{memory_id}/confirm", summary="Say that a memory still holds (with "
             "content: in these words now); it leaves the \"still true?\" queue")
def confirm(memory_id: str, c: Write, body: ConfirmIn | None = None) -> JSONResponse:
    content = body.content if body is not None else None
    return ok(c.mem.confirm(memory_id, content=content).to_dict())


@router.get("/profile/check", summary="The profile's size against its budget, its pending "
            "items and warnings")
def profile_check(c: Read, budget: int | None = None) -> JSONResponse:
    return ok(c.mem.profile_check(budget).to_dict())


@router.get("/stats", summary="Counts by layer and kind, events, embedder")
def stats(c: Read) -> JSONResponse:
    return ok(c.mem.stats().to_dict())


@router.get("/export", summary="The scope as JSONL (the `engramdb export` format)",
            response_class=Response)
def export(c: Read, reveal: RevealQuery = False) -> Response:
    buffer = io.StringIO()
    c.mem.export(buffer, reveal=may_reveal(c, reveal))
    return Response(buffer.getvalue(), media_type="application/x-ndjson; charset=utf-8")


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


@router.get("/scopes", summary="Every scope that holds memories (admin keys)")
def scopes(c: Admin) -> JSONResponse:
    return ok({"scopes": [{"user": s.user, "agent": s.agent} for s in c.mem.memory.scopes()]})


@router.delete("/scope", summary="Remove every memory of a scope (admin keys; name the user)")
def forget_scope(request: Request, c: Admin, reason: str | None = None) -> JSONResponse:
    if "user" not in request.query_params:
        raise Invalid("name the scope to remove with ?user= (and &agent=)")
    removed = c.mem.forget_scope(reason=reason)
    return ok({"user": c.mem.user, "agent": c.mem.agent, "removed": removed})

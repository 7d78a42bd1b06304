"""The /v1 routes on memories: remember, list, count, get, update, forget, restore, rollback,
history, strength, sources, the ids shortened as the CLI's tables show them (short-ids), and
the caller's own key (/me)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...uri import validate_uri
from ..dto import (
    BatchIn,
    RememberIn,
    RollbackIn,
    UpdateIn,
)
from ..reveal import RevealQuery, may_reveal
from .common import Read, Write, ok

router = APIRouter(prefix="/v1")
Contains = Annotated[str | None, Query(max_length=200, description="Only memories whose "
                                       "content holds this text (case-insensitive).")]


@router.get("/me", summary="The key's id, role and the scope it acts on")
def me(c: Read) -> JSONResponse:
    key = c.grant.key.to_dict()
    return ok({"key": key, "user": c.grant.scope.user, "agent": c.grant.scope.agent,
               "role": c.grant.role.value,
               "limits": {"k": c.limits.k, "batch": c.limits.batch, "page": c.limits.page,
                          "body_bytes": c.limits.body_bytes}})


@router.post("/memories", summary="Remember one memory; says what the write did and why")
def create(body: RememberIn, c: Write) -> JSONResponse:
    return ok(c.mem.remember_many([body.draft()])[0].to_dict())


@router.post("/memories/batch", summary="Remember many memories in one transaction")
def create_many(body: BatchIn, c: Write) -> JSONResponse:
    c.limits.check_batch(len(body.items))
    results = c.mem.remember_many([item.draft() for item in body.items])
    return ok({"results": [r.to_dict() for r in results]})


@router.get("/memories", summary="List memories by kind, URI prefix, time and layer, paged")
def list_memories(
    c: Read,
    kind: Annotated[list[str] | None, Query()] = None,
    uri_prefix: str | None = None,
    since: str | None = None,
    until: str | None = None,
    layer: Annotated[list[str] | None, Query()] = None,
    include_superseded: bool = True,
    newest_first: bool = False,
    limit: int = 50,
    offset: int = 0,
    contains: Contains = None,
) -> JSONResponse:
    c.limits.check_page(limit)
    found = list(c.mem.list(kind=kind, uri_prefix=uri_prefix, since=since, until=until,
                            layer=layer, include_superseded=include_superseded,
                            newest_first=newest_first, limit=limit + 1, offset=offset,
                            contains=contains))
    more = len(found) > limit
    return ok({"items": [r.to_dict() for r in found[:limit]], "limit": limit, "offset": offset,
               "next_offset": offset + limit if more else None})


@router.get("/count", summary="How many memories match the filters of GET /v1/memories")
def count(
    c: Read,
    kind: Annotated[list[str] | None, Query()] = None,
    uri_prefix: str | None = None,
    since: str | None = None,
    until: str | None = None,
    layer: Annotated[list[str] | None, Query()] = None,
    contains: Contains = None,
) -> JSONResponse:
    return ok({"count": c.mem.count(kind=kind, uri_prefix=uri_prefix, since=since, until=until,
                                    layer=layer, contains=contains)})


@router.get("/short-ids", summary="Each id's shortest prefix no other memory starts with")
def short_ids(c: Read, id: Annotated[list[str], Query()]) -> JSONResponse:  # noqa: A002
    return ok({"short": c.mem.abbreviate(id)})


@router.get("/memories/by-uri", summary="The memory at a URI")
def get_by_uri(uri: str, c: Read, reveal: RevealQuery = False) -> JSONResponse:
    return ok(c.mem.get(validate_uri(uri), reveal=may_reveal(c, reveal)).to_dict())


@router.get("/memories/{memory_id}", summary="One memory")
def get(memory_id: str, c: Read, reveal: RevealQuery = False) -> JSONResponse:
    return ok(c.mem.get(memory_id, reveal=may_reveal(c, reveal)).to_dict())


@router.patch("/memories/{memory_id}", summary="Change a memory (a new version)")
def update(memory_id: str, body: UpdateIn, c: Write) -> JSONResponse:
    return ok(c.mem.update(memory_id, **body.model_dump(exclude_none=True)).to_dict())


@router.delete("/memories/{memory_id}", summary="Forget a memory (hard=true erases it)")
def forget(memory_id: str, c: Write, hard: bool = False,
           reason: str | None = None) -> JSONResponse:
    return ok(c.mem.forget(memory_id, hard=hard, reason=reason).to_dict())


@router.post("/memories/{memory_id}/restore", summary="Bring a forgotten memory back")
def restore(memory_id: str, c: Write) -> JSONResponse:
    return ok(c.mem.restore(memory_id).to_dict())


@router.post("/memories/{memory_id}/rollback", summary="Make a memory say a version again")
def rollback(memory_id: str, body: RollbackIn, c: Write) -> JSONResponse:
    return ok(c.mem.rollback(memory_id, body.version, reason=body.reason).to_dict())


@router.get("/memories/{memory_id}/history",
            summary="Every version of a memory and of its supersession chain")
def history(memory_id: str, c: Read, reveal: RevealQuery = False) -> JSONResponse:
    return ok({"versions": [v.to_dict() for v in
                            c.mem.history(memory_id, reveal=may_reveal(c, reveal))]})


@router.get("/memories/{memory_id}/strength", summary="Why a memory weighs what it weighs")
def strength(memory_id: str, c: Read) -> JSONResponse:
    return ok(c.mem.explain(memory_id).to_dict())


@router.get("/memories/{memory_id}/sources", summary="The turns a memory was extracted from")
def sources(memory_id: str, c: Read) -> JSONResponse:
    return ok({"memories": [m.to_dict() for m in c.mem.sources(memory_id)]})

"""The /v1 routes that find memories: recall, boot, context, focus, and the links between
memories (links, link, unlink, related, path)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...model import Role
from ..dto import (
    ContextIn,
    FocusIn,
    LinkIn,
    RecallIn,
    WindowIn,
)
from ..reveal import may_reveal
from .common import Hops, Read, Write, ok

router = APIRouter(prefix="/v1")


@router.post("/recall", summary="The best memories for a query, each with its explanation")
def recall(body: RecallIn, c: Read) -> JSONResponse:
    c.limits.check_k(body.k)
    hits = c.mem.recall(body.query, body.k, kinds=body.kinds, preset=body.preset,
                        uri_prefix=body.uri_prefix, track=body.track and c.can(Role.WRITE),
                        reveal=may_reveal(c, body.reveal), keywords=body.keywords,
                        time_context=body.time_context.model_dump()
                        if isinstance(body.time_context, WindowIn) else body.time_context,
                        include_cold=body.include_cold)
    return ok(hits.to_dict())


@router.get("/boot", summary="What an agent loads at start")
def boot(c: Read, budget: Annotated[int | None, Query(ge=1)] = None) -> JSONResponse:
    return ok(c.mem.boot(budget).to_dict())


@router.post("/context", summary="The prompt block for a turn, within a token budget")
def context(body: ContextIn, c: Read) -> JSONResponse:
    c.limits.check_k(body.k)
    return ok(c.mem.context(body.query, body.budget, session=body.session, k=body.k,
                            track=body.track and c.can(Role.WRITE),
                            encoding=body.encoding).to_dict())


@router.post("/focus", summary="The attention workspace for a query, with its audit")
def focus(body: FocusIn, c: Read) -> JSONResponse:
    c.limits.check_k(body.k)
    return ok(c.mem.focus(body.query, body.k, track=body.track and c.can(Role.WRITE))
              .to_dict())


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

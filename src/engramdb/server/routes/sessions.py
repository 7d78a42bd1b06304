"""The /v1 routes for conversations and working memory: ingest and /sessions."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..dto import (
    IngestIn,
    TurnIn,
)
from .common import Read, Write, ok

router = APIRouter(prefix="/v1")


@router.post("/ingest", summary="Read a conversation: its turns and what they say")
def ingest(body: IngestIn, c: Write) -> JSONResponse:
    c.limits.check_batch(len(body.messages))
    return ok(c.mem.ingest(body.turns(), session=body.session, at=body.at,
                           extractor=body.extractor, keep_turns=body.keep_turns).to_dict())


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

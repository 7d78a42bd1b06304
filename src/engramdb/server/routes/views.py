"""The /v1 routes behind the web page's pictures: the scope's timeline, a memory's strength
curve, its lineage (supersession chain, gists, sources) and link neighbourhood, the log of past
sleeps, the entity page of a name, the list of entities and the facts' triples. Like the
other routes: parse, call one Memory verb on the caller's scope, return its ``to_dict()``;
the logic is in
recall/timeline.py, recall/lineage.py, dynamics/curve.py, dynamics/sleeplog.py,
recall/entity.py, recall/entities.py and recall/triples.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse

from ..auth import Caller, reader

router = APIRouter(prefix="/v1")
Read = Annotated[Caller, Depends(reader)]


def ok(data: object) -> JSONResponse:
    return JSONResponse(data)


@router.get("/timeline", summary="The scope over time: events as points, facts as spans")
def timeline(c: Read, since: str | None = None, until: str | None = None,
             limit: int = 500) -> JSONResponse:
    return ok(c.mem.timeline(since=since, until=until, limit=limit).to_dict())


@router.get("/memories/{memory_id}/curve",
            summary="A memory's weight over time, its uses and its projected fade")
def curve(memory_id: str, c: Read, ahead_days: float | None = None,
          points: int = 120) -> JSONResponse:
    return ok(c.mem.strength_curve(memory_id, ahead_days=ahead_days, points=points).to_dict())


@router.get("/memories/{memory_id}/lineage",
            summary="Its supersession chain, gists, a gist's sources and its turns")
def lineage(memory_id: str, c: Read) -> JSONResponse:
    return ok(c.mem.lineage(memory_id).to_dict())


@router.get("/memories/{memory_id}/graph", summary="Its linked neighbours, by relation")
def graph(memory_id: str, c: Read, limit: int = 24) -> JSONResponse:
    return ok(c.mem.neighbourhood(memory_id, limit).to_dict())


@router.get("/entity", summary="One person, place, project or topic: aliases, first and last "
            "seen, current facts, episodes and supersession history")
def entity(c: Read, name: Annotated[str, Query(min_length=1, max_length=200)]) -> JSONResponse:
    return ok(c.mem.entity(name).to_dict())


@router.get("/entities", summary="The people, places and topics the memories name, most "
            "named first, each with how many memories name it")
def entities(c: Read, limit: Annotated[int, Query(ge=1, le=500)] = 100) -> JSONResponse:
    return ok({"entities": [e.to_dict() for e in c.mem.entities(limit)]})


@router.get("/sleeps", summary="What the last sleeps changed, newest first")
def sleeps(c: Read, limit: Annotated[int, Query()] = 10) -> JSONResponse:
    return ok(c.mem.sleep_log(limit).to_dict())


@router.get("/triples", summary="The subject-predicate-object triples read from the facts: "
            "of one memory, or narrowed to a subject and a predicate; the newest first")
def triples(c: Read, memory_id: Annotated[str | None, Query(max_length=200)] = None,
            subject: Annotated[str | None, Query(max_length=200)] = None,
            predicate: Annotated[str | None, Query(max_length=200)] = None,
            all: bool = False, limit: Annotated[int, Query(ge=1, le=1000)] = 100
            ) -> JSONResponse:
    found = c.mem.triples(memory_id, subject=subject, predicate=predicate, current=not all,
                          limit=limit)
    return ok({"triples": [t.to_dict() for t in found]})

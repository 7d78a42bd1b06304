"""What every /v1 route module shares: the caller's key as a dependency (Read, Write, Admin) and
the JSON answer (``ok``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query
from fastapi.responses import JSONResponse

from ...model import Role
from ..auth import Caller, needs, reader, writer

Read = Annotated[Caller, Depends(reader)]
Write = Annotated[Caller, Depends(writer)]
Admin = Annotated[Caller, Depends(needs(Role.ADMIN))]
Hops = Annotated[int, Query(ge=0, le=3)]


def ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)

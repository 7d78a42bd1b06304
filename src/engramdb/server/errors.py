"""The HTTP door's one error boundary: every failure leaves as
``{"error": {"code": "...", "message": "..."}}`` with a status that says whose fault it is.

| status | code | when |
|---|---|---|
| 400 | malformed_json | the body is not JSON (or not UTF-8, or nested too deeply) |
| 401 | unauthorized | no key, an unknown key, a revoked key |
| 403 | forbidden | the key's role is too low, or a non-admin key names another scope |
| 404 | not_found | no such memory in the key's scope (another scope's id too), no such route |
| 405 | method_not_allowed | a route that exists, called with another method |
| 409 | conflict | the write clashes with what is stored (engramdb.Conflict) |
| 413 | too_large | the body is larger than ``Config.http_max_body_bytes`` |
| 414, 431 | uri_too_long, headers_too_large | answered before the app, by wire.py |
| 422 | invalid | a field missing, of a wrong type, unknown or out of range (engramdb.Invalid) |
| 503 | store_error | the store cannot be used (StoreError, ConfigError, SQLite still busy) |
| 500 | unexpected | a bug: logged with its traceback on the server's stderr |
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..errors import ConfigError, Conflict, EngramError, Invalid, NotFound, StoreError
from ..keys import Forbidden, Unauthorized
from ..schema_errors import HTTP_PLACES, sentences

log = logging.getLogger("engramdb.server")

STATUS: dict[type[EngramError], int] = {
    Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Invalid: 422,
    StoreError: 503, ConfigError: 503,
}
HTTP_CODES = {400: "malformed_json", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type"}


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


def status_of(exc: EngramError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


def describe(errors: list[Any]) -> tuple[str, str]:
    """(code, message) for pydantic's validation errors: each field, what is wrong and what to
    give, in words (schema_errors.py, shared with the MCP door)."""
    if any(e.get("type") == "json_invalid" for e in errors):
        return "malformed_json", "the request body is not valid JSON"
    return "invalid", sentences(errors, HTTP_PLACES)


def unparsed(exc: HTTPException) -> str | None:
    """What was wrong with a body FastAPI could not parse (it says only "There was an error
    parsing the body"), or None for another HTTPException."""
    if isinstance(exc.__cause__, RecursionError):
        return "the request body's JSON nests too deeply: flatten it"
    if isinstance(exc.__cause__, UnicodeDecodeError):
        return "the request body is not UTF-8"
    return None


def routing(request: Request, exc: HTTPException) -> str | None:
    """Starlette's own "Not Found" / "Method Not Allowed" (no route matched) in words, naming
    the route asked for; None for a route's own error."""
    where = f"{request.method} {request.url.path}"
    if exc.status_code == 404 and exc.detail == "Not Found":
        return f"no route {where}: the routes are listed at /docs"
    if exc.status_code == 405 and exc.detail == "Method Not Allowed":
        return f"{where} is not a route: {request.url.path} takes other methods (see /docs)"
    return None


def install(app: FastAPI) -> None:
    """Register the boundary's handlers on ``app``."""

    @app.exception_handler(EngramError)
    async def engram_error(_: Request, exc: EngramError) -> JSONResponse:
        status = status_of(exc)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if isinstance(exc.__cause__, sqlite3.OperationalError):   # e.g. still locked: the
            headers = {"Retry-After": "1"}   # library's boundary (boundary.py) wrapped it
        return error_response(status, exc.code, str(exc), headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = describe(list(exc.errors()))
        return error_response(400 if code == "malformed_json" else 422, code, message)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        return error_response(exc.status_code, code,
                              unparsed(exc) or routing(request, exc) or str(exc.detail),
                              exc.headers)

    @app.exception_handler(sqlite3.OperationalError)
    async def store_busy(_: Request, exc: sqlite3.OperationalError) -> JSONResponse:
        # e.g. "database is locked" after the busy timeout: the server's state, not the input
        log.warning("store error: %s", exc)
        return error_response(503, "store_error", f"the store is not available: {exc}",
                              {"Retry-After": "1"})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "unexpected", f"{type(exc).__name__}: the server failed; "
                              "see its log")

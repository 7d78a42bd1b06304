"""The FastAPI application: the /v1 API, the web page at /, an offline docs page at /docs and
the schema at /openapi.json. ``create_app`` takes an open Memory (tests, embedding in another
program); ``app_from_env`` opens one from ENGRAMDB_* settings (what each `engramdb serve`
worker process runs)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from .. import __version__
from ..engine import Memory
from ..keys import Keys
from . import errors, headers, metrics, web
from .auth import Engram
from .limits import BodyLimit, Limits
from .routes import router

TOKEN_ENV = "ENGRAMDB_SERVE_TOKEN"  # the discovery file's token, from `serve` to its workers

DESCRIPTION = """Memory for AI agents over HTTP. Every /v1 route needs an API key
(`engramdb keys create`), sent as `Authorization: Bearer <key>` or `X-API-Key: <key>`. A key
acts on its own scope; an admin key may name another with `?user=&agent=`. Errors are
`{"error": {"code", "message"}}`: see docs/http.md."""


def create_app(memory: Memory, *, close_on_shutdown: bool = False,
               local_token: str | None = None) -> FastAPI:
    """The app over ``memory``; ``local_token``: the token `engramdb serve` wrote in its
    discovery file for the CLI (discovery.py), accepted as an admin key."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if close_on_shutdown:
                memory.close()

    app = FastAPI(title="engramdb", version=__version__, description=DESCRIPTION,
                  docs_url=None, redoc_url=None, lifespan=lifespan)
    limits = Limits.from_config(memory.config)
    app.state.engram = Engram(memory, Keys(memory, local=local_token), limits)
    errors.install(app)
    app.include_router(router)
    web.install(app)
    metrics.install(app, memory)
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    headers.install(app)   # outermost: on every answer, 413 and 500 included
    return app


def app_from_env() -> FastAPI:
    """Open the store named by ENGRAMDB_URL (and the other ENGRAMDB_* settings), the
    automatic sleep in the background (config.server_settings); the CLI's token from
    ENGRAMDB_SERVE_TOKEN (run.py sets it)."""
    import os

    import engramdb
    from engramdb.config import server_settings

    return create_app(engramdb.open(**server_settings()), close_on_shutdown=True,
                      local_token=os.environ.get(TOKEN_ENV) or None)

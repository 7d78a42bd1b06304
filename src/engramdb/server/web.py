"""The web page (static files in ./static, served at /) and the offline docs page at /docs
(docs.py: rendered on the server from the OpenAPI schema; nothing touches the network)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from .docs import render_docs

STATIC = Path(__file__).parent / "static"


def install(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(render_docs(app.openapi()))

"""The web page (static files in ./static, served at /) and an offline docs page at /docs,
rendered on the server from the OpenAPI schema (FastAPI's own docs page loads its scripts
from a CDN; nothing here touches the network)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def install(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(render_docs(app.openapi()))


def render_docs(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    schemas = spec.get("components", {}).get("schemas", {})
    parts = [f"<h1>{escape(info.get('title', ''))} {escape(info.get('version', ''))}</h1>",
             f"<p class=desc>{escape(info.get('description', ''))}</p>",
             '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>']
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            parts.append(_operation(method, path, op, schemas))
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>engramdb API</title>"
        '<link rel=stylesheet href="/static/app.css"></head><body class=docs>'
        + "".join(parts) + "</body></html>"
    )


def _operation(method: str, path: str, op: dict[str, Any], schemas: dict[str, Any]) -> str:
    rows = [f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p['in'])}</td>"
            f"<td>{'required' if p.get('required') else ''}</td>"
            f"<td>{escape(_type(p.get('schema', {})))}</td>"
            f"<td>{escape(p.get('description', ''))}</td></tr>"
            for p in op.get("parameters", [])]
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = body.get("schema", {}).get("$ref", "")
    model = schemas.get(ref.rsplit("/", 1)[-1], {}) if ref else {}
    required = set(model.get("required", []))
    rows += [f"<tr><td><code>{escape(name)}</code></td><td>body</td>"
             f"<td>{'required' if name in required else ''}</td>"
             f"<td>{escape(_type(prop))}</td><td>{escape(prop.get('description', ''))}</td></tr>"
             for name, prop in model.get("properties", {}).items()]
    table = ("<table><tr><th>name</th><th>in</th><th></th><th>type</th><th>meaning</th></tr>"
             + "".join(rows) + "</table>") if rows else ""
    return (f"<section><h2><span class=method>{escape(method.upper())}</span> "
            f"<code>{escape(path)}</code></h2><p>{escape(op.get('summary', ''))}</p>"
            f"{table}</section>")


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " | ".join(_type(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    return str(schema.get("format") or schema.get("type") or "any")

"""The offline docs page at /docs, rendered on the server from the OpenAPI schema (FastAPI's
own page loads its scripts from a CDN; nothing here touches the network): each route with its
parameters and body fields, the descriptions' Markdown as HTML (``code``, **bold**, links,
paragraphs and lists), and a try-it-out form per route that static/docs.js sends with the key
the page was logged in with (or one pasted at the top)."""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\((/[^)\s]*|#[^)\s]*)\)")   # this server's pages only


def inline(text: str) -> str:
    """One line of Markdown as HTML: the text escaped, then code spans, bold and links."""
    parts = _CODE.split(text)   # odd items are code: nothing inside them is Markdown
    out = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append(f"<code>{escape(part)}</code>")
            continue
        html = _BOLD.sub(r"<strong>\1</strong>", escape(part))
        out.append(_LINK.sub(r'<a href="\2">\1</a>', html))
    return "".join(out)


def markdown(text: str) -> str:
    """Paragraphs (split at blank lines; their lines joined) and lists (lines starting "- ")."""
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if lines and all(line.startswith("- ") for line in lines):
            blocks.append("<ul>" + "".join(f"<li>{inline(line[2:])}</li>" for line in lines)
                          + "</ul>")
        elif lines:
            blocks.append(f"<p>{inline(' '.join(lines))}</p>")
    return "".join(blocks)


def render_docs(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    schemas = spec.get("components", {}).get("schemas", {})
    parts = [f"<h1>{escape(info.get('title', ''))} {escape(info.get('version', ''))}</h1>",
             f"<div class=desc>{markdown(info.get('description', ''))}</div>",
             '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>',
             '<form id=docs-key-form class=row><label class=grow>API key for "Try it" '
             '<input id=docs-key type=password autocomplete=off placeholder="edb_… (the web '
             'page\'s key if you logged in there)"></label></form>']
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            parts.append(_operation(method, path, op, schemas))
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>engramdb API</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel=stylesheet href="/static/app.css">'
        '<script type=module src="/static/docs.js"></script></head><body class=docs>'
        + "".join(parts) + "</body></html>"
    )


def _operation(method: str, path: str, op: dict[str, Any], schemas: dict[str, Any]) -> str:
    params = [p for p in op.get("parameters", []) if p.get("in") in ("path", "query")]
    rows = [f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p['in'])}</td>"
            f"<td>{'required' if p.get('required') else ''}</td>"
            f"<td>{escape(_type(p.get('schema', {})))}</td>"
            f"<td>{inline(p.get('description', ''))}</td></tr>"
            for p in op.get("parameters", [])]
    model = _body_model(op, schemas)
    required = set(model.get("required", []))
    rows += [f"<tr><td><code>{escape(name)}</code></td><td>body</td>"
             f"<td>{'required' if name in required else ''}</td>"
             f"<td>{escape(_type(prop))}</td><td>{inline(prop.get('description', ''))}</td></tr>"
             for name, prop in model.get("properties", {}).items()]
    table = ("<div class=scroll><table><tr><th>name</th><th>in</th><th></th><th>type</th>"
             "<th>meaning</th></tr>" + "".join(rows) + "</table></div>") if rows else ""
    return (f"<section><h2><span class=method>{escape(method.upper())}</span> "
            f"<code>{escape(path)}</code></h2><p>{inline(op.get('summary', ''))}</p>"
            f"{markdown(op.get('description', ''))}{table}"
            f"{_try(method, path, params, model, schemas)}</section>")


def _try(method: str, path: str, params: list[dict[str, Any]], model: dict[str, Any],
         schemas: dict[str, Any]) -> str:
    """The try-it-out form: one input a parameter (a list: comma-separated), the body as JSON
    with its required fields and defaults filled in, and where the answer goes."""
    fields = "".join(
        f"<label>{escape(p['name'])}{' *' if p.get('required') else ''} "
        f"<input name=\"{escape(p['name'])}\" data-in={escape(p['in'])}"
        f"{' data-list' if _is_list(p.get('schema', {})) else ''}"
        f"{' required' if p.get('required') else ''}></label>"
        for p in params if p["name"] not in ("user", "agent"))
    body = ""
    if model:
        example = json.dumps(_example(model, schemas), ensure_ascii=False, indent=2)
        body = (f"<label class=body>JSON body <textarea name=body rows="
                f"{min(example.count(chr(10)) + 2, 12)}>{escape(example)}</textarea></label>")
    return (f"<details class=try><summary>Try it</summary><form class=try-form "
            f"data-method={escape(method.upper())} data-path=\"{escape(path)}\">"
            f"<div class=row>{fields}</div>{body}<p class=row><button class=primary>"
            f"Send {escape(method.upper())} {escape(path)}</button></p>"
            "<pre class=\"block answer\" hidden></pre></form></details>")


def _body_model(op: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    schema = body.get("schema", {})
    refs = [schema.get("$ref", "")] + [s.get("$ref", "") for s in schema.get("anyOf", [])]
    ref = next((r for r in refs if r), "")
    return schemas.get(ref.rsplit("/", 1)[-1], {}) if ref else {}


def _example(model: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    """A body to start from: the required fields (an empty value of their type) and the
    fields whose default is not null."""
    blank = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [],
             "object": {}}
    required = set(model.get("required", []))
    out: dict[str, Any] = {}
    for name, prop in model.get("properties", {}).items():
        if prop.get("default") is not None:
            out[name] = prop["default"]
        elif name in required:
            ref = prop.get("$ref") or (prop.get("items") or {}).get("$ref")
            sub = schemas.get(ref.rsplit("/", 1)[-1], {}) if ref else {}
            value = _example(sub, schemas) if sub and "properties" in sub else \
                blank.get(prop.get("type", "string"), "")
            out[name] = [value] if prop.get("type") == "array" and sub else value
    return out


def _is_list(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "array" or any(s.get("type") == "array"
                                                for s in schema.get("anyOf", []))


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " | ".join(_type(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    return str(schema.get("format") or schema.get("type") or "any")

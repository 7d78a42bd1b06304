"""Importing what other memory systems export: a mem0 ``get_all`` dump, a JSONL of LangGraph
store items, a Letta archival-memory export. ``engramdb import`` reads engramdb's own format
only; these are read here and written through the same shapes the adapters use, so the mem0
adapter and the LangGraph store read the imported memories back as they were.

- mem0: a JSON object ``{"results": [...]}``, a JSON list of items, or JSONL (one item a line);
  an item has ``memory`` and at least one of ``user_id``/``agent_id``/``run_id``, and may have
  ``id``, ``metadata``, ``created_at``, ``role``, ``actor_id``.
- langgraph: JSONL, a line ``{"namespace": [...], "key": "...", "value": {...}}`` (what
  ``Item.dict()`` gives), into the scope given (the default scope otherwise).
- letta: a JSON list of passages (or ``{"passages": [...]}``, or JSONL), each with ``text`` and
  optionally ``id``, ``created_at``, ``tags``, into the scope given.

Every line is read and checked before anything is written; a bad one raises ``Invalid`` naming
it, and nothing is written. All writes happen in one transaction."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any

from ..errors import Invalid
from ..integrations.langgraph_shapes import put_item, strings, value_text
from ..integrations.mem0_shapes import IDS, Mem0Error, check_id, tag
from ..model import Draft, Scope

if TYPE_CHECKING:
    from ..facade import Facade

SOURCES = ("mem0", "langgraph", "letta")


def import_foreign(memory: Facade, fp: IO[str], source: str, *, user: str | None = None,
                   agent: str | None = None) -> dict[str, int]:
    """Read ``fp`` as a ``source`` export and write it; returns counts by write action
    (``add``, ``update``, ``noop``, ``reject``...) and ``items``."""
    if source not in SOURCES:
        raise Invalid(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
    rows = read_rows(fp.read(), "passages" if source == "letta" else "results")
    if source == "langgraph":
        return _langgraph(memory, rows, memory._scope(user, agent))
    if source == "letta":
        scope = memory._scope(user, agent)
        return _write(memory, {scope: [_letta(i, row) for i, row in enumerate(rows, 1)]})
    return _write(memory, _mem0(memory, rows))


def read_rows(text: str, wrapper: str) -> list[dict[str, Any]]:
    """The objects of a JSON document (a list, or an object holding one under ``wrapper``) or
    of JSONL."""
    if not text.strip():
        raise Invalid("the file is empty")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        doc = [_line(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if isinstance(doc, dict):
        doc = doc.get(wrapper) if wrapper in doc else [doc]
    if not isinstance(doc, list):
        raise Invalid(f"expected a list of items (or {{{wrapper!r}: [...]}})")
    for n, row in enumerate(doc, 1):
        if not isinstance(row, dict):
            raise Invalid(f"item {n}: expected an object, got {type(row).__name__}")
    return doc


def _line(n: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise Invalid(f"line {n}: not JSON ({exc.msg})") from None


def _mem0(memory: Facade, rows: list[dict[str, Any]]) -> dict[Scope, list[Draft]]:
    out: dict[Scope, list[Draft]] = {}
    default = memory.default_scope
    for n, row in enumerate(rows, 1):
        try:
            ids = {k: v for k in IDS if (v := check_id(row.get(k), k)) is not None}
            if not ids:
                raise Invalid("no user_id, agent_id or run_id")
            text = _text(row.get("memory"), "memory")
            meta = row.get("metadata") or {}
            if not isinstance(meta, dict):
                raise Invalid("metadata is not an object")
            more = {k: row[k] for k in ("role", "actor_id") if isinstance(row.get(k), str)}
            if isinstance(row.get("id"), str):
                meta = {**meta, "mem0_id": row["id"]}
            draft = Draft(content=text, metadata=tag(ids, meta, **more),
                          at=_time(row.get("created_at"), "created_at"))
        except (Invalid, Mem0Error) as exc:
            raise Invalid(f"item {n}: {exc}") from None
        scope = Scope(ids.get("user_id", default.user), ids.get("agent_id", default.agent))
        out.setdefault(scope, []).append(draft)
    return out


def _letta(n: int, row: dict[str, Any]) -> Draft:
    try:
        text = _text(row.get("text"), "text")
        meta: dict[str, Any] = {"letta": {k: row[k] for k in ("id", "agent_id", "tags")
                                          if row.get(k) is not None}}
        return Draft(content=text, kind="fact", metadata=meta,
                     at=_time(row.get("created_at"), "created_at"))
    except Invalid as exc:
        raise Invalid(f"item {n}: {exc}") from None


def _langgraph(memory: Facade, rows: list[dict[str, Any]], scope: Scope) -> dict[str, int]:
    items = []
    for n, row in enumerate(rows, 1):
        ns, key, value = row.get("namespace"), row.get("key"), row.get("value")
        if (not isinstance(ns, list) or not ns
                or not all(isinstance(x, str) and x and "." not in x for x in ns)):
            raise Invalid(f"item {n}: namespace must be a non-empty list of labels without '.'")
        if not isinstance(key, str) or not key:
            raise Invalid(f"item {n}: key must be a non-empty string")
        if not isinstance(value, dict):
            raise Invalid(f"item {n}: value must be an object")
        items.append((tuple(ns), key, value))
    with memory.store.transaction():
        for ns, key, value in items:
            put_item(memory, scope, ns, key, value, value_text(value, strings(value)))
    return {"items": len(items), "put": len(items)}


def _write(memory: Facade, by_scope: dict[Scope, list[Draft]]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    with memory.store.transaction():
        for scope, drafts in by_scope.items():
            for r in memory.remember_many(drafts, user=scope.user, agent=scope.agent):
                counts[r.action.value] += 1
    return {"items": sum(counts.values()), **counts}


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"{name} must be non-empty text")
    return value


def _time(value: Any, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise Invalid(f"{name} is not an ISO 8601 time: {value!r}") from None
    if at.tzinfo is None:
        raise Invalid(f"{name} has no timezone: {value!r}")
    return at

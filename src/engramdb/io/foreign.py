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

Every item is read and checked before anything is written; a bad one raises ``Invalid`` naming
it (``item n`` of a JSON list, ``line n`` of JSONL) and why, and nothing is written. With
``skip_bad=True`` the bad items are left out, the good ones are written, and the answer's
``bad`` lists each left-out item with its place and reason. A ``created_at`` without a time
zone is read as UTC. All writes happen in one transaction."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any

from ..clock import aware
from ..errors import Invalid
from ..integrations.langgraph_shapes import put_item, strings, value_text
from ..integrations.mem0_shapes import IDS, Mem0Error, check_id, tag
from ..model import Draft, Scope
from .bad import Bad

if TYPE_CHECKING:
    from ..facade import Facade

SOURCES = ("mem0", "langgraph", "letta")


Row = tuple[int, dict[str, Any]]   # an item's place (its item or line number), the item


def import_foreign(memory: Facade, fp: IO[str], source: str, *, user: str | None = None,
                   agent: str | None = None, skip_bad: bool = False) -> dict[str, Any]:
    """Read ``fp`` as a ``source`` export and write it; returns counts by write action
    (``add``, ``update``, ``noop``, ``reject``...) and ``items``; with ``skip_bad``, also
    ``bad``: ``[{"item" or "line": n, "reason": "..."}]``."""
    if source not in SOURCES:
        raise Invalid(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
    if not isinstance(skip_bad, bool):
        raise Invalid(f"skip_bad must be True or False, not {type(skip_bad).__name__}")
    bad, rows = read_rows(fp.read(), "passages" if source == "letta" else "results", skip_bad)
    if source == "langgraph":
        return bad.report(_langgraph(memory, rows, memory._scope(user, agent), bad))
    if source == "letta":
        scope = memory._scope(user, agent)
        return bad.report(_write(memory, {scope: _checked(rows, _letta, bad)}, bad))
    return bad.report(_write(memory, _mem0(memory, rows, bad), bad))


def read_rows(text: str, wrapper: str, skip_bad: bool = False) -> tuple[Bad, list[Row]]:
    """The objects of a JSON document (a list, or an object holding one under ``wrapper``),
    numbered as items, or of JSONL, numbered by line; and the ``Bad`` that keeps the rest."""
    if not text.strip():
        raise Invalid("the file is empty")
    try:
        doc = json.loads(text)
        bad = Bad(skip_bad, "item")
        numbered = None
    except json.JSONDecodeError:
        bad = Bad(skip_bad, "line")
        numbered = [(n, row) for n, line in enumerate(text.splitlines(), 1) if line.strip()
                    and (row := _line(n, line, bad)) is not _UNREAD]
    if numbered is None:
        if isinstance(doc, dict):
            doc = doc.get(wrapper) if wrapper in doc else [doc]
        if not isinstance(doc, list):
            raise Invalid(f"expected a list of items (or {{{wrapper!r}: [...]}})")
        numbered = list(enumerate(doc, 1))
    rows = []
    for n, row in numbered:
        if isinstance(row, dict):
            rows.append((n, row))
        else:
            bad.refuse(n, f"expected an object, got {type(row).__name__}")
    return bad, rows


_UNREAD = object()


def _line(n: int, line: str, bad: Bad) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        bad.refuse(n, f"not JSON ({exc.msg})")
        return _UNREAD


def _checked(rows: list[Row], read: Callable[[dict[str, Any]], Draft], bad: Bad
             ) -> list[tuple[int, Draft]]:
    out = []
    for n, row in rows:
        try:
            out.append((n, read(row)))
        except (Invalid, Mem0Error) as exc:
            bad.refuse(n, str(exc))
    return out


def _mem0(memory: Facade, rows: list[Row], bad: Bad) -> dict[Scope, list[tuple[int, Draft]]]:
    out: dict[Scope, list[tuple[int, Draft]]] = {}
    default = memory.default_scope
    for n, row in rows:
        try:
            ids = {k: v for k in IDS if (v := check_id(row.get(k), k)) is not None}
            if not ids:
                raise Invalid("no user_id, agent_id or run_id: give at least one")
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
            bad.refuse(n, str(exc))
            continue
        scope = Scope(ids.get("user_id", default.user), ids.get("agent_id", default.agent))
        out.setdefault(scope, []).append((n, draft))
    return out


def _letta(row: dict[str, Any]) -> Draft:
    text = _text(row.get("text"), "text")
    meta: dict[str, Any] = {"letta": {k: row[k] for k in ("id", "agent_id", "tags")
                                      if row.get(k) is not None}}
    return Draft(content=text, kind="fact", metadata=meta,
                 at=_time(row.get("created_at"), "created_at"))


def _langgraph(memory: Facade, rows: list[Row], scope: Scope, bad: Bad) -> dict[str, int]:
    items = []
    for n, row in rows:
        ns, key, value = row.get("namespace"), row.get("key"), row.get("value")
        if (not isinstance(ns, list) or not ns
                or not all(isinstance(x, str) and x and "." not in x for x in ns)):
            bad.refuse(n, "namespace must be a non-empty list of labels without '.'")
        elif not isinstance(key, str) or not key:
            bad.refuse(n, "key must be a non-empty string")
        elif not isinstance(value, dict):
            bad.refuse(n, "value must be an object")
        else:
            items.append((tuple(ns), key, value))
    with memory.store.transaction():
        for ns, key, value in items:
            put_item(memory, scope, ns, key, value, value_text(value, strings(value)))
    return {"items": len(items), "put": len(items)}


def _write(memory: Facade, by_scope: dict[Scope, list[tuple[int, Draft]]], bad: Bad
           ) -> dict[str, int]:
    """Write every scope's drafts in one transaction; a draft the engine finds invalid is
    refused by its item's number (undoing the whole import unless skipping)."""
    counts: Counter[str] = Counter()
    with memory.store.transaction():
        for scope, numbered in by_scope.items():
            written = memory.remember_many([d for _, d in numbered], user=scope.user,
                                           agent=scope.agent, on_error="skip")
            for (n, _), r in zip(numbered, written, strict=True):
                if r.rule == "invalid_input":
                    bad.refuse(n, str(r.evidence.get("error", "invalid")))
                else:
                    counts[r.action.value] += 1
    return {"items": sum(counts.values()), **counts}


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"{name} must be non-empty text")
    return value


def _time(value: Any, name: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid(f"{name} must be ISO 8601 text such as 2026-01-01T10:00:00Z, "
                      f"not {type(value).__name__}")
    return aware(value, name)   # no time zone: UTC

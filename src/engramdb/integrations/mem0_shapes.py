"""mem0's shapes: its id validation, its metadata filter language and its memory dicts.

Kept apart from the ``Memory`` class so that the class only routes calls. The rules follow
mem0ai 2.2.1 (mem0/memory/main.py): ids are trimmed strings without whitespace, at least one
of user_id / agent_id / run_id scopes every call, and a result item carries ``id``,
``memory``, ``hash``, ``metadata``, ``created_at``, ``updated_at`` and the promoted keys
(``user_id``, ``agent_id``, ``run_id``, ``actor_id``, ``role``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..errors import Invalid
from ..model import Record

IDS = ("user_id", "agent_id", "run_id")
PROMOTED = ("user_id", "agent_id", "run_id", "actor_id", "role")
LOGICAL = ("AND", "OR", "NOT")


class Mem0Error(Invalid, ValueError):
    """Bad input through the mem0 adapter: an engramdb ``Invalid`` that is also the
    ``ValueError`` mem0 raises for the same input."""


class NotFoundError(Mem0Error):
    """mem0 says "Memory with id ... not found" with a ValueError; so does this."""


def check_id(value: Any, name: str) -> str | None:
    """mem0's entity id rule: None passes; anything else becomes a trimmed string that is
    neither empty nor holds whitespace."""
    if value is None:
        return None
    text = value if isinstance(value, str) else str(value)
    text = text.strip()
    if not text:
        raise Mem0Error(f"Invalid {name}: cannot be empty or whitespace-only. "
                        "Provide a valid identifier.")
    if any(c.isspace() for c in text):
        raise Mem0Error(f"Invalid {name}: cannot contain whitespace. "
                        "Provide a valid identifier without spaces.")
    return text


def check_ids(ids: dict[str, Any], what: str) -> dict[str, str]:
    """The given ids, validated; at least one of them (mem0 raises otherwise)."""
    clean = {k: v for k in IDS if (v := check_id(ids.get(k), k)) is not None}
    if not clean:
        raise Mem0Error(f"At least one of 'user_id', 'agent_id', or 'run_id' must be provided "
                        f"({what}).")
    return clean


def check_limit(value: Any, name: str = "top_k") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Mem0Error(f"{name} must be a valid integer")
    if value < 0:
        raise Mem0Error(f"Invalid {name}: {value}. Must be a non-negative integer.")
    return value


def check_threshold(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Mem0Error("threshold must be a valid number")
    if not 0 <= value <= 1:
        raise Mem0Error(f"Invalid threshold: {value}. Must be between 0 and 1 (inclusive).")
    return float(value)


def check_query(query: Any) -> str:
    if not isinstance(query, str):
        raise Mem0Error("Invalid query: must be a non-empty string.")
    if not query.strip():
        raise Mem0Error("Invalid query: cannot be empty or whitespace-only.")
    return query.strip()


def tag(ids: dict[str, str], metadata: dict[str, Any], **more: str) -> dict[str, Any]:
    """What the adapter keeps in an engramdb memory's metadata (under ``mem0``): the ids it
    was added with, the role and actor of its message, and the caller's own metadata."""
    return {"mem0": {**ids, **more, "metadata": metadata}}


def payload(rec: Record) -> dict[str, Any]:
    """What mem0 calls a memory's payload: the caller's metadata and the ids. A memory
    written without the adapter has its metadata and its scope's ids."""
    mine = rec.metadata.get("mem0")
    if isinstance(mine, dict):
        return {**(mine.get("metadata") or {}), **{k: mine[k] for k in PROMOTED if k in mine}}
    return {**rec.metadata, "user_id": rec.user, "agent_id": rec.agent}


_ISO: dict[datetime, str] = {}
ISO_KEPT = 4096


def iso(at: datetime) -> str:
    """``at.isoformat()``, remembered for UTC times (what the stores give back): a memory is
    read far more often than it changes, and formatting costs more than the rest of its
    item. Only UTC times are kept, since equal instants in other zones format differently;
    at most ``ISO_KEPT`` of them (then it starts again)."""
    if at.tzinfo is not UTC:
        return at.isoformat()
    text = _ISO.get(at)
    if text is None:
        if len(_ISO) >= ISO_KEPT:
            _ISO.clear()
        text = _ISO[at] = at.isoformat()
    return text


def item(rec: Record, score: float | None = None, *, scored: bool = False) -> dict[str, Any]:
    """A memory in mem0's result shape (with ``score`` when given or ``scored``); what only
    engramdb knows goes under ``engramdb``. Hot on every read (a get is one indexed lookup),
    so it builds each dict once and formats a timestamp only when it differs."""
    created = iso(rec.recorded_at)  # most memories never change: format once
    updated = created if rec.updated_at == rec.recorded_at else iso(rec.updated_at)
    out: dict[str, Any] = {"id": rec.id, "memory": rec.content, "hash": rec.content_hash,
                           "metadata": None, "created_at": created, "updated_at": updated}
    if score is not None or scored:
        out["score"] = score
    meta = rec.metadata
    mine = meta.get("mem0")
    if isinstance(mine, dict):
        given = mine.get("metadata")
        own = {k: v for k, v in meta.items() if k != "mem0"} if len(meta) > 1 else {}
        for k in PROMOTED:
            if k in mine:
                out[k] = mine[k]
    else:
        given, own = meta, {}
        for k in ("actor_id", "role"):
            if k in meta:
                out[k] = meta[k]
        out["user_id"], out["agent_id"] = rec.user, rec.agent
    if given:
        out["metadata"] = {k: v for k, v in given.items() if k not in PROMOTED} or None
    # ``_value_``: an enum member's value without the ``value`` property's descriptor call
    out["engramdb"] = {"kind": rec.kind._value_, "uri": rec.uri, "version": rec.version,
                       "superseded_by": rec.superseded_by, "layer": rec.layer._value_,
                       "metadata": own}
    return out


def matches(meta: dict[str, Any], flt: dict[str, Any]) -> bool:
    """mem0's filter language over a payload: ``{"key": value}``, ``{"key": "*"}``,
    ``{"key": {op: value}}`` (eq, ne, in, nin, gt, gte, lt, lte, contains, icontains) and
    AND / OR / NOT lists; every top-level entry must hold."""
    for key, cond in flt.items():
        if key in LOGICAL:
            if not _logical(key, cond, meta):
                return False
        elif not _holds(meta.get(key), key in meta, cond):
            return False
    return True


def _logical(op: str, conds: Any, meta: dict[str, Any]) -> bool:
    if not isinstance(conds, list) or not conds:
        raise Mem0Error(f"{op} operator requires a non-empty list of conditions")
    for c in conds:
        if not isinstance(c, dict):
            raise Mem0Error(f"{op} operator requires a list of conditions (dicts)")
    if op == "AND":
        return all(matches(meta, c) for c in conds)
    if op == "OR":
        return any(matches(meta, c) for c in conds)
    return not any(matches(meta, c) for c in conds)


def _holds(value: Any, present: bool, cond: Any) -> bool:
    if cond == "*":
        return present
    if not isinstance(cond, dict):
        return present and value == cond
    return all(_op(name, value, present, arg) for name, arg in cond.items())


OPERATORS = frozenset({"eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains",
                       "icontains"})


def _op(name: str, value: Any, present: bool, arg: Any) -> bool:
    if name not in OPERATORS:
        raise Mem0Error(f"Unsupported metadata filter operator: {name}")
    if name == "ne":
        return value != arg
    if name == "nin":
        return value not in _list(arg, name)
    if not present:
        return False
    try:
        if name == "eq":
            return bool(value == arg)
        if name == "in":
            return value in _list(arg, name)
        if name in ("gt", "gte", "lt", "lte"):
            return _compare(name, value, arg)
        if name == "contains":
            return isinstance(value, str) and str(arg) in value
        if name == "icontains":
            return isinstance(value, str) and str(arg).lower() in value.lower()
    except TypeError:
        pass
    return False


def _compare(name: str, value: Any, arg: Any) -> bool:
    if name == "gt":
        return bool(value > arg)
    if name == "gte":
        return bool(value >= arg)
    if name == "lt":
        return bool(value < arg)
    return bool(value <= arg)


def _list(arg: Any, name: str) -> list[Any]:
    if not isinstance(arg, list | tuple | set):
        raise Mem0Error(f"the {name} operator needs a list")
    return list(arg)

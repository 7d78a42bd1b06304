"""LangGraph items as engramdb memories, without LangGraph itself (the store and the importer
of LangGraph JSONL share it): an item ``(namespace, key)`` is the memory at
``note://langgraph/<ns>/.../@/<key>``; its value is kept whole in the metadata (``langgraph``)
and its text (the given index fields, else every string in it) is what recall searches."""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import Invalid
from ..model import Draft, Record, Scope

if TYPE_CHECKING:
    from ..engine import Memory

ROOT = "note://langgraph/"
KEY_MARK = "@"
SAFE = frozenset("-_")
PLAIN = re.compile(r"[\w-]+")


def segment(label: str) -> str:
    """A namespace label or key as one URI segment: letters, digits, '-' and '_' stay; any
    other character is '~' and its UTF-8 bytes in hex ('~2e' for '.'), so no two labels meet."""
    if label.isalnum() or PLAIN.fullmatch(label):  # \w is exactly str.isalnum() or '_'
        return label
    out = []
    for ch in label:
        if ch.isalnum() or ch in SAFE:
            out.append(ch)
        else:
            out.append("".join(f"~{b:02x}" for b in ch.encode("utf-8")))
    return "".join(out)


@lru_cache(maxsize=4096)  # a pure function of the item's address; agents read the same keys
def uri_of(namespace: tuple[str, ...], key: str) -> str:
    if PLAIN.fullmatch("".join(namespace) + key):  # every label and the key stay as they are
        labels = "/".join(namespace)
    else:
        labels, key = "/".join(map(segment, namespace)), segment(key)
    return f"{ROOT}{labels}/{KEY_MARK}/{key}" if labels else f"{ROOT}{KEY_MARK}/{key}"


def prefix_of(namespace: tuple[str, ...]) -> str:
    return ROOT + "".join(f"{segment(x)}/" for x in namespace)


def namespace_of(rec: Record) -> tuple[str, ...]:
    return tuple(rec.metadata.get("langgraph", {}).get("namespace") or ())


def strings(value: Any) -> list[str]:
    """Every string in a JSON value, in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in strings(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in strings(v)]
    return []


def value_text(value: dict[str, Any], texts: list[str]) -> str:
    """The searchable text of an item: ``texts`` (from its index fields), else its value as
    JSON when it holds no text."""
    text = "\n".join(t for t in texts if isinstance(t, str) and t.strip())
    return text or json.dumps(value, ensure_ascii=False, sort_keys=True)


def current(memory: Memory, scope: Scope, uri: str) -> Record | None:
    """The memory at ``uri`` unless there is none or it was forgotten."""
    from ..engine.lookup import at_uri  # the engine loads on first use

    return at_uri(memory, scope, uri)


def put_item(memory: Memory, scope: Scope, namespace: tuple[str, ...], key: str,
             value: dict[str, Any], text: str, *, ttl: float | None = None,
             expires_at: datetime | None = None) -> Record:
    """Store the item exactly (a new memory, or a new version of the one at its URI)."""
    from ..engine.lookup import set_expiry, write_exact  # the engine loads on first use

    if not isinstance(value, dict):
        raise Invalid(f"a store value is a dict, got {type(value).__name__}")
    uri = uri_of(namespace, key)
    meta = {"langgraph": {"namespace": list(namespace), "key": key, "value": value,
                          "ttl": ttl}}
    old = current(memory, scope, uri)
    if old is None:
        return write_exact(memory, Draft(content=text, kind="fact", uri=uri, metadata=meta,
                                         expires_at=expires_at), scope)
    new = memory.update(old.id, content=text if text != old.content else None, metadata=meta,
                        user=scope.user, agent=scope.agent)
    if expires_at != old.expires_at:
        new = set_expiry(memory, scope, old.id, expires_at)
    return new

"""Reads and writes that adapters need and the facade does not offer: a memory found by its
id alone (in whichever scope holds it) or at an exact URI, a new expiry time, and a write
stored exactly as given (a key-value put)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..clock import aware
from ..errors import Conflict, Invalid
from ..ids import new_id
from ..model import Draft, Layer, Lifecycle, Record, Scope

if TYPE_CHECKING:
    from .memory import Memory

ACTOR = "user"


def find_by_id(memory: Memory, memory_id: str) -> Record | None:
    """The memory with this id in any scope (ids are unique across a store), or None: one
    indexed read (``Store.locate``), every layer."""
    if not isinstance(memory_id, str) or not memory_id:
        raise Invalid("give a memory id")
    return memory.store.locate(memory_id)


def at_uri(memory: Memory, scope: Scope, uri: str) -> Record | None:
    """The memory at this URI in the scope unless it was forgotten, or None: one indexed read.
    The URI is not checked (a caller that builds URIs from parts it escaped pays no check; a
    malformed one finds nothing, and a write still checks it)."""
    return memory.store.get_by_uri(scope, uri)


def live(record: Record | None, now: datetime) -> Record | None:
    """The record while it can be read: not forgotten, not past its expiry time."""
    if record is None or record.layer == Layer.DELETED:
        return None
    if record.expires_at is not None and record.expires_at <= now:
        return None
    return record


def readable(memory: Memory, record: Record | None) -> Record | None:
    """``live`` at the memory's clock, read only when the record has an expiry time."""
    if record is None or record.layer == Layer.DELETED:
        return None
    if record.expires_at is not None and record.expires_at <= memory._now():
        return None
    return record


def set_expiry(memory: Memory, scope: Scope, memory_id: str,
               expires_at: datetime | None) -> Record:
    """Give a memory a new expiry time (None: it no longer expires), as a new version. A
    memory with an expiry is temporary (lifecycle temp) and retired by sleep once it passes."""
    from ..write.prepare import LIFECYCLE_BY_PRIORITY, index_text

    at = aware(expires_at, "expires_at") if expires_at is not None else None
    with memory.store.transaction():
        old = memory.get(memory_id, user=scope.user, agent=scope.agent)
        if old.layer == Layer.DELETED:
            raise Conflict(f"memory {memory_id} is forgotten: restore it first")
        lifecycle = Lifecycle.TEMP if at else LIFECYCLE_BY_PRIORITY[old.priority]
        new = old.replace(expires_at=at, lifecycle=lifecycle, updated_at=memory._now(),
                          version=old.version + 1)
        memory.store.save(new, "update", index_text(new), None, actor=ACTOR, reason="expiry")
    return new


def write_exact(memory: Memory, draft: Draft, scope: Scope) -> Record:
    """Store the draft as it is: no quality gate, no duplicate or supersession judgement (a
    key-value store's put: the item at a URI is exactly what was put). Its URI must be free."""
    from ..write.prepare import build_record, embed_text, index_text

    now = memory._now()
    rec = build_record(draft, scope, new_id(now), now, memory.config.max_content_bytes)
    vector = memory._embed([embed_text(rec)])[0]
    with memory.store.transaction():
        memory.store.insert(rec, index_text(rec), vector, actor=ACTOR, reason="exact_put")
    return rec

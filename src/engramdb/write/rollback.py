"""Rollback: a record put back to what an earlier version said, as a new version."""

from __future__ import annotations

from datetime import datetime

from ..model import Record
from ..text.checks import content_hash

# What a version says (restored by a rollback). Everything else is the memory's state now and
# stays: id, scope, recorded_at, layer, uses, supersession (invalid_at, superseded_by).
RESTORED_FIELDS = (
    "content", "kind", "uri", "priority", "lifecycle", "importance", "at", "metadata", "people",
    "places", "topics", "keywords", "context", "valence", "intensity", "expires_at", "due_at",
    "source_session", "source_turn", "derived_from",
)


def rolled_back(current: Record, target: Record, now: datetime) -> Record:
    """``current`` saying again what ``target`` (an earlier snapshot of it) said, as version
    ``current.version + 1``; the dedup hash is recomputed from the restored content."""
    restored = {name: getattr(target, name) for name in RESTORED_FIELDS}
    return current.replace(**restored, content_hash=content_hash(target.content),
                           updated_at=now, version=current.version + 1)

"""A scope over time, as data for a picture: each memory at its ``at``; events (and
emotions, gists) as points, every other kind as a span of validity from ``at`` to
``invalid_at`` (open while it holds); superseded and archived ones marked as such.
Forgotten memories are left out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import Invalid
from ..model import Kind, Layer, Record, Scope
from ..store.protocol import ListFilter, Store

POINT_KINDS = frozenset({Kind.EVENT, Kind.EMOTION, Kind.GIST})
MAX_ITEMS = 2000


@dataclass
class Timeline:
    now: datetime
    since: datetime | None
    until: datetime | None
    items: list[Record]
    truncated: bool

    def to_dict(self) -> dict[str, Any]:
        return {"now": self.now.isoformat(),
                "since": self.since.isoformat() if self.since else None,
                "until": self.until.isoformat() if self.until else None,
                "truncated": self.truncated, "items": [item(r) for r in self.items]}


def item(rec: Record) -> dict[str, Any]:
    """What the picture needs of one memory."""
    return {
        "id": rec.id, "kind": rec.kind.value, "content": rec.content, "uri": rec.uri,
        "at": rec.at.isoformat(), "at_precision": rec.at_precision,
        "shape": "point" if rec.kind in POINT_KINDS else "span",
        "valid_from": rec.at.isoformat(),
        "invalid_at": rec.invalid_at.isoformat() if rec.invalid_at else None,
        "superseded_by": rec.superseded_by, "superseded": rec.invalid_at is not None,
        "layer": rec.layer.value, "priority": rec.priority.value,
    }


def check_limit(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_ITEMS:
        raise Invalid(f"limit must be an integer from 1 to {MAX_ITEMS}, got {limit!r}")


def timeline(store: Store, scope: Scope, now: datetime, since: datetime | None = None,
             until: datetime | None = None, limit: int = 500) -> Timeline:
    """The memories whose time (or span of validity) meets [since, until), oldest first; at
    most ``limit``, the newest kept when there are more."""
    check_limit(limit)
    if since is not None and until is not None and since >= until:
        raise Invalid("since must be before until")
    flt = ListFilter(layers=(Layer.CORE, Layer.ARCHIVED), until=until, newest_first=True)
    found: list[Record] = []
    truncated = False
    for rec in store.list(scope, flt):
        if since is not None and not _meets(rec, since):
            continue
        if len(found) == limit:
            truncated = True
            break
        found.append(rec)
    found.sort(key=lambda r: (r.at, r.recorded_at, r.id))
    return Timeline(now, since, until, found, truncated)


def _meets(rec: Record, since: datetime) -> bool:
    """Still of interest after ``since``: it happened then, or it held until then."""
    if rec.at >= since:
        return True
    if rec.kind in POINT_KINDS:
        return False
    return rec.invalid_at is None or rec.invalid_at > since

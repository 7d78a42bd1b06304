"""The triples the memory keeps (write/triples.py, the stores' ``triples`` table), asked for by
memory, subject or predicate: ``Memory.triples`` and the entity page read them here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Invalid
from ..model import Record, Scope
from ..store.protocol import Store, Triple
from ..text.checks import storable

MAX_LIMIT = 1000
MAX_TEXT = 200


@dataclass(frozen=True)
class Fact:
    """One triple of one memory, and whether that memory holds now."""

    memory_id: str
    triple: Triple
    current: bool

    def to_dict(self) -> dict[str, Any]:
        return {"memory_id": self.memory_id, **self.triple._asdict(), "current": self.current}


def check_part(name: str, value: object) -> str | None:
    """A subject or predicate to match: text of at most MAX_TEXT characters, compared in lower
    case (as write/triples.py writes them), or None (any)."""
    if value is None:
        return None
    if not isinstance(value, str) or not storable(value) or not value.strip() \
            or len(value) > MAX_TEXT:
        raise Invalid(f"{name} must be non-empty text of at most {MAX_TEXT} characters")
    return " ".join(value.lower().split())


def check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise Invalid(f"limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}")
    return limit


def triples(store: Store, scope: Scope, *, records: list[Record] | None = None,
            subject: str | None = None, predicate: str | None = None,
            current: bool = True, limit: int = 100) -> list[Fact]:
    """The triples of ``records`` (None: every memory of the scope) that match ``subject`` and
    ``predicate``; only those of memories that hold now unless ``current`` is False; the
    newest memory first, at most ``limit``."""
    ids = None if records is None else [r.id for r in records]
    if ids == []:
        return []
    found = store.triples(scope, ids=ids, subject=subject, predicate=predicate,
                          limit=limit if not current else MAX_LIMIT)
    known = {r.id: r for r in records or []}
    missing = [mid for mid, _ in found if mid not in known]
    known.update(store.get_many(scope, list(dict.fromkeys(missing))))
    out: list[Fact] = []
    for mid, triple in found:
        rec = known.get(mid)
        if rec is None or (current and not rec.current):
            continue
        out.append(Fact(mid, triple, rec.current))
        if len(out) >= limit:
            break
    return out

"""The entities a scope's memories name: the people, places and topics to start from (the
entity page's list). Read from the stores' concept table (core memories only): each concept with
how many memories hold it, most held first. A topic counts only where a memory lists it as a
topic: the keywords share the ``topic:`` concept names but are not entities a person chose.
The name is shown as a memory writes it ("Wang Lei", not the folded "wang lei")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Invalid
from ..model import Scope
from ..store.protocol import Store
from ..text.anchors import concepts_in

KINDS = ("person", "place", "topic")
MAX_LIMIT = 500
_FIELDS = {"person": ("people",), "place": ("places",), "topic": ("topics",)}


@dataclass(frozen=True)
class EntityName:
    name: str       # as the first memory holding it writes it
    kind: str       # person, place or topic
    memories: int   # how many core memories hold it

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "memories": self.memories}


def entities(store: Store, scope: Scope, limit: int = 100) -> list[EntityName]:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise Invalid(f"limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}")
    # more rows than asked: a topic that is only ever a keyword is left out below
    counted = store.concept_counts(scope, KINDS, 3 * limit)
    samples = store.get_many(scope, [mid for _, _, mid in counted])
    out: list[EntityName] = []
    for concept, n, mid in counted:
        kind = concept.split(":", 1)[0]
        rec = samples.get(mid)
        if rec is None:
            continue
        fields = {f: getattr(rec, f) for f in _FIELDS[kind]}
        written = dict(concepts_in(fields)).get(concept)
        if written:
            out.append(EntityName(written, kind, n))
        if len(out) == limit:
            break
    return out

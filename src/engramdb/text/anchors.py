"""A memory's concepts: its anchors (people, places, topics and keywords) as the names of
concept nodes (``person:wang lei``, ``topic:snow``). Spreading activation (recall/concepts.py)
joins the memories that share one; the stores index them so that a concept's members are one
indexed lookup."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ..model import Layer, Record
from .tokenize import normalize

ANCHOR_FIELDS = ("people", "places", "topics", "keywords")   # as a record and its data hold them
_KINDS = (("person", "people"), ("place", "places"), ("topic", "topics"), ("topic", "keywords"))


def concepts_in(anchors: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(concept name, the anchor as written) for each field -> values, in a fixed order."""
    out: dict[str, str] = {}
    for kind, attr in _KINDS:
        for anchor in anchors.get(attr) or ():
            key = normalize(anchor)
            if key:
                out.setdefault(f"{kind}:{key}", anchor)
    return list(out.items())


def concepts_of(record: Record) -> list[tuple[str, str]]:
    return concepts_in({attr: getattr(record, attr) for attr in ANCHOR_FIELDS})


def indexed_concepts(record: Record) -> list[str]:
    """The concept names the stores index for a record: a core memory's (association spreads
    through core memories only), none for another layer's."""
    if record.layer != Layer.CORE:
        return []
    return [name for name, _ in concepts_of(record)]


def concept_names(data_json: str) -> list[str]:
    """The concept names of a record's ``data`` column (JSON text on both backends)."""
    return [name for name, _ in concepts_in(json.loads(data_json))]

"""The candidate legs of the read path: BM25 over the text index, the dense vector search, the
anchors field and URI prefixes, each a ranked list of (memory id, score) from the store."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..model import Scope
from ..store.protocol import ListFilter, Store
from ..tracing import traced
from .plan import QueryPlan
from .presets import Leg, Preset

Ranked = list[tuple[str, float]]
TEXT_NOISE = 0.01  # a text match under this share of the best match is noise


@traced("recall.search")
def run_legs(store: Store, embed_query: Callable[[str], np.ndarray], scope: Scope,
             plan: QueryPlan, preset: Preset) -> dict[str, Ranked]:
    out: dict[str, Ranked] = {}
    for leg in preset.legs:
        ranked = run_leg(store, embed_query, scope, plan, leg)
        if ranked:
            out[leg.name] = ranked
    return out


def run_leg(store: Store, embed_query: Callable[[str], np.ndarray], scope: Scope,
            plan: QueryPlan, leg: Leg) -> Ranked:
    layers, depth = plan.layers, leg.depth
    if leg.name in ("bm25", "anchors"):
        fields = dict(leg.fields) or {"body": 1.0}
        found = store.search_text(scope, plan.tokens, fields, depth, layers)
        return without_noise(found)
    if leg.name == "dense":
        return store.search_vector(scope, embed_query(plan.query), depth, layers)
    if leg.name == "uri":
        if not plan.uri_prefix:
            return []
        flt = ListFilter(uri_prefix=plan.uri_prefix, layers=layers, limit=depth,
                         newest_first=True)
        return [(r.id, 1.0) for r in store.list(scope, flt)]
    raise ValueError(f"unknown leg {leg.name!r}")


def without_noise(found: Ranked) -> Ranked:
    """Drop text matches scoring under 1% of the best one: they matched only words found in
    most memories (BM25 gives those an IDF near 0), and a rank in the fusion would give them
    the weight of real evidence. In a tiny scope where every score is near 0, all stay."""
    if not found:
        return found
    floor = found[0][1] * TEXT_NOISE
    return [(mid, score) for mid, score in found if score >= floor]

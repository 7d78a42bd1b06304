"""The read path: query plan -> candidate legs -> reciprocal-rank fusion -> strength blend -> top k,
with archived memories woken by the query's cues alongside (wake.py).

Every hit carries the rank and score each leg gave it and the terms of the blend. The strength
is the memory's weight (dynamics/strength.py). Expired temp memories are never returned, even
before a sleep retires them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

import numpy as np

from ..dynamics.strength import DEFAULT_PARAMS, DecayParams, weight
from ..model import Explanation, Hit, Hits, Layer, LegScore, Record, Scope
from ..store.base import ListFilter, Store
from ..text import tokenize
from ..uri import DOMAINS
from .presets import Leg, Preset
from .wake import wake

_URI = re.compile(rf"\b(?:{'|'.join(sorted(DOMAINS))})://[^\s\"'<>]*")


@dataclass
class QueryPlan:
    query: str
    tokens: list[str]
    uri_prefix: str | None
    kinds: tuple[str, ...] = ()
    layers: tuple[Layer, ...] = (Layer.CORE,)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"tokens": self.tokens, "uri_prefix": self.uri_prefix, "kinds": list(self.kinds),
                "notes": self.notes}


def plan_query(query: str, kinds: tuple[str, ...] = ()) -> QueryPlan:
    match = _URI.search(query)
    uri_prefix = match.group(0) if match else None
    return QueryPlan(query=query, tokens=tokenize(query), uri_prefix=uri_prefix, kinds=kinds)


Ranked = list[tuple[str, float]]


class Recaller:
    """Runs a preset's legs for one scope; the engine owns it and hands it the store and model."""

    def __init__(self, store: Store, embed_query: Callable[[str], np.ndarray],
                 params: DecayParams = DEFAULT_PARAMS) -> None:
        self.store = store
        self.embed_query = embed_query
        self.params = params

    def legs(self, scope: Scope, plan: QueryPlan, preset: Preset) -> dict[str, Ranked]:
        out: dict[str, Ranked] = {}
        for leg in preset.legs:
            ranked = self._run_leg(scope, plan, leg)
            if ranked:
                out[leg.name] = ranked
        return out

    def _run_leg(self, scope: Scope, plan: QueryPlan, leg: Leg) -> Ranked:
        layers, depth = plan.layers, leg.depth
        if leg.name in ("bm25", "anchors"):
            fields = dict(leg.fields) or {"body": 1.0}
            return self.store.search_text(scope, plan.tokens, fields, depth, layers)
        if leg.name == "dense":
            return self.store.search_vector(scope, self.embed_query(plan.query), depth, layers)
        if leg.name == "uri":
            if not plan.uri_prefix:
                return []
            flt = ListFilter(uri_prefix=plan.uri_prefix, layers=layers, limit=depth,
                             newest_first=True)
            return [(r.id, 1.0) for r in self.store.list(scope, flt)]
        raise ValueError(f"unknown leg {leg.name!r}")

    def recall(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int, now: datetime) -> Hits:
        ranked = self.legs(scope, plan, preset)
        fused: dict[str, float] = {}
        seen: dict[str, dict[str, LegScore]] = {}
        for leg in preset.legs:
            for rank, (mid, score) in enumerate(ranked.get(leg.name, []), start=1):
                fused[mid] = fused.get(mid, 0.0) + leg.weight / (preset.rrf_k + rank)
                seen.setdefault(mid, {})[leg.name] = LegScore(rank, score)
        woken = wake(self.store, scope, plan.query, plan.tokens, preset, plan.kinds, now,
                     self.params)
        hits = [h for h in woken[:k] if self._allowed(h.memory, plan, now)]
        hits += self._best_candidates(scope, plan, preset, k, now, fused, seen, hits)
        hits.sort(key=lambda h: (-h.score, h.memory.id))
        if not hits:
            return Hits([], abstained=True, note="nothing in memory matches this query",
                        plan=plan.to_dict())
        return Hits(hits[:k], plan=plan.to_dict())

    def _best_candidates(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int,
                         now: datetime, fused: dict[str, float],
                         seen: dict[str, dict[str, LegScore]], pool: list[Hit]) -> list[Hit]:
        """Load and score candidates best-fused first, in growing batches, and stop once k
        hits beat what any remaining candidate could reach: the blend only scales the fused
        score by strength (at most 1) and the anchor factor (at most 1 + anchor_boost), so
        the result is exactly that of scoring every candidate."""
        ceiling = (1.0 + max(preset.anchor_boost, 0.0)) * (1.0 + 1e-9)
        order = sorted(fused, key=lambda mid: (-fused[mid], mid))
        hits: list[Hit] = []
        done, step = 0, max(2 * k, 16)
        while done < len(order):
            batch = order[done : done + step]
            done, step = done + len(batch), step * 2
            records = self.store.get_many(scope, batch)
            hits += [self._blend(records[m], fused[m], seen[m], plan, preset, now)
                     for m in batch if m in records and self._allowed(records[m], plan, now)]
            scores = sorted((h.score for h in [*pool, *hits]), reverse=True)
            reachable = fused[order[done]] * ceiling if done < len(order) else 0.0
            if len(scores) >= k and reachable < scores[k - 1]:
                break
        return hits

    @staticmethod
    def _allowed(record: Record, plan: QueryPlan, now: datetime) -> bool:
        if record.expires_at is not None and record.expires_at <= now:
            return False
        return not plan.kinds or record.kind.value in plan.kinds

    def _blend(self, record: Record, fused: float, legs: dict[str, LegScore], plan: QueryPlan,
               preset: Preset, now: datetime) -> Hit:
        strength = weight(record, now, self.params)
        factor = 1.0 - preset.strength_weight + preset.strength_weight * strength
        terms = {"rrf": fused, "strength_factor": factor}
        notes = []
        cues = anchor_cues(record, plan)
        if cues and preset.anchor_boost:
            terms["anchor_factor"] = 1.0 + preset.anchor_boost
            notes.append(f"query names its anchor(s): {', '.join(cues)}")
        final = fused * factor * terms.get("anchor_factor", 1.0)
        explanation = Explanation(legs=legs, fused=fused, strength=strength, terms=terms,
                                  final=final, notes=notes)
        return Hit(memory=record, score=final, explanation=explanation)


def anchor_cues(record: Record, plan: QueryPlan) -> list[str]:
    """The record's people, places and topics that the query names."""
    wanted = set(plan.tokens)
    return [a for a in (*record.people, *record.places, *record.topics)
            if not wanted.isdisjoint(_anchor_tokens(a))]


@lru_cache(maxsize=65536)
def _anchor_tokens(anchor: str) -> frozenset[str]:
    return frozenset(tokenize(anchor, keep_stopwords=True))

"""The read path: query plan -> candidate legs -> reciprocal-rank fusion -> strength blend -> top k,
with archived memories woken by the query's cues alongside (wake.py).

Every hit carries the rank and score each leg gave it and the terms of the blend. The strength
is the memory's weight (dynamics/strength.py). Expired temp memories are never returned, even
before a sleep retires them.

Time (recall/temporal.py): the plan carries the window the query names and a routing (window,
past or current); candidates outside the window, or superseded ones for a present or neutral
question, are left out and counted in the plan. A recall abstains, with a note, when a window
leaves nothing, when only superseded memories match a present question, and when no word of
the query matches and the best dense similarity is below the embedder's ``relevance_floor``
(an optional attribute; None or absent: never abstain on dense)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

import numpy as np

from ..dynamics.strength import DEFAULT_PARAMS, DecayParams, weight
from ..model import Explanation, Hit, Hits, Layer, LegScore, Record, Scope
from ..store.base import ListFilter, Store
from ..text import tokenize
from ..text.timewindow import TimeWindow, parse_window
from ..uri import DOMAINS
from .associate import associate, merge
from .collapse import collapse
from .diversify import mmr
from .presets import Leg, Preset
from .relevance import apply_floor, query_terms, score_hits
from .slotcue import SLOT_BOOST, AskedSlot, asked_slot, slot_factor
from .temporal import Routing, in_window, route, why_out
from .wake import wake
from .wakemeaning import Meaning

_URI = re.compile(rf"\b(?:{'|'.join(sorted(DOMAINS))})://[^\s\"'<>]*")


@dataclass
class QueryPlan:
    query: str
    tokens: list[str]
    uri_prefix: str | None
    kinds: tuple[str, ...] = ()
    layers: tuple[Layer, ...] = (Layer.CORE,)
    notes: list[str] = field(default_factory=list)
    window: TimeWindow | None = None     # the time the query names (applied when routed so)
    routing: Routing = field(default_factory=lambda: Routing("current", "no query analysed"))
    filtered: dict[str, int] = field(default_factory=dict)   # left out, by reason
    intent: str = "factual"              # recall/intent.py
    intent_reason: str = ""
    preset: str = ""                     # the preset that ran
    associated: list[str] = field(default_factory=list)   # ids brought in by association
    asked: AskedSlot | None = None       # the attribute a question asks about (slotcue.py)
    vector: np.ndarray | None = None     # the query's embedding, once computed

    @property
    def applied_window(self) -> TimeWindow | None:
        return self.window if self.routing.mode == "window" else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"tokens": self.tokens, "uri_prefix": self.uri_prefix,
                                  "kinds": list(self.kinds), "notes": self.notes,
                                  "routing": self.routing.to_dict(),
                                  "filtered": dict(self.filtered),
                                  "intent": self.intent, "intent_reason": self.intent_reason,
                                  "preset": self.preset, "associated": list(self.associated)}
        if self.window is not None:
            out["window"] = {**self.window.to_dict(), "applied": self.applied_window is not None}
        if self.asked is not None:
            out["asked_slot"] = self.asked.to_dict()
        return out


def plan_query(query: str, kinds: tuple[str, ...] = (), now: datetime | None = None) -> QueryPlan:
    match = _URI.search(query)
    uri_prefix = match.group(0) if match else None
    window = parse_window(query, now) if now is not None else None
    plan = QueryPlan(query=query, tokens=tokenize(query), uri_prefix=uri_prefix, kinds=kinds,
                     window=window, routing=route(query, window), asked=asked_slot(query))
    if window is not None and window.loose:
        plan.notes.append(f"{window.expr!r} names no year: read as {window.label()}, "
                          "not applied as a filter")
    return plan


Ranked = list[tuple[str, float]]
TEXT_NOISE = 0.01  # a text match under this share of the best match is noise
REPLAY_GAP = timedelta(days=30)  # newest memory written this long after it happened: history


class Recaller:
    """Runs a preset's legs for one scope; the engine owns it and hands it the store and model."""

    def __init__(self, store: Store, embed_query: Callable[[str], np.ndarray],
                 params: DecayParams = DEFAULT_PARAMS, relevance_floor: float | None = None,
                 hit_floor: float = 0.0) -> None:
        self.store = store
        self.hit_floor = hit_floor  # Config.relevance_floor: hits less relevant are dropped
        self.embed_query = embed_query
        self.params = params
        self.relevance_floor = relevance_floor

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
            found = self.store.search_text(scope, plan.tokens, fields, depth, layers)
            return without_noise(found)
        if leg.name == "dense":
            return self.store.search_vector(scope, self._vector(plan), depth, layers)
        if leg.name == "uri":
            if not plan.uri_prefix:
                return []
            flt = ListFilter(uri_prefix=plan.uri_prefix, layers=layers, limit=depth,
                             newest_first=True)
            return [(r.id, 1.0) for r in self.store.list(scope, flt)]
        raise ValueError(f"unknown leg {leg.name!r}")

    def recall(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int, now: datetime) -> Hits:
        self._place_relative(scope, plan)
        ranked = self.legs(scope, plan, preset)
        fused: dict[str, float] = {}
        seen: dict[str, dict[str, LegScore]] = {}
        for leg in preset.legs:
            for rank, (mid, score) in enumerate(ranked.get(leg.name, []), start=1):
                fused[mid] = fused.get(mid, 0.0) + leg.weight / (preset.rrf_k + rank)
                seen.setdefault(mid, {})[leg.name] = LegScore(rank, score)
        woken = wake(self.store, scope, plan.query, plan.tokens, preset, plan.kinds, now,
                     self.params, Meaning(lambda: self._vector(plan), ranked.get("dense", []),
                                         self.embed_query))
        left_out: list[Record] = []
        hits = [h for h in woken[:k] if self._allowed(h.memory, plan, now, left_out)]
        hits += self._best_candidates(scope, plan, preset, k, now, fused, seen, hits, left_out)
        hits.sort(key=lambda h: (-h.score, h.memory.id))
        if preset.assoc_slots > 0 and hits:
            hits = self._associate(scope, plan, preset, k, now, hits)
        if preset.mmr and hits:
            depth = 3 * k
            hits = mmr(hits, self.store.vectors(scope, [h.memory.id for h in hits[:depth]]),
                       preset.mmr, depth)
        if plan.routing.mode == "past":
            hits = self._past_first(scope, hits)
        if not hits:
            note = self._why_empty(plan, left_out) or "nothing in memory matches this query"
            return Hits([], abstained=True, note=note, plan=plan.to_dict())
        floor = self._below_floor(ranked, preset, woken)
        if floor:
            plan.filtered["below_relevance_floor"] = len(hits)
            return Hits([], abstained=True, note=floor, plan=plan.to_dict())
        hits, note = self._relevance(scope, plan, hits, ranked, k)
        if note:
            plan.filtered["below_relevance"] = min(len(hits), k) or k
            return Hits([], abstained=True, note=note, plan=plan.to_dict())
        plan.associated = [h.memory.id for h in hits[:k] if "associate" in h.explanation.legs]
        return Hits(hits[:k], plan=plan.to_dict())

    def _vector(self, plan: QueryPlan) -> np.ndarray:
        """The query's vector, embedded once per recall (the dense leg and waking share it)."""
        if plan.vector is None:
            plan.vector = self.embed_query(plan.query)
        return plan.vector

    def _relevance(self, scope: Scope, plan: QueryPlan, hits: list[Hit],
                   ranked: dict[str, Ranked], k: int) -> tuple[list[Hit], str]:
        """Each hit's relevance as its score (recall/relevance.py); those under the floor
        are dropped, and none left is an abstention with its note."""
        when = set(tokenize(plan.window.expr)) if plan.window is not None else set()
        terms = query_terms(self.store, scope, [t for t in plan.tokens if t not in when],
                            plan.layers)  # the time a query names is matched by its window
        top = collapse(hits[: 3 * k])
        score_hits(top, terms, ranked.get("dense", []))
        return apply_floor(top, self.hit_floor)

    def _associate(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int, now: datetime,
                   hits: list[Hit]) -> list[Hit]:
        """Spreading activation from the top hits (recall/associate.py): what it brings in
        passes the same filters as a direct hit and takes at most ``assoc_slots`` of k."""
        found = associate(self.store, scope, hits[:k], preset,
                          lambda rec: self._allowed(rec, plan, now, []))
        plan.associated = [h.memory.id for h in found]
        return merge(hits, found, max(k, len(hits)), preset.assoc_slots)

    def _place_relative(self, scope: Scope, plan: QueryPlan) -> None:
        """A window read from the clock ("last year") is relative to the clock only where the
        scope lives on the clock. When its newest memory was written more than ``REPLAY_GAP``
        after it happened, the scope holds history written later (an imported or replayed
        conversation): its "last year" is not the clock's, so the window is not applied and
        the plan says why. Windows that name their year are always applied."""
        window = plan.applied_window
        if window is None or window.anchored:
            return
        flt = ListFilter(layers=(Layer.CORE, Layer.ARCHIVED), limit=1, newest_first=True)
        newest = next(self.store.list(scope, flt), None)
        if newest is None or newest.recorded_at - newest.at <= REPLAY_GAP:
            return
        plan.routing = route(plan.query, None)
        plan.notes.append(
            f"{window.expr!r} is read from the clock ({window.label()}), but this scope's newest "
            f"memory happened on {newest.at.date()} and was written on "
            f"{newest.recorded_at.date()}: history written later, so the window is not applied")

    def _why_empty(self, plan: QueryPlan, left_out: list[Record]) -> str:
        window = plan.applied_window
        if window is not None:
            note = f"nothing remembered {window.label()} matches this query"
            if left_out:
                near = min(left_out, key=lambda r: min(abs(r.at - window.start),
                                                       abs(r.at - window.end)))
                note += f"; the nearest related memory is from {near.at.date()}"
            return note
        if left_out and plan.routing.mode == "current":
            latest = max(left_out, key=lambda r: r.invalid_at or r.at)
            when = latest.invalid_at.date() if latest.invalid_at else "?"
            return (f"only superseded memories match (the latest, {latest.content[:60]!r}, "
                    f"stopped holding on {when}); ask about the past to see them")
        return ""

    def _below_floor(self, ranked: dict[str, Ranked], preset: Preset, woken: list[Hit]) -> str:
        """Abstain when no word of the query matched and the dense leg is below the floor."""
        floor = self.relevance_floor
        if floor is None or woken or preset.leg("dense") is None:
            return ""
        if any(name != "dense" and ranked.get(name) for name in ranked):
            return ""
        best = max((score for _, score in ranked.get("dense", [])), default=0.0)
        if best >= floor:
            return ""
        return (f"no word of the query matches, and the best dense similarity {best:.3f} is "
                f"below the embedder's relevance floor {floor:.3f}")

    def _past_first(self, scope: Scope, hits: list[Hit]) -> list[Hit]:
        """Each superseded hit goes just above the current value its chain leads to (the
        newest former value first); chains keep the place of their best hit."""
        head: dict[str, str] = {}
        for hit in hits:
            rec, steps = hit.memory, 0
            while rec.superseded_by and steps < 50:
                nxt = self.store.get(scope, rec.superseded_by)
                if nxt is None:
                    break
                rec, steps = nxt, steps + 1
            head[hit.memory.id] = rec.id
            if hit.memory.invalid_at is not None:
                hit.explanation.notes.append(
                    f"a former value (superseded on {hit.memory.invalid_at.date()}), placed "
                    "first: the query asks about the past")
        place = {}
        for i, hit in enumerate(hits):
            place.setdefault(head[hit.memory.id], i)

        def key(h: Hit) -> tuple[int, int, float]:
            gone = h.memory.invalid_at
            return (place[head[h.memory.id]], gone is None,
                    -gone.timestamp() if gone else 0.0)

        return sorted(hits, key=key)

    def _best_candidates(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int,
                         now: datetime, fused: dict[str, float],
                         seen: dict[str, dict[str, LegScore]], pool: list[Hit],
                         left_out: list[Record]) -> list[Hit]:
        """Load and score candidates best-fused first, in growing batches, and stop once k
        hits beat what any remaining candidate could reach: the blend only scales the fused
        score by strength (at most 1) and the anchor factor (at most 1 + anchor_boost), so
        the result is exactly that of scoring every candidate."""
        ceiling = ((1.0 + max(preset.anchor_boost, 0.0)) * (1.0 + max(preset.recency_weight, 0.0))
                   * (1.0 + 1e-9))
        ceiling *= SLOT_BOOST if plan.asked is not None else 1.0
        order = sorted(fused, key=lambda mid: (-fused[mid], mid))
        hits: list[Hit] = []
        done, step = 0, max(2 * k, 16)
        while done < len(order):
            batch = order[done : done + step]
            done, step = done + len(batch), step * 2
            records = self.store.get_many(scope, batch)
            hits += [self._blend(records[m], fused[m], seen[m], plan, preset, now)
                     for m in batch
                     if m in records and self._allowed(records[m], plan, now, left_out)]
            scores = sorted((h.score for h in [*pool, *hits]), reverse=True)
            reachable = fused[order[done]] * ceiling if done < len(order) else 0.0
            if len(scores) >= k and reachable < scores[k - 1]:
                break
        return hits

    @staticmethod
    def _allowed(record: Record, plan: QueryPlan, now: datetime,
                 left_out: list[Record]) -> bool:
        """May the record be returned? Time rules count what they leave out in the plan and
        keep it in ``left_out`` (for the note of an empty result)."""
        if record.expires_at is not None and record.expires_at <= now:
            return False
        if plan.kinds and record.kind.value not in plan.kinds:
            return False
        window = plan.applied_window
        if window is not None and not in_window(record, window):
            _count(plan, "outside_window", why_out(record, window))
            left_out.append(record)
            return False
        if plan.routing.mode == "current" and record.invalid_at is not None:
            _count(plan, "superseded", f"{record.content[:40]!r}, superseded on "
                                       f"{record.invalid_at.date()}")
            left_out.append(record)
            return False
        return True

    def _blend(self, record: Record, fused: float, legs: dict[str, LegScore], plan: QueryPlan,
               preset: Preset, now: datetime) -> Hit:
        strength = weight(record, now, self.params)
        factor = 1.0 - preset.strength_weight + preset.strength_weight * strength
        terms = {"rrf": fused, "strength_factor": factor}
        notes = []
        window = plan.applied_window
        if window is not None:
            notes.append(f"in the window {window.label()} (at {record.at.date()})")
        cues = anchor_cues(record, plan)
        if cues and preset.anchor_boost:
            terms["anchor_factor"] = 1.0 + preset.anchor_boost
            notes.append(f"query names its anchor(s): {', '.join(cues)}")
        if preset.recency_weight:
            age_days = max(0.0, (now - record.at).total_seconds()) / 86400.0
            terms["recency_factor"] = 1.0 + preset.recency_weight * 2.0 ** (-age_days / 30.0)
        slot = slot_factor(record, plan.asked)
        if slot != 1.0:
            terms["slot_factor"] = slot
            notes.append(f"fills the slot the question asks about "
                         f"({' or '.join(plan.asked.attributes) if plan.asked else ''})")
        final = (fused * factor * terms.get("anchor_factor", 1.0)
                 * terms.get("recency_factor", 1.0) * slot)
        explanation = Explanation(legs=legs, fused=fused, strength=strength, terms=terms,
                                  final=final, notes=notes)
        return Hit(memory=record, score=final, explanation=explanation)


def _count(plan: QueryPlan, reason: str, example: str) -> None:
    plan.filtered[reason] = plan.filtered.get(reason, 0) + 1
    if plan.filtered[reason] == 1:
        plan.notes.append(f"left out ({reason}), e.g. {example}")


def without_noise(found: Ranked) -> Ranked:
    """Drop text matches scoring under 1% of the best one: they matched only words found in
    most memories (BM25 gives those an IDF near 0), and a rank in the fusion would give them
    the weight of real evidence. In a tiny scope where every score is near 0, all stay."""
    if not found:
        return found
    floor = found[0][1] * TEXT_NOISE
    return [(mid, score) for mid, score in found if score >= floor]


def anchor_cues(record: Record, plan: QueryPlan) -> list[str]:
    """The record's people, places and topics that the query names."""
    wanted = set(plan.tokens)
    return [a for a in (*record.people, *record.places, *record.topics)
            if not wanted.isdisjoint(_anchor_tokens(a))]


@lru_cache(maxsize=65536)
def _anchor_tokens(anchor: str) -> frozenset[str]:
    return frozenset(tokenize(anchor, keep_stopwords=True))

"""Ranking: candidates loaded best-fused first and blended with strength, anchor cues, recency
and the asked slot; the rules that may leave a record out (a time window does not: it ranks,
recall/temporal.py ``window_first``); former values placed first when the query asks about
the past."""

from __future__ import annotations

from collections.abc import Container
from datetime import datetime
from functools import lru_cache

from ..dynamics.strength import DecayParams, weight
from ..model import Explanation, Hit, Layer, LegScore, Record, Scope
from ..store.protocol import Store
from ..text import tokenize
from ..tracing import traced
from .plan import QueryPlan
from .presets import Preset
from .reading import read_many
from .slotcue import SLOT_BOOST, slot_factor
from .temporal import in_window


@traced("recall.rank")
def best_candidates(store: Store, params: DecayParams, scope: Scope, plan: QueryPlan,
                    preset: Preset, k: int, now: datetime, fused: dict[str, float],
                    seen: dict[str, dict[str, LegScore]], pool: list[Hit],
                    left_out: list[Record]) -> list[Hit]:
    """Load and score candidates best-fused first, in growing batches, and stop once k
    hits beat what any remaining candidate could reach: the blend only scales the fused
    score by strength (at most 1), recency, the asked slot and the anchor factor (1 +
    anchor_boost, only for a memory whose anchors hold a word of the query: ``holders``), so
    the result is exactly that of scoring every candidate. Under a time window, the hits
    inside it come first (recall/temporal.py), so the stop counts only those: a candidate
    inside the window is never missed for outside ones that scored higher."""
    plain = (1.0 + max(preset.recency_weight, 0.0)) * (1.0 + 1e-9)
    plain *= SLOT_BOOST if plan.asked is not None else 1.0
    ceiling = ((1.0 + max(preset.anchor_boost, 0.0)) * (1.0 + max(preset.recency_weight, 0.0))
               * (1.0 + 1e-9))
    ceiling *= SLOT_BOOST if plan.asked is not None else 1.0
    # best fused first, by id among equals: ids sorted, then a stable sort by score
    order = sorted(sorted(fused), key=fused.__getitem__, reverse=True)
    wanted = frozenset(plan.tokens)
    held = holders(store, scope, plan, wanted) if preset.anchor_boost > 0 else set()
    window = plan.applied_window
    hits: list[Hit] = []
    # k and a few first, then a quarter of k more at a time: at 10k memories (scale.py's
    # store) the stop came after a median 62 candidates for k = 60, a mean 49 for k = 30
    # (bench/results/speed.md)
    done, step, more = 0, k + max(k // 16, 2), max(k // 4, 8)
    while done < len(order):
        batch = order[done : done + step]
        done, step, more = done + len(batch), more, more * 2
        records = read_many(store, scope, batch)
        hits += [blend(records[m], fused[m], seen[m], plan, preset, now, params, wanted,
                       held is None or m in held)
                 for m in batch
                 if m in records and allowed(records[m], plan, now, left_out)]
        scores = sorted((h.score for h in [*pool, *hits]
                         if window is None or in_window(h.memory, window)), reverse=True)
        reachable = _reachable(order, done, fused, plain, ceiling, held)
        if len(scores) >= k and reachable < scores[k - 1]:
            break
    return hits


def holders(store: Store, scope: Scope, plan: QueryPlan,
            wanted: frozenset[str]) -> Container[str] | None:
    """The candidates an anchor cue can lift: the memories whose indexed anchors hold a word
    of the query (their tokens are ``anchor_cues``' tokens, written with each anchor); None
    (any of them) where the store cannot say, or searches the cold tier (out of its index)."""
    find = getattr(store, "anchor_holders", None)
    if find is None or Layer.COLD in plan.layers:
        return None
    found: Container[str] | None = find(scope, sorted(wanted))
    return found


def _reachable(order: list[str], done: int, fused: dict[str, float], plain: float,
               ceiling: float, held: Container[str] | None) -> float:
    """The best blend any candidate from ``order[done]`` on can reach: the next one's fused
    score times the ceiling, or, where only ``held`` ones can have the anchor factor, the
    larger of the next one's times ``plain`` and the next holder's times the ceiling."""
    if done >= len(order):
        return 0.0
    if held is None or order[done] in held:
        return fused[order[done]] * ceiling
    nxt = next((mid for mid in order[done:] if mid in held), None)
    return max(fused[order[done]] * plain, fused[nxt] * ceiling if nxt is not None else 0.0)


def allowed(record: Record, plan: QueryPlan, now: datetime,
             left_out: list[Record]) -> bool:
    """May the record be returned? Time rules count what they leave out in the plan and
    keep it in ``left_out`` (for the note of an empty result). A time window leaves nothing
    out: it ranks (recall/temporal.py ``window_first``)."""
    if record.expires_at is not None and record.expires_at <= now:
        return False
    if plan.kinds and record.kind.value not in plan.kinds:
        return False
    if plan.within is not None and not (record.uri or "").startswith(plan.within):
        return False
    if plan.routing.mode == "current" and record.invalid_at is not None:
        _count(plan, "superseded", f"{record.content[:40]!r}, superseded on "
                                   f"{record.invalid_at.date()}")
        left_out.append(record)
        return False
    return True


def blend(record: Record, fused: float, legs: dict[str, LegScore], plan: QueryPlan,
          preset: Preset, now: datetime, params: DecayParams,
          wanted: frozenset[str] | None = None, anchored: bool = True) -> Hit:
    """``anchored``: False for a memory whose indexed anchors hold no word of the query
    (``holders``), which no anchor cue can name."""
    strength = weight(record, now, params)
    factor = 1.0 - preset.strength_weight + preset.strength_weight * strength
    terms = {"rrf": fused, "strength_factor": factor}
    notes = []
    cues = anchor_cues(record, plan, wanted) if preset.anchor_boost and anchored else []
    if cues:
        terms["anchor_factor"] = 1.0 + preset.anchor_boost
        notes.append(f"query names its anchor(s): {', '.join(cues)}")
    if preset.recency_weight:
        age_days = max(0.0, (now - record.at).total_seconds()) / 86400.0
        terms["recency_factor"] = 1.0 + preset.recency_weight * 2.0 ** (-age_days / 30.0)
    slot = slot_factor(record, plan.asked) if plan.asked is not None else 1.0
    if slot != 1.0:
        terms["slot_factor"] = slot
        notes.append(f"fills the slot the question asks about "
                     f"({' or '.join(plan.asked.attributes) if plan.asked else ''})")
    final = (fused * factor * terms.get("anchor_factor", 1.0)
             * terms.get("recency_factor", 1.0) * slot)
    explanation = Explanation(legs=legs, fused=fused, strength=strength, terms=terms,
                              final=final, notes=notes)
    return Hit(memory=record, score=final, explanation=explanation)


def past_first(store: Store, scope: Scope, hits: list[Hit], before: bool = True,
               why: str = "the query's meaning leans to an earlier value") -> list[Hit]:
    """Each superseded hit goes just above the current value its chain leads to (the
    newest former value first); chains keep the place of their best hit. ``before=False``
    (a question read as about an earlier value by its meaning alone, or one that names a
    while holding now): just below it, ``why`` said in its note."""
    head: dict[str, str] = {}
    for hit in hits:
        rec, steps = hit.memory, 0
        while rec.superseded_by and steps < 50:
            nxt = store.get(scope, rec.superseded_by)
            if nxt is None:
                break
            rec, steps = nxt, steps + 1
        head[hit.memory.id] = rec.id
        if hit.memory.invalid_at is not None:
            hit.explanation.notes.append(
                f"a former value (superseded on {hit.memory.invalid_at.date()}), placed "
                + ("first: the query asks about the past" if before else
                   f"after the value that replaced it: {why}"))
    place = {}
    for i, hit in enumerate(hits):
        place.setdefault(head[hit.memory.id], i)

    def key(h: Hit) -> tuple[int, int, float]:
        gone = h.memory.invalid_at
        return (place[head[h.memory.id]], (gone is None) == before,
                -gone.timestamp() if gone else 0.0)

    return sorted(hits, key=key)


def _count(plan: QueryPlan, reason: str, example: str) -> None:
    plan.filtered[reason] = plan.filtered.get(reason, 0) + 1
    if plan.filtered[reason] == 1:
        plan.notes.append(f"left out ({reason}), e.g. {example}")


def anchor_cues(record: Record, plan: QueryPlan,
                wanted: frozenset[str] | None = None) -> list[str]:
    """The record's people, places and topics that the query names (``wanted``: the
    query's tokens as a set, when the caller already has it)."""
    if wanted is None:
        wanted = frozenset(plan.tokens)
    if not (record.people or record.places or record.topics):
        return []
    return [a for a in (*record.people, *record.places, *record.topics)
            if not wanted.isdisjoint(_anchor_tokens(a))]


@lru_cache(maxsize=65536)
def _anchor_tokens(anchor: str) -> frozenset[str]:
    return frozenset(tokenize(anchor, keep_stopwords=True))

"""The attention score of one memory for a query and a goal: pure functions over plain values.

score = 0.30 goal + 0.30 query + 0.10 importance + 0.06 recency + 0.04 frequency
        + 0.04 emotion + 0.06 uncertainty + 0.04 novelty - 0.20 distraction - 0.30 staleness

Every term is in [0, 1]:
- goal, query: relevance of the memory to the active goal (its title or one of its open
  loops, the best of them) and to the query: the larger of the share of their search terms
  the memory holds (both languages, stemmed English, segmented Chinese; stems of 4+ letters
  match by prefix) and the dense similarity above a floor.
- importance: as stored. recency: halves every 30 days since last use (or since ``at``).
- frequency: 1 - exp(-uses / 5). emotion: the stored intensity.
- uncertainty: 1 when the query is uncertain ("why...", "怎么办") and the memory holds
  knowledge (anything but identity, preference, emotion).
- novelty: recorded recently (halves every 7 days) and seldom used.
- distraction: importance that is not about the query nor the goal: importance x (1 - relevance).
- staleness: 1 superseded or expired; 0.5 archived or overdue; else up to 0.5 as it sits unused
  for a year.
A memory is in the workspace when its relevance (max of goal and query) reaches
``MIN_RELEVANCE``, its score reaches ``MIN_SCORE``, it is not superseded, and it ranks in the
top k; the audit names the first rule that kept each other candidate out."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from ..model import Kind, Layer, Record

WEIGHTS = {"goal": 0.30, "query": 0.30, "importance": 0.10, "recency": 0.06,
           "frequency": 0.04, "emotion": 0.04, "uncertainty": 0.06, "novelty": 0.04,
           "distraction": -0.20, "staleness": -0.30}
MIN_RELEVANCE = 0.15
MIN_SCORE = 0.12
RECENCY_HALF_LIFE_DAYS = 30.0
NOVELTY_HALF_LIFE_DAYS = 7.0
DENSE_FLOOR = 0.8  # cosine at which dense similarity starts to count, unless the embedder says
NOT_KNOWLEDGE = frozenset({Kind.IDENTITY, Kind.PREFERENCE, Kind.EMOTION})


@dataclass(frozen=True)
class Signals:
    """What the score reads besides the record: relevances and whether the query doubts."""

    goal: float
    query: float
    uncertain: bool


def _matches(word: str, have: set[str]) -> bool:
    if word in have:
        return True  # stems of 4+ letters also match by prefix: "failur" ~ "fail"
    return len(word) >= 4 and any(len(h) >= 4 and (h.startswith(word) or word.startswith(h))
                                  for h in have)


def coverage(wanted: set[str], have: set[str]) -> float:
    """The share of the wanted search terms that the memory holds."""
    return sum(_matches(w, have) for w in wanted) / len(wanted) if wanted else 0.0


def dense(cosine: float | None, floor: float = DENSE_FLOOR) -> float:
    if cosine is None or floor >= 1:
        return 0.0
    return min(1.0, max(0.0, (cosine - floor) / (1 - floor)))


def _days(later: datetime, earlier: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 86400)


def staleness(rec: Record, now: datetime) -> float:
    if rec.invalid_at is not None or (rec.expires_at is not None and rec.expires_at <= now):
        return 1.0
    if rec.layer == Layer.ARCHIVED or rec.overdue_since is not None:
        return 0.5
    if rec.due_at is not None and rec.due_at <= now:
        return 0.5
    last = max(rec.last_uses) if rec.last_uses else rec.at
    return 0.5 * min(1.0, _days(now, last) / 365)


def terms(rec: Record, sig: Signals, now: datetime) -> dict[str, float]:
    last = max(rec.last_uses) if rec.last_uses else rec.at
    relevance = max(sig.goal, sig.query)
    return {
        "goal": sig.goal,
        "query": sig.query,
        "importance": rec.importance,
        "recency": 0.5 ** (_days(now, last) / RECENCY_HALF_LIFE_DAYS),
        "frequency": 1 - math.exp(-rec.use_count / 5),
        "emotion": max(0.0, min(1.0, rec.intensity)),
        "uncertainty": 1.0 if sig.uncertain and rec.kind not in NOT_KNOWLEDGE else 0.0,
        "novelty": (0.5 ** (_days(now, rec.recorded_at) / NOVELTY_HALF_LIFE_DAYS)
                    * math.exp(-rec.use_count / 2)),
        "distraction": rec.importance * (1 - relevance),
        "staleness": staleness(rec, now),
    }


def total(parts: dict[str, float]) -> float:
    return sum(WEIGHTS[name] * value for name, value in parts.items())


def exclusion(rec: Record, parts: dict[str, float], score: float) -> str | None:
    """Why this candidate cannot be in the workspace, or None if it may (rank permitting)."""
    if rec.invalid_at is not None:
        return f"superseded by {rec.superseded_by} (a past value)"
    relevance = max(parts["goal"], parts["query"])
    if relevance < MIN_RELEVANCE:
        return (f"not about the query nor the goal (relevance {relevance:.2f} < "
                f"{MIN_RELEVANCE}); importance {parts['importance']:.2f} counts as distraction "
                f"{parts['distraction']:.2f}")
    if score < MIN_SCORE:
        return f"score {score:.3f} < {MIN_SCORE}"
    return None

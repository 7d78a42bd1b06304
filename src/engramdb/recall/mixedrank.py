"""The final ranking of a scope that holds both languages: every candidate scored on evidence
that a memory in either language can earn.

The first stage (fusion, recall/fuse.py) sums reciprocal ranks over the legs a memory was
found in. In a mixed scope the BM25 leg, the query expansion leg and, for the most part, the
dense leg find only memories in the question's language, so a memory in the other language
lives on the cross-lingual leg alone and loses to any same-language memory that shares a
common word with the question ("family", "weekend", 用户, 晚上), however far the meaning is.
Re-weighting the fusion measured as a trade: cross-lingual recall bought with same-language
recall (bench/results/crosslingual_hard.md).

So when the cross-lingual stage ran (recall/crosslingual.py: the scope holds memories in the
other language than the question's; the pipeline calls ``mixed_rank`` only then), the top
RERANK_DEPTH candidates of the first stage are scored again by

    dense standing + COVERAGE_WEIGHT x coverage + FIRST_WEIGHT x first-stage standing

when one of the GATE candidates with the best dense standing is in the other language (the
question may be about it); otherwise the first stage's order stands. Without that gate a
mostly-English store holding one Chinese memory had every English question ranked this way:
LoCoMo dev with one Chinese memory added to each conversation fell from R@10 0.721 (main) to
0.674; with it, 0.740 (bench/results/crosslingual_hard.md).

- dense standing: the cross-lingual leg's score, the sum of two models' z-scores within the
  memory's own language (USE, which aligns the languages, and e5), so both languages stand
  on an equal footing; a candidate that leg did not reach gets its lowest score, and a
  memory woken from the archive (which the leg does not search) its highest;
- coverage: the IDF-weighted share of the question's words the memory holds (recall/rerank.py,
  recall/relevance.py), the same for a memory in either language: in the other language only
  the words both write alike count (names, numbers, "Costco"), so it lifts no memory for
  sharing a common word in translation. (Counting a word as held when its CC-CEDICT
  translation is, branch xling2's lexicon, changed no hit@3 on the three probes:
  bench/results/crosslingual_hard.md; it is not used.)
- first-stage standing: the candidate's score after the first stage and the coverage
  re-ranker, z-scored within its own language among the candidates, so the legs that see
  only the question's language still order that language, without outranking the other.

Each re-scored hit's explanation holds ``dense_standing``, ``first_standing``,
``coverage`` (as the re-ranker computed it) and ``mixed_score``; ``hits.plan["stages"]
["mixed_rank"]`` says how deep it went (depth 0 and a note when the gate kept the first
stage's order). A scope in one language never runs it."""

from __future__ import annotations

import numpy as np

from ..model import Hit
from ..text.lang import language, other
from .crosslingual import LEG, ScopeLanguages
from .plan import QueryPlan
from .relevance import QueryTerms, lexical
from .rerank import RERANK_DEPTH

COVERAGE_WEIGHT = 1.0   # a memory holding all of the question's weight: +1 z
FIRST_WEIGHT = 0.5      # the first stage's standing within a language, in z units
GATE = 3                # runs when one of the best this many by dense standing is in
#                         the other language
BASE = 1.0              # the lowest re-scored hit's score (first-stage scores stay under it)


def others_of(plan: QueryPlan, langs: ScopeLanguages) -> set[str]:
    """The ids of the scope's memories in the other language than the question's."""
    return langs.ids[other(language(plan.query))]


def mixed_rank(hits: list[Hit], plan: QueryPlan, terms: QueryTerms,
               others: set[str]) -> list[Hit]:
    """The top RERANK_DEPTH hits re-scored (module docstring) and re-sorted, the rest after;
    the hits unchanged when no candidate in the other language is among the GATE best by
    dense standing."""
    top, rest = hits[:RERANK_DEPTH], hits[RERANK_DEPTH:]
    if len(top) < 2:
        return hits
    dense = [h.explanation.legs[LEG].score for h in top if LEG in h.explanation.legs]
    floor, best = min(dense, default=0.0), max(dense, default=0.0)
    # a woken memory is archived, where the leg does not search: its cues single it out of
    # the whole scope (recall/wake.py), so it stands as the leg's first
    standing = {h.memory.id: (h.explanation.legs[LEG].score if LEG in h.explanation.legs
                              else best if h.woken else floor) for h in top}
    best = sorted(standing, key=lambda mid: (-standing[mid], mid))[:GATE]
    if GATE and not any(mid in others for mid in best):
        plan.stages["mixed_rank"] = {"depth": 0, "gate": GATE,
                                     "note": "no memory in the other language stands out"}
        return hits
    first = _standing(top, others)
    scores = {}
    for hit in top:
        z = standing[hit.memory.id]
        cov = lexical(hit, terms) if terms.total > 0 else 0.0
        scores[hit.memory.id] = z + COVERAGE_WEIGHT * cov + FIRST_WEIGHT * first[hit.memory.id]
        hit.explanation.terms.update({"dense_standing": round(z, 4),
                                      "first_standing": round(first[hit.memory.id], 4),
                                      "coverage": round(cov, 4),
                                      "mixed_score": round(scores[hit.memory.id], 4)})
    # positive, and above every candidate left after the top (association and MMR read a
    # hit's score as a weight): BASE plus the distance above the lowest
    low = min(scores.values())
    for hit in top:
        hit.score = BASE + scores[hit.memory.id] - low
        hit.explanation.final = hit.score
    top.sort(key=lambda h: (-h.score, h.memory.id))
    plan.stages["mixed_rank"] = {"depth": len(top), "gate": GATE,
                                 "coverage_weight": COVERAGE_WEIGHT,
                                 "first_weight": FIRST_WEIGHT, "other_language_memories":
                                 len(others)}
    return top + rest


def _standing(top: list[Hit], others: set[str]) -> dict[str, float]:
    """Each hit's score as a z-score among the hits in its own language."""
    out: dict[str, float] = {}
    for theirs in (False, True):
        group = [h for h in top if (h.memory.id in others) == theirs]
        if not group:
            continue
        scores = np.array([h.score for h in group], dtype=np.float64)
        mean, spread = float(scores.mean()), float(max(scores.std(), 1e-9))
        out.update({h.memory.id: (h.score - mean) / spread for h in group})
    return out

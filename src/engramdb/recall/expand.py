"""Query expansion from the top hits: pseudo-relevance feedback into the text leg (RM3-style).

A question shares few words with the turns that answer it ("What books has Tim read?" and
"I just finished The Name of the Wind"); the best first hits usually share more with the rest
of the evidence than the question does. The words the top ``FEEDBACK_DOCS`` fused candidates
share (in at least ``MIN_DOCS`` of them), weighted by how much of each candidate they make up
and by the candidate's fused score (RM1), and rare in the scope (a word in ``DF_CAP`` or more
memories, a speaker's name in every turn, says nothing), are added to the query's words; the
expanded query runs as one more BM25 leg, "expansion", fused like the others at
``EXPANSION_WEIGHT``. Words come from ``text.tokenize``: jieba words for Chinese, stemmed
words for English, so both languages expand the same way. The plan lists the words
(``plan.stages["expansion"]``) and each hit the expansion leg found names its rank there."""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import replace

from ..model import Scope
from ..store.protocol import Store
from ..text import tokenize
from .legs import Ranked, without_noise
from .plan import QueryPlan
from .presets import TEXT, Leg, Preset
from .reading import read_many
from .relevance import doc_freqs

FEEDBACK_DOCS = 5       # the top fused candidates read for feedback
MIN_DOCS = 2            # a word must be in this many of them: one hit's own topic is no cue
EXPANSION_TERMS = 5     # words added to the query
EXPANSION_WEIGHT = 0.5  # the expansion leg's weight in the fusion (the BM25 leg has 1.0)
DF_CAP = 64             # a word in this many memories or more is too common to expand with
CANDIDATE_TERMS = 12    # words whose document frequency is looked up
MIN_POOL = 4 * FEEDBACK_DOCS  # fewer candidates than this: the top ones are much of the
#                               scope, no sample of the evidence ("我喜欢..." shared by two of
#                               six memories is no cue for "我住在哪里")


def expand_query(store: Store, scope: Scope, plan: QueryPlan, ranked: dict[str, Ranked],
                 fused: dict[str, float], preset: Preset) -> tuple[dict[str, Ranked], Preset]:
    """The legs with the expansion leg added, and the preset that fuses it; unchanged when
    no word of the query matched (feedback from meaning alone would turn an off-topic query
    into a word match), when there are fewer than ``MIN_POOL`` candidates (a small scope),
    or the top candidates share no rare word."""
    text = preset.leg("bm25")
    if text is None or not ranked.get("bm25") or len(fused) < MIN_POOL:
        return ranked, preset
    terms = feedback_terms(store, scope, plan, fused)
    if not terms:
        return ranked, preset
    fields = dict(text.fields) or dict(TEXT)
    found = without_noise(store.search_text(scope, [*plan.tokens, *terms], fields,
                                            text.depth, plan.layers))
    plan.stages["expansion"] = {"terms": terms, "found": len(found),
                                "from": FEEDBACK_DOCS, "weight": EXPANSION_WEIGHT}
    if not found:
        return ranked, preset
    leg = Leg("expansion", EXPANSION_WEIGHT, text.depth, tuple(fields.items()))
    return {**ranked, "expansion": found}, replace(preset, legs=(*preset.legs, leg))


def feedback_terms(store: Store, scope: Scope, plan: QueryPlan,
                   fused: dict[str, float]) -> list[str]:
    """The words to add: shared by the top candidates, weighted RM1-style, rare in the scope."""
    top = heapq.nsmallest(FEEDBACK_DOCS, fused, key=lambda mid: (-fused[mid], mid))
    records = read_many(store, scope, top)
    asked = set(plan.tokens)
    weight: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    best = fused[top[0]] or 1.0
    for mid in top:
        rec = records.get(mid)
        if rec is None:
            continue
        words = [w for w in tokenize(rec.content)
                 if w not in asked and (len(w) > 1 or not w.isascii())]
        if not words:
            continue
        counts = Counter(words)
        share = fused[mid] / best
        for word, n in counts.items():
            weight[word] += share * n / len(words)
            docs[word] += 1
    shared = [w for w in weight if docs[w] >= MIN_DOCS]
    shared.sort(key=lambda w: (-weight[w], w))
    candidates = shared[:CANDIDATE_TERMS]
    if not candidates:
        return []
    # each word's document frequency up to DF_CAP, in one pass where the store offers it
    df = doc_freqs(store, scope, candidates, plan.layers, DF_CAP)
    return [w for w in candidates if df[w] < DF_CAP][:EXPANSION_TERMS]

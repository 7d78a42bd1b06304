"""Cross-lingual recall: a question in one language reaching memories written in the other.

The default embedder (embed/routed.py) stores two models per memory and searches with the one
the query's script picks: e5 for a question in English (best on English conversation), the
multilingual USE for one in Chinese. e5's English query ranks Chinese memories poorly, and both
models rank memories in the query's own language first, so in a mixed store a memory in the
other language is pushed out of the top hits even when it is the answer.

When the scope holds memories in the other language than the query's (text/lang.py), this
stage adds one candidate leg, ``crosslingual``: the query embedded by the pair's cross-lingual
model (USE, whose vectors put a sentence and its translation close together; one more model
call for an English question, none for a Chinese one, whose vector is reused) and by the main
model (e5: the dense leg's vector for an English question, one more call for a Chinese one,
not made where its ranking cannot change the list: a question in Chinese on a scope with no
memory in Chinese, so e5 need not load there), each model's cosines turned into how far a
memory stands above the other memories *of its own language* (a z-score per language), the
two summed. Each language is then ranked on an equal
footing, and the leg weighs WEIGHT in the fusion; recall/mixedrank.py ranks the final
candidates on the same sum. (A stand-in for the BM25 credit a memory in the other language
cannot earn, and a reserved top-3 place were measured and not kept:
bench/results/crosslingual_hard.md.)
A scope in one language never runs it: nothing changes there (LoCoMo, an English-only store).

The language of each memory is kept per scope, brought up to date from the event log
(``Store.changed_since``) at each recall: a scope is read once, then only what changed."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..model import Layer, Scope
from ..store.follow import follow
from ..store.protocol import Store
from ..text import is_cjk
from ..text.lang import EN, ZH, language, other
from ..tracing import traced
from .legs import Ranked
from .plan import QueryPlan
from .presets import Leg, Preset

LEG = "crosslingual"
WEIGHT = 1.0          # the leg's RRF weight (the dense leg's is 0.3, BM25's 1.0)
DEPTH = 100           # candidates the leg contributes
WIDEN = 4             # each search goes at least this much deeper than DEPTH
MAX_DEPTH = 5000      # ... and at most this deep (a tiny minority language may fall short)
PRIOR = 10            # pseudo-memories of the whole candidate pool in each language's background

Aligned = Callable[[str], np.ndarray]


@dataclass
class ScopeLanguages:
    """The ids of a scope's memories by language, as of event ``seq``."""

    seq: int = 0
    ids: dict[str, set[str]] = field(default_factory=lambda: {ZH: set(), EN: set()})

    def count(self, lang: str) -> int:
        return len(self.ids[lang])


class LanguageMix:
    """Each scope's memories by language, kept in step with the store's event log."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._scopes: dict[Scope, ScopeLanguages] = {}
        self._lock = threading.Lock()

    def of(self, scope: Scope) -> ScopeLanguages:
        with self._lock:
            state = self._scopes.setdefault(scope, ScopeLanguages())
            newest, restart, changed = follow(self.store, scope, state.seq)
            if restart:
                state = self._scopes[scope] = ScopeLanguages()
            for mid, rec in changed:
                for ids in state.ids.values():
                    ids.discard(mid)
                if rec is not None and rec.layer != Layer.DELETED:
                    state.ids[language(rec.content)].add(mid)
            state.seq = newest
            return state


@traced("recall.crosslingual")
def cross_leg(store: Store, mix: LanguageMix, aligned: Aligned, scope: Scope,
              plan: QueryPlan, preset: Preset,
              main: Callable[[QueryPlan], np.ndarray | None] | None = None,
              ) -> tuple[Preset, dict[str, Ranked]]:
    """The preset with the cross-lingual leg added and its ranked list, when the
    query's language differs from some of the scope's memories; else the preset unchanged
    and no list. The plan records what ran and why."""
    if preset.leg("dense") is None:
        return preset, {}
    asked = language(plan.query)
    langs = mix.of(scope)
    targets = langs.ids[other(asked)]
    if not targets:
        return preset, {}
    main_reads = not is_cjk(plan.query)
    vectors = [aligned(plan.query)]
    stand_in = main is not None and not _main_counts(plan, langs, main_reads)
    second = main(plan) if main is not None and not stand_in else None
    if second is not None:
        vectors.append(second)
    ranked = _search(store, scope, plan, vectors, langs, main_reads=main_reads,
                     stand_ins=int(stand_in))
    plan.crosslingual = {"query_language": asked, "other_language": other(asked),
                         "memories_in_it": len(targets), "found": len(ranked), "weight": WEIGHT,
                         "models": len(vectors)}
    if not ranked:
        return preset, {}
    return replace(preset, legs=(*preset.legs, Leg(LEG, WEIGHT, DEPTH))), {LEG: ranked}


def _main_counts(plan: QueryPlan, langs: ScopeLanguages, main_reads: bool) -> bool:
    """Whether the main model's ranking can change the leg (``_search``): its standings are
    read for the memories in the query's language, and for the others only when
    ``main_reads``; its search adds the memories it reaches to the candidates, which is
    none the cross-lingual model's search does not reach when one search holds the whole
    scope. So a question in Chinese on a scope with no memory in Chinese, small enough for one
    search, gets the same list without it (and the main model, e5, need not load)."""
    if main_reads or langs.count(language(plan.query)):
        return True
    total = langs.count(ZH) + langs.count(EN)   # every memory but the deleted, which
    return Layer.DELETED in plan.layers or total > _depth(langs)   # are not counted


def _depth(langs: ScopeLanguages) -> int:
    """How deep each search goes: deep enough to hold DEPTH memories of the smaller language
    when they are spread evenly (at least WIDEN x DEPTH, at most MAX_DEPTH)."""
    total = langs.count(ZH) + langs.count(EN)
    fewest = max(1, min(langs.count(ZH), langs.count(EN)))
    return min(DEPTH * max(WIDEN, math.ceil(2 * total / fewest)), MAX_DEPTH)


def _search(store: Store, scope: Scope, plan: QueryPlan, vectors: list[np.ndarray],
            langs: ScopeLanguages, main_reads: bool = True, stand_ins: int = 0) -> Ranked:
    """Each model's ranking of the scope with each language on an equal footing, summed: a
    search deep enough to hold DEPTH memories of the smaller language when they are spread
    evenly (at least WIDEN x DEPTH); each memory's cosine taken as its distance above its own
    language's background (z-score over that language's candidates); a memory one model did
    not reach counts that model's lowest z for its language. ``vectors[0]`` is the
    cross-lingual model's; a second (the main model's) ranks the memories of the other
    language only when ``main_reads`` (it is the model routing picks for the query's script:
    e5 ranks Chinese memories for an English question above chance, English memories for a
    Chinese one at chance, bench/results/crosslingual_hard.md); else the cross-lingual
    model's z stands in for it there. ``stand_ins``: models not asked (``_main_counts``) whose
    standing is the cross-lingual model's for every memory, as it would have been. Best
    first."""
    depth = _depth(langs)
    views = [_standouts(store.search_vector(scope, v, depth, plan.layers), langs)
             for v in vectors]
    floor = [{lang: min(z for _, z in view.get(lang, [("", 0.0)])) for lang in (ZH, EN)}
             for view in views]
    summed = {mid: 0.0 for view in views for members in view.values() for mid, _ in members}
    gots = [{mid: z for members in view.values() for mid, z in members} for view in views]
    asked = language(plan.query)
    for i in range(len(gots) + stand_ins):
        for mid in summed:
            lang = ZH if mid in langs.ids[ZH] else EN
            j = 0 if i >= len(gots) or (not main_reads and i > 0 and lang != asked) else i
            summed[mid] += gots[j].get(mid, floor[j][lang])
    out = sorted(summed.items(), key=lambda pair: (-pair[1], pair[0]))
    return out[:DEPTH]


def _standouts(found: Ranked, langs: ScopeLanguages) -> dict[str, Ranked]:
    """The candidates of one search by language, each scored by its z within its language.
    A language's background (mean and variance) is drawn toward that of all the candidates
    by ``PRIOR`` pseudo-memories: three memories of one language, none of them on the
    question's topic, are no background, and the best of them would stand out by itself
    (a scope's first few memories in the other language). Hundreds keep their own."""
    groups: dict[str, Ranked] = {}
    for mid, score in found:
        groups.setdefault(ZH if mid in langs.ids[ZH] else EN, []).append((mid, score))
    every = np.array([sc for _, sc in found], dtype=np.float64)
    whole_mean, whole_var = (float(every.mean()), float(every.var())) if len(every) else (0.0, 0.0)
    out: dict[str, Ranked] = {}
    for lang, members in groups.items():
        scores = np.array([sc for _, sc in members], dtype=np.float64)
        n = len(scores)
        mean = (n * float(scores.mean()) + PRIOR * whole_mean) / (n + PRIOR)
        var = (n * float(scores.var()) + PRIOR * whole_var) / (n + PRIOR)
        spread = max(var ** 0.5, 1e-6)
        out[lang] = [(mid, (sc - mean) / spread) for mid, sc in members[:DEPTH]]
    return out

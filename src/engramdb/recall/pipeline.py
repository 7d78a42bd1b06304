"""The read path, one corridor: plan (recall/plan.py) -> legs (legs.py) -> fuse (fuse.py) ->
rank (rank.py, with archive wake-up and association) -> explain (explain.py). The engine
calls ``Recaller.recall`` once per query."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TypeVar

import numpy as np

from ..compare import ConflictFn
from ..dynamics.strength import DEFAULT_PARAMS, DecayParams
from ..model import Hit, Hits, Layer, Record, Scope
from ..store.protocol import Store
from ..text import is_cjk, tokenize
from ..text.lang import other, script
from ..text.timewindow import TimeWindow
from ..tracing import traced
from .across import across
from .asked import unanswered, unheld
from .associate import associate, merge
from .background import Backgrounds
from .changemeaning import ChangeBook, ChangeMeaning
from .collapse import collapse, gists_above
from .conflicts import conflict, order_conflicts
from .crosslingual import Aligned, LanguageMix, cross_leg
from .diversify import mmr
from .earlier import EARLIER as STAND_EARLIER
from .earlier import EarlierBook
from .expand import expand_query
from .explain import below_floor, outside_note, why_empty
from .framemeaning import Examples, MeaningFrame
from .fuse import rrf, rrf_scores
from .legs import Ranked, run_legs
from .mixedrank import mixed_rank, others_of
from .nearpair import FRAMED, order_near
from .plan import QueryPlan, choose_preset, place_relative, plan_query
from .presets import Preset
from .questionbank import QuestionBank
from .rank import allowed, best_candidates, past_first
from .reading import handed, steady
from .relevance import (
    MIN_BACKGROUND,
    QueryTerms,
    apply_floor,
    doc_freqs,
    hold,
    meanings,
    query_terms,
    score_hits,
)
from .rerank import RERANK_DEPTH, rerank, standing_ties
from .slotcue import asked_slot
from .smallscope import SMALL_FLOOR, formers, inherit
from .temporal import HISTORY, Routing, untensed, window_first
from .wake import wake
from .wakemeaning import Meaning
from .worldly import WORLDLY as STAND_WORLDLY
from .worldly import WorldBook

B = TypeVar("B")   # a book read from examples (the question bank and its kin)
STEP = 0.99   # a hit scores at most this share of the one above it
ASKED = True  # recall/asked.py: a question asking a time or amount the best match lacks
UNHELD = True  # recall/asked.py: a question naming what no memory holds
WORLDLY = True  # recall/worldly.py: a question about the world, not the asker's life
EARLY = True    # recall/earlier.py: a question about an earlier value, said in other words


def falling(hits: list[Hit]) -> None:
    """Each hit's score below the one above it: the order is recall's whole judgement
    (fusion, re-ranking, time, association), the score its relevance (recall/relevance.py), so a
    cut-off on the score keeps a head of the list, never a hit below one it drops, and a hit
    ranked under another never shows the same score (at most STEP of it). The hit's own
    relevance stays in ``explanation.terms["relevance"]``."""
    for above, hit in zip(hits, hits[1:], strict=False):
        hit.score = min(hit.score, above.score * STEP)


class Recaller:
    """Runs the read path for one scope; the engine owns it and hands it the store, the model
    and the configured preset and association places."""

    def __init__(self, store: Store, embed_query: Callable[[str], np.ndarray],
                 params: DecayParams = DEFAULT_PARAMS, relevance_floor: float | None = None,
                 preset: str = "default", assoc_slots: int = 2, hit_floor: float = 0.0,
                 aligned: Aligned | None = None, main: Aligned | None = None,
                 meaning: bool = True, conflict: ConflictFn | None = None,
                 bank: Callable[[], QuestionBank | None] | None = None,
                 main_bank: Callable[[], QuestionBank | None] | None = None,
                 examples: Examples | None = None,
                 changes: Callable[[], ChangeBook | None] | None = None,
                 world: Callable[[], WorldBook | None] | None = None,
                 earlier: Callable[[], EarlierBook | None] | None = None) -> None:
        self.store = store
        self.hit_floor = hit_floor  # Config.relevance_floor: hits less relevant are dropped
        self.embed_query = embed_query
        self.params = params
        self.relevance_floor = relevance_floor
        self.preset = preset
        self.assoc_slots = assoc_slots
        self.aligned = aligned  # the embedder's cross-lingual half, if it has one
        self.languages = LanguageMix(store)
        self.main = main  # the embedder's main half, for a question in either script
        self.meaning = meaning  # its similarity is evidence of meaning (not hashed words)
        self.conflict = conflict  # does a newer hit state another value (compare.py)
        self.backgrounds = Backgrounds(store)  # each scope's background in meaning (waking)
        self.bank = bank  # typical questions, to read a hit's standing by (questionbank.py)
        self.main_bank = main_bank  # the same questions in the main model (a routed embedder)
        # what users say (write/kindvote.py's examples), to read two statements' meaning by
        self.examples = examples
        self.changes = changes  # changes said in other words (recall/changemeaning.py)
        self.world = world  # questions about the world, not the asker (recall/worldly.py)
        self.earlier = earlier  # questions about an earlier value (recall/earlier.py)

    def recall(self, scope: Scope, query: str, kinds: tuple[str, ...], preset: str | None,
               k: int, now: datetime, within: str | None = None,
               keywords: list[str] | None = None, window: TimeWindow | None = None,
               floor: float | None = None, cold: bool = False) -> Hits:
        """``floor``: the relevance under which hits are dropped (None: the configured
        ``hit_floor``); ``cold``: wake from the cold tier too, not the archive alone."""
        plan = plan_query(query, kinds, now, keywords, window)
        plan.within = within
        chosen = choose_preset(plan, preset, self.preset, self.assoc_slots)
        with steady(self.store):
            return self.run(scope, plan, chosen, k, now, floor, cold)

    def run(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int, now: datetime,
            floor: float | None = None, cold: bool = False) -> Hits:
        place_relative(self.store, scope, plan)
        ranked = run_legs(self.store, lambda _: self._vector(plan), scope, plan, preset)
        if self.aligned is not None:
            preset, cross = cross_leg(self.store, self.languages,
                                      lambda _: self._aligned_vector(plan), scope, plan,
                                      preset, self._main_vector)
            ranked.update(cross)
        self._reroute(plan)
        fused = rrf_scores(ranked, preset)   # what the expansion reads from
        ranked, preset = expand_query(self.store, scope, plan, ranked, fused, preset)
        fused, seen = rrf(ranked, preset)
        asleep = (Layer.ARCHIVED, Layer.COLD) if cold else (Layer.ARCHIVED,)
        if cold:
            plan.notes.append("the cold tier searched too (include_cold)")
        woken = wake(self.store, scope, plan.query, plan.tokens, preset, plan.kinds, now,
                     self.params, Meaning(lambda: self._vector(plan), ranked.get("dense", []),
                                         self.embed_query, lambda: self._vectors(plan),
                                         lambda: self.languages.of(scope).ids,
                                         self.backgrounds, plan.query, layers=asleep,
                                         bank=self._bank_of(scope, plan),
                                         worldly=self._wakes_nothing(plan)),
                     asleep)
        left_out: list[Record] = []
        hits = [h for h in woken[:k] if allowed(h.memory, plan, now, left_out)]
        hits += best_candidates(self.store, self.params, scope, plan, preset,
                                max(k, RERANK_DEPTH), now, fused, seen, hits, left_out)
        hits.sort(key=lambda h: (-h.score, h.memory.id))
        terms = self._terms(scope, plan)
        hold(self.store, scope, [h.memory for h in hits[:RERANK_DEPTH]], terms)
        stood = self._standings(scope, plan, [h.memory.id for h in hits[:RERANK_DEPTH]])
        hits = rerank(hits, plan, terms, meanings(stood, terms.scope_size),
                      standing_ties(stood, terms.scope_size))
        if plan.crosslingual is not None:
            hits = mixed_rank(hits, plan, terms, others_of(plan, self.languages.of(scope)))
        if preset.assoc_slots > 0 and hits:
            hits = self._associate(scope, plan, preset, k, now, hits)
        if preset.mmr and hits:
            depth = 3 * k
            hits = mmr(hits, self.store.vectors(scope, [h.memory.id for h in hits[:depth]]),
                       preset.mmr, depth)
        if plan.routing.mode in ("past", HISTORY):
            hits = past_first(self.store, scope, hits, plan.routing.mode == "past")
        elif plan.applied_window is not None and plan.applied_window.contains(now):
            hits = past_first(self.store, scope, hits, False, "the query names a while that "
                              "holds now (the value now held first)")
        frame = self._frame(scope, plan)
        near = order_near(hits, plan.query, plan.routing.mode, plan.vector,
                          lambda ids: self.store.vectors(scope, ids), self.meaning, now,
                          frame.at(FRAMED) if frame is not None else None)
        if near:  # near misses kept apart on write: the one the question is about first
            plan.stages["near"] = [{"first": a.memory.id, "over": b.memory.id, "by": why}
                                   for a, b, why in near]
        pairs = order_conflicts(hits, "current" if plan.routing.mode == HISTORY
                                else plan.routing.mode, plan.query,
                                self.conflict or self._conflict(scope, frame))
        if pairs:  # values the write path left side by side: the newer first for "now"
            plan.stages["conflicts"] = [{"earlier": o.memory.id, "newer": n.memory.id}
                                        for o, n in pairs]
        window = plan.applied_window
        if window is not None:  # a window narrows, it does not erase: inside first
            hits, inside = window_first(hits, window)
            plan.stages["window"] = {"inside": inside, "outside": len(hits) - inside}
        if not hits:
            note = why_empty(plan, left_out) or "nothing in memory matches this query"
            return Hits([], abstained=True, note=note, plan=plan.to_dict())
        empty = below_floor(self.relevance_floor, ranked, preset, woken)
        if empty:
            plan.filtered["below_relevance_floor"] = len(hits)
            return Hits([], abstained=True, note=empty, plan=plan.to_dict())
        hits, note = self._relevance(scope, plan, hits, ranked, terms, k,
                                     self.hit_floor if floor is None else floor, stood)
        falling(hits)
        if note:
            plan.filtered["below_relevance"] = min(len(hits), k) or k
            return Hits([], abstained=True, note=note, plan=plan.to_dict())
        plan.associated = [h.memory.id for h in hits[:k] if "associate" in h.explanation.legs]
        handed(hits[:k])   # the records read were lent by the store (recall/reading.py)
        return Hits(hits[:k], note=outside_note(plan, hits[:k]), plan=plan.to_dict())

    def _main_vector(self, plan: QueryPlan) -> np.ndarray | None:
        """The query in the main model's half: the dense leg's vector for a question the main
        model searches, one more model call for one in Chinese; None without such a model."""
        if self.main is None:
            return None
        if not is_cjk(plan.query):
            return self._vector(plan)
        if "main" not in plan.halves:
            plan.halves["main"] = self.main(plan.query)
        return plan.halves["main"]

    def _aligned_vector(self, plan: QueryPlan) -> np.ndarray:
        """The query in the cross-lingual model's half, embedded once per recall."""
        assert self.aligned is not None
        if "aligned" not in plan.halves:
            plan.halves["aligned"] = self.aligned(plan.query)
        return plan.halves["aligned"]

    def _frame(self, scope: Scope, plan: QueryPlan) -> MeaningFrame | None:
        """Two statements' meaning as their frame where they share no word
        (recall/framemeaning.py), read once a recall for the near pairs and the conflicts net;
        an embedder with meaning only."""
        if not self.meaning or self.examples is None:
            return None
        return MeaningFrame(plan.vector, lambda ids: self.store.vectors(scope, ids),
                            self.examples)

    def _conflict(self, scope: Scope,
                  alike: MeaningFrame | None) -> Callable[[Record, Record], bool]:
        """recall/conflicts.py's reading, with ``alike`` (``_frame``) and a change said in
        other words (recall/changemeaning.py); an embedder with meaning only."""
        if alike is None:
            return conflict
        told = ChangeMeaning(lambda ids: self.store.vectors(scope, ids), self.changes) \
            if self.changes is not None else None
        return lambda old, new: conflict(old, new, alike, told)

    def _vectors(self, plan: QueryPlan) -> list[np.ndarray]:
        """The query in every model the embedder has (one, or the routed pair's two)."""
        if self.aligned is None:
            return [self._vector(plan)]
        main = self._main_vector(plan)
        return [self._aligned_vector(plan), *([main] if main is not None else [])]

    def _vector(self, plan: QueryPlan) -> np.ndarray:
        """The query's vector, embedded once per recall (the dense leg and waking share it)."""
        if plan.vector is None:
            plan.vector = self.embed_query(plan.query)
        return plan.vector

    def _terms(self, scope: Scope, plan: QueryPlan) -> QueryTerms:
        """The query's content words and their IDF (the time a query names is matched by
        its window, not by words): what the re-ranker and relevance weigh."""
        when = set(tokenize(plan.time_words))
        return query_terms(self.store, scope, [t for t in plan.tokens if t not in when],
                           plan.layers)

    def _relevance(self, scope: Scope, plan: QueryPlan, hits: list[Hit],
                   ranked: dict[str, Ranked], terms: QueryTerms, k: int,
                   floor: float, stood: dict[str, float]) -> tuple[list[Hit], str]:
        """Each hit's relevance as its score (recall/relevance.py); those under the floor
        are dropped, and none left is an abstention with its note. ``stood``: the standings
        the re-ranker read."""
        top = hits[: 3 * k]
        top = collapse(top, gists_above(self.store, scope, [h.memory for h in top]))
        meant = {}
        if self.meaning and plan.crosslingual is not None:  # hits in the other language
            meant = across(self.store, self.backgrounds, scope, plan.query, self._vectors(plan),
                           self.languages.of(scope).ids, top)
        hold(self.store, scope, [h.memory for h in top], terms)
        small = terms.scope_size < MIN_BACKGROUND and self._book(self.bank) is not None
        standings = self._standings(scope, plan, [h.memory.id for h in top], stood, small)
        if small:  # a current value is judged with the values it replaced (smallscope.py)
            chains = formers(self.store, scope, [h.memory.id for h in top], plan.layers)
            replaced = [rec for chain in chains.values() for rec in chain]
            hold(self.store, scope, replaced, terms)
            standings = inherit(top, chains, terms, standings, self._standings(
                scope, plan, [rec.id for rec in replaced], every=True))
            floor = min(floor, SMALL_FLOOR)
        judged = score_hits(top, terms, ranked.get("dense", []) if self.meaning else [], meant,
                            standings) or small
        # a question about the world is said so only where a memory is about its topic
        worldly = judged and max((h.score for h in top), default=0.0) >= floor \
            and self._worldly(plan)
        asked = unanswered(top, plan.query, self._unheld(scope, plan, terms),
                           worldly) if judged and ASKED else None
        return apply_floor(top, floor, judged, asked)

    def _unheld(self, scope: Scope, plan: QueryPlan, terms: QueryTerms) -> list[str]:
        """recall/asked.py ``unheld``, where the scope is in the question's language alone (in
        a mixed one a name may be written in the other script: Amsterdam, 阿姆斯特丹). The
        counts are those the IDF took where the question's words hold the names'."""
        if not UNHELD or plan.crosslingual is not None:
            return []

        def count(words: list[str]) -> Mapping[str, int]:
            if set(words) <= terms.df.keys():
                return terms.df
            return doc_freqs(self.store, scope, words, plan.layers, cap=1)

        return unheld(plan.query, count)

    def _book(self, factory: Callable[[], B | None] | None) -> B | None:
        """What a book of examples' factory gives (the question bank, the world's or the
        earlier questions), where the embedder reads meaning; None otherwise."""
        return factory() if self.meaning and factory is not None else None

    def _bank_of(self, scope: Scope, plan: QueryPlan) -> Callable[[dict[str, np.ndarray]],
                                                                  dict[str, float]] | None:
        """Memories' standings against the question bank for this question (waking reads
        them, recall/wakemeaning.py); None without a bank."""
        if self._book(self.bank) is None:
            return None
        return lambda found: self._bank_standings(scope, plan, found)

    def _bank_standings(self, scope: Scope, plan: QueryPlan,
                        vectors: dict[str, np.ndarray]) -> dict[str, float]:
        """Each memory's standing for the question against the question bank
        (recall/questionbank.py), in the question's own model. A question that the main model
        does not search (a routed embedder's question in Chinese, which the cross-lingual model
        searches) is read by the main model too: a memory in the question's language then
        stands at the mean of the two models' standings, rescaled to one model's spread by
        chance (``QuestionBank.mean_spread``). multilingual-e5 reads a Chinese question against
        a Chinese memory better than USE does (bench/results/two_models.md)."""
        book = self._book(self.bank)
        if book is None or not vectors:
            return {}
        own = self._vector(plan)
        found = book.standings(plan.query, own, vectors)
        second = self._book(self.main_bank)
        main = self._main_vector(plan) if second is not None else None
        if second is None or main is None or main is own:
            return found
        lang = script(plan.query)
        mine = self.languages.of(scope).ids.get(lang, set())
        also = second.standings(plan.query, main,
                                {mid: v for mid, v in vectors.items() if mid in mine})
        spread = book.mean_spread(second, lang)
        return {mid: (stood + also[mid]) / 2 / spread if mid in also else stood
                for mid, stood in found.items()}

    def _reroute(self, plan: QueryPlan) -> None:
        """A question routed as one about now that asks about an earlier value by its
        meaning (recall/earlier.py) is routed as one about history. Read only where the dense
        leg has embedded the question: no model call for it."""
        if not EARLY or plan.routing.mode != "current" or plan.vector is None:
            return
        book = self._book(self.earlier)
        if book is None:
            return
        stood = book.standing(plan.vector, script(plan.query))
        if stood >= STAND_EARLIER:
            plan.routing = Routing(HISTORY, f"the question's meaning leans to an earlier value "
                                            f"(it stands {stood:.1f} toward questions about "
                                            "before): former values kept, each just below the "
                                            "value that replaced it")
            # asking for an earlier value, it asks the slot whatever its tense (recall/plan.py)
            plan.asked = asked_slot(plan.query, earlier=True)

    def _worldly(self, plan: QueryPlan) -> bool:
        """Does the question ask about the world, not the asker's life (recall/worldly.py)?"""
        book = self._book(self.world) if WORLDLY else None
        if book is None:
            return False
        return book.standing(self._vector(plan), script(plan.query)) \
            >= STAND_WORLDLY

    def _wakes_nothing(self, plan: QueryPlan) -> Callable[[], bool] | None:
        """Whether the question asks about the world rather than calling up an episode of the
        asker's (recall/worldly.py ``wakes_nothing``), read where waking asks; None without
        the book."""
        book = self._book(self.world) if WORLDLY else None
        if book is None:
            return None
        lang = script(plan.query)
        return lambda: book.wakes_nothing(self._vector(plan), lang)

    def _standings(self, scope: Scope, plan: QueryPlan, ids: list[str],
                   known: dict[str, float] | None = None,
                   every: bool = False) -> dict[str, float]:
        """Each memory's standing against the question bank (recall/questionbank.py), for
        the memories in the question's own language: the bank is of that language, and a
        memory in the other language is judged against the scope instead
        (recall/across.py), or, ``every``, in a scope too small to have a background, against
        the bank too (recall/smallscope.py). ``known``: standings read before in this
        recall, not read again. A question about the past stands at the better of itself and
        itself without the words that ask "before" (temporal.py ``untensed``: those words
        lean away from every memory's topic; one more query embedded)."""
        book = self._book(self.bank)
        if book is None or not ids:
            return {}
        known = known or {}
        if not every:
            elsewhere = self.languages.of(scope).ids.get(other(script(plan.query)), set())
            ids = [mid for mid in ids if mid not in elsewhere]
        new = [mid for mid in ids if mid not in known]
        if not new:
            return {mid: known[mid] for mid in ids if mid in known}
        vectors = self.store.vectors(scope, new)
        found = self._bank_standings(scope, plan, vectors)
        bare = untensed(plan.query) if plan.routing.mode == "past" else plan.query
        if bare and bare != plan.query:  # the words asking "before" lean away from the topic
            if plan.untensed is None:
                plan.untensed = self.embed_query(bare)
            also = book.standings(bare, plan.untensed, vectors)
            found = {mid: max(stood, also[mid]) for mid, stood in found.items()}
        return {mid: known[mid] if mid in known else found[mid] for mid in ids
                if mid in known or mid in found}

    @traced("recall.associate")
    def _associate(self, scope: Scope, plan: QueryPlan, preset: Preset, k: int, now: datetime,
                   hits: list[Hit]) -> list[Hit]:
        """Spreading activation from the top hits (recall/associate.py): what it brings in
        passes the same filters as a direct hit and takes at most ``assoc_slots`` of k."""
        found = associate(self.store, scope, hits[:k], preset,
                          lambda rec: allowed(rec, plan, now, []))
        plan.associated = [h.memory.id for h in found]
        return merge(hits, found, max(k, len(hits)), preset.assoc_slots)

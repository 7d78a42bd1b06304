"""Relevance: a number in [0, 1] for each hit that means the same across queries, so that a
person or an LLM can put a cut-off on it, and recall can say "nothing in memory is about this".

The fused rank score (RRF) only orders one query's candidates: its value says nothing about
whether the best of them is on topic. The signals that do (bench/results/abstain.md):
- lexical: the share of the query's content terms a memory holds (its text and anchors, its
  context at half weight), each term weighted by its rarity in the scope (IDF from the term's
  document frequency in the text index). A speaker's name in every turn weighs less, a word
  no memory holds weighs most: an off-topic question covers little of its own weight.
  Document frequencies are counted up to DF_CAP: every common word weighs the same.
- meaning: for a memory in the question's language, its standing against the question bank
  (recall/questionbank.py: its similarity to this question against its similarities to
  typical questions of that language, in the same model) above what the best of the scope's
  n memories reaches by chance; without a bank, the dense gap, the hit's similarity minus
  the scope's background for this query (the mean over the dense leg's candidates, which
  mixes the scope's languages and separates little for English with e5). For a memory in the
  other language than the question's, which holds none of its words, the higher of the gap
  and its standing above chance against the scope's kept background (recall/across.py):
  0 to 1. An embedder whose similarity is hashed words (``lexical_only``) gives no meaning.

topicality (of the query) = max(clip((best lexical - LEX0) / LEX_SPAN), best meaning)
match (of a hit)          = max(its lexical, its meaning)
relevance                 = topicality x (1 + match) / 2

So a hit of a question the store holds words for scores 0.5 to 1 by how well it matches, and
every hit of a question nothing in the store is about scores near 0. The explanation keeps the
RRF and leg values and adds lexical, dense_gap, across (where read), topicality and
relevance. Recall drops hits under a floor (``Config.relevance_floor``, ``answer_floor`` where
an LLM reads them, or the call's own) and abstains, with a note, when none is left. A scope
under MIN_BACKGROUND memories has no background of its own: it is judged by its words and the
question bank's standings at a lower floor, and keeps its hits without a bank
(recall/smallscope.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import Invalid
from ..model import Hit, Layer, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text import is_cjk, tokenize
from ..text.tokenize import latin_tokens
from .background import chance

DF_CAP = 64            # a term in this many memories or more counts as common (its IDF is
#                        that of DF_CAP: exact IDF for common words cost on-topic recall)
MIN_SCOPE = 100        # the scope size IDF assumes at least
CONTEXT_WEIGHT = 0.5   # a query term found only in a memory's context counts half
LEX0, LEX_SPAN = 0.1, 0.2     # best lexical 0.1 -> topicality 0, 0.3 -> 1
GAP0, GAP_SPAN = 0.06, 0.12   # dense gap 0.06 -> 0, 0.18 -> 1
ACROSS_SPAN = 1.0      # a memory in the other language: its standing above chance 0 -> 0,
#                        1 -> 1 (recall/across.py; it wakes from an archive at 0.5)
MIN_BACKGROUND = 20           # memories (dense candidates) needed to tell a background
STAND_SPAN = 1.0              # a standing against the question bank, above chance: 0 -> 0,
#                              1 -> 1 (recall/questionbank.py)


@dataclass
class QueryTerms:
    """The query's content terms and their IDF in the scope."""

    idf: dict[str, float] = field(default_factory=dict)
    df: dict[str, int] = field(default_factory=dict)   # each term's document count (to DF_CAP)
    scope_size: int = 0   # the memories searched (their count is the background's size)
    # memory id -> the IDF-weighted sum of the terms it holds, read from the tokens its write
    # stored (``hold``); a memory not here is tokenized by ``lexical``
    held: dict[str, float] = field(default_factory=dict)
    _total: tuple[dict[str, float], float] | None = field(default=None, repr=False,
                                                         compare=False)

    @property
    def total(self) -> float:
        """The sum of the IDFs, summed once per ``idf`` dict (``query_terms`` fills it and
        nothing changes it after; ``lexical`` asks for the sum for every hit)."""
        if self._total is None or self._total[0] is not self.idf:
            self._total = (self.idf, sum(self.idf.values()))
        return self._total[1]


def query_terms(store: Store, scope: Scope, tokens: list[str],
                layers: tuple[Layer, ...]) -> QueryTerms:
    terms = list(dict.fromkeys(tokens))
    size = scope_size(store, scope, layers)
    if not terms:
        return QueryTerms(scope_size=size)
    # a small scope counts as MIN_SCOPE memories: the one memory of a new store holds its
    # words, and that makes them rare, not common
    n = max(size, MIN_SCOPE)
    out = QueryTerms(scope_size=size)
    out.df = doc_freqs(store, scope, terms, layers)
    for term, df in out.df.items():
        out.idf[term] = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    return out


def scope_size(store: Store, scope: Scope, layers: tuple[Layer, ...]) -> int:
    """The scope's memories in ``layers``: kept between recalls where the store offers it
    (``layer_count``, the SQLite store), else counted."""
    counted = getattr(store, "layer_count", None)
    if counted is not None and layers:
        return int(counted(scope, layers))
    return store.count(scope, ListFilter(layers=layers))


def doc_freqs(store: Store, scope: Scope, terms: list[str], layers: tuple[Layer, ...],
              cap: int = DF_CAP) -> dict[str, int]:
    """Each term's document frequency up to ``cap``: in one pass where the store offers it
    (``term_counts``, the SQLite store's postings), else one text search per term."""
    counts = getattr(store, "term_counts", None)
    if counts is not None:
        found: dict[str, int] = counts(scope, terms, cap, layers)
        return found
    every = {"body": 1.0, "anchors": 1.0, "context": 1.0}
    return {t: len(store.search_text(scope, [t], every, cap, layers)) for t in terms}


def lexical(hit: Hit, terms: QueryTerms) -> float:
    """The IDF-weighted share of the query's content terms the memory holds (1 for a memory
    the query names by its URI; at least half its wake score for a woken one)."""
    if "uri" in hit.explanation.legs:
        return 1.0
    woken = min(hit.explanation.terms.get("wake_score", 0.0) / 2.0, 1.0)  # its cues (wake.py)
    if terms.total <= 0:
        return woken
    return max(held_weight(hit.memory, terms) / terms.total, woken)


def held_weight(rec: Record, terms: QueryTerms) -> float:
    """The IDF-weighted sum of the query's terms ``rec`` holds: kept by ``hold``, else read
    from its text."""
    got = terms.held.get(rec.id)
    if got is None:
        words = _words(terms)
        body = set(words(" ".join([rec.content, *rec.people, *rec.places, *rec.topics])))
        context = set(words(rec.context or ""))
        got = sum(idf * (1.0 if t in body else CONTEXT_WEIGHT if t in context else 0.0)
                  for t, idf in terms.idf.items())
    return got


def _words(terms: QueryTerms) -> Callable[[str], Sequence[str]]:
    """How ``lexical`` reads a text: terms in no CJK script are never among a Chinese run's
    words, so those are not segmented where no term is in one."""
    return tokenize if any(is_cjk(t) for t in terms.idf) else latin_tokens


def hold(store: Store, scope: Scope, records: Iterable[Record], terms: QueryTerms) -> None:
    """Keep in ``terms.held`` each record's IDF-weighted sum of the query terms it holds
    (``lexical``'s), read from the tokens its write stored in the text index
    (``indexed_terms``: its body, anchors and context columns are ``tokenize`` of its
    content, of its anchors and of its context), where the store offers it: ``lexical`` then
    tokenizes no text. The same terms as ``lexical`` reads: a term is among a text's pieces'
    tokens whatever the pieces are joined with, and the anchors column also holds keywords,
    a slot word and stop words, so a term found only there is checked against the record's
    people, places and topics. The same sum: the same products added by ``sum`` in the same
    order."""
    find = getattr(store, "indexed_terms", None)
    if find is None or not terms.idf:
        return
    records = {r.id: r for r in records if r.id not in terms.held}
    found = find(scope, list(records), list(terms.idf)) if records else None
    if not found or not found[0]:
        return
    ids, bits = found
    body = (bits & 1) != 0
    words, names, listed = _words(terms), {}, list(terms.idf)
    for i, j in zip(*np.nonzero((bits & 2 != 0) & ~body), strict=True):  # anchors alone
        if j not in names:
            rec = records[ids[j]]
            names[j] = set(words(" ".join([*rec.people, *rec.places, *rec.topics])))
        body[i, j] = listed[i] in names[j]
    weights = np.where(body, 1.0, np.where(bits & 4 != 0, CONTEXT_WEIGHT, 0.0)).T
    # each product as Python's (one IEEE multiply), then summed by ``sum`` in the same order
    products = (weights * np.array(list(terms.idf.values()), dtype=np.float64)).tolist()
    for mid, row in zip(ids, products, strict=True):
        terms.held[mid] = sum(row)


def background(dense: list[tuple[str, float]]) -> tuple[float, float] | None:
    """Mean and spread of the dense leg's similarities: the scope's background for a query
    (None under MIN_BACKGROUND candidates: too few to say what stands out)."""
    if len(dense) < MIN_BACKGROUND:
        return None
    scores = np.array([s for _, s in dense], dtype=np.float64)
    return float(scores.mean()), float(max(scores.std(), 1e-6))


def meaning(gap: float, above_chance: float | None, stood: float | None = None) -> float:
    """How far the hit stands out by meaning, 0 to 1: its standing above chance against the
    question bank (recall/questionbank.py: the same memory against typical questions in the
    question's language) where it has one, else the dense leg's gap over the scope's
    background for this query; for a memory in the other language than the question's, the
    higher of that and its standing above chance against the scope (recall/across.py)."""
    dense = clip((gap - GAP0) / GAP_SPAN) if stood is None else clip(stood / STAND_SPAN)
    return dense if above_chance is None else max(dense, clip(above_chance / ACROSS_SPAN))


def meanings(standings: dict[str, float], scope_size: int) -> dict[str, float]:
    """Each memory's meaning for the re-ranker (recall/rerank.py) from its standing against
    the question bank, for memories in the question's language: its standing above the
    chance level of the best of the scope's memories, over the best one's (at least
    STAND_SPAN), 0 to 1. The memory that stands out most gets 1 where it stands STAND_SPAN
    or more above chance, as a memory holding all the question's words has coverage 1; the
    others keep their distance below it (where many memories name the person asked about,
    all stand high and a fixed span would give each 1). None in a scope under
    MIN_BACKGROUND memories: the best of a handful stands above chance for any question near
    their topic, so there it tells nothing apart (as ``apply_floor`` judges no hit there)."""
    if not standings or scope_size < MIN_BACKGROUND:
        return {}
    base = chance(scope_size)
    span = max(max(standings.values()) - base, STAND_SPAN)
    return {mid: clip((stood - base) / span) for mid, stood in standings.items()}


def clip(x: float) -> float:
    return min(max(x, 0.0), 1.0)


def score_hits(hits: list[Hit], terms: QueryTerms, dense: list[tuple[str, float]],
               across: dict[str, float] | None = None,
               standings: dict[str, float] | None = None) -> bool:
    """Set each hit's ``score`` to its relevance; the blend stays in ``explanation.final``.
    True when the scope is big enough to have a background to judge by (MIN_BACKGROUND
    memories)."""
    bg = background(dense)
    sims = dict(dense)
    across = across or {}
    standings = standings or {}
    base = chance(max(terms.scope_size, 1)) if standings else 0.0
    signals = []
    for hit in hits:
        leg = hit.explanation.legs.get("dense")
        cos = leg.score if leg else sims.get(hit.memory.id)
        gap = cos - bg[0] if cos is not None and bg is not None else 0.0
        stood = standings.get(hit.memory.id)
        if stood is not None:
            stood -= base
            hit.explanation.terms["standing"] = round(stood, 4)
        signals.append((lexical(hit, terms), gap,
                        meaning(gap, across.get(hit.memory.id), stood)))
    best_lex = max((lx for lx, _, _ in signals), default=0.0)
    best_meaning = max((m for _, _, m in signals), default=0.0)
    topical = max(clip((best_lex - LEX0) / LEX_SPAN), best_meaning)
    for hit, (lex, gap, meant) in zip(hits, signals, strict=True):
        match = max(lex, meant)
        rel = topical * (1.0 + match) / 2.0
        hit.explanation.terms.update({"lexical": round(lex, 4), "dense_gap": round(gap, 4),
                                      "topicality": round(topical, 4),
                                      "relevance": round(rel, 4)})
        if hit.memory.id in across:
            hit.explanation.terms["across"] = round(across[hit.memory.id], 4)
        hit.score = rel
    return terms.scope_size >= MIN_BACKGROUND


def check_floor(value: object) -> float:
    """A relevance floor: a number from 0 (keep every hit) to 1."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value \
            or not 0 <= value <= 1:
        raise Invalid(f"relevance_floor must be a number from 0 (keep every hit) to 1, got "
                      f"{value!r}")
    return float(value)


def apply_floor(hits: list[Hit], floor: float, judged: bool = True,
                unanswered: str | None = None) -> tuple[list[Hit], str]:
    """The hits at or above the floor, and the note when none is. Not ``judged`` (a scope
    too small to have a background, under MIN_BACKGROUND memories, with no question bank to
    judge it by either: recall/smallscope.py) keeps every hit: what stands out cannot be told
    there, and its few hits cost an LLM little to read.
    ``unanswered``: why the memories, about the question, hold no answer (recall/asked.py)."""
    if floor <= 0 or not hits or not judged:
        return hits, ""
    kept = [h for h in hits if h.score >= floor]
    if kept:
        return kept, ""
    best = max(h.score for h in hits)
    if unanswered:
        return [], (f"nothing in memory answers this: {unanswered} (the best match's "
                    f"relevance {best:.2f} is below the floor {floor:.2f})")
    return [], (f"nothing in memory is about this: the best match's relevance {best:.2f} is "
                f"below the floor {floor:.2f} (the memories hold little of the query's "
                "weight in words, and none stands out from the scope's background)")

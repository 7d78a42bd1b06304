"""The second stage: the top ``RERANK_DEPTH`` candidates re-scored by features that can be
explained, after the first stage (fusion and blend, recall/rank.py) has put the evidence among
them but not always in the top k.

Each candidate's blend score is multiplied by

    1 + COVERAGE_WEIGHT x max(coverage, meaning) + DENSITY_WEIGHT x session density

- coverage: the IDF-weighted share of the query's content words the memory holds (its text
  and anchors; its context at half weight), the same measure as relevance's lexical signal
  (recall/relevance.py). Fusion ranks by rank, so a memory that holds one rare word of the
  question can outrank one that holds all of them; coverage says how much of the question
  a memory answers.
- meaning: for a memory in the question's language, how far it stands out by meaning, 0 to 1:
  its standing against the question bank (recall/questionbank.py) above the chance level of
  the best of the scope's n memories, over the best candidate's (relevance.py ``meanings``).
  A memory can answer the whole question without any of its words ("Where do I work?" /
  "I'm a designer at Lumen"), and the words a question shares with other memories are often
  incidental ("work" in "works as a midwife", "the engineer I work with"). The factor takes
  the higher of coverage and meaning, as relevance's match does, so the memory that stands
  out most by meaning is lifted as much as one holding all the question's words. The
  chance level grows with the scope: in a long conversation (hundreds of turns) few turns
  stand above it, in a small personal store the one that answers usually does. Not read in
  a scope under 20 memories (relevance.py MIN_BACKGROUND) nor without a bank (an embedder
  of hashed words); bench/results/abstain.md, "On-topic ranking", has the figures.
- a tie by meaning: in a scope under 20 memories, where meaning is not read (no chance level
  to judge a standing by), the memories are ordered among themselves by their standing
  against the question bank, not by the dense leg's raw cosine alone: a raw cosine favours
  memories that are near every question ("The boat is moored at Poole." over "The boat seats
  six." for "How many people fit on it?"), the standing discounts that. Up to TIE_WEIGHT for
  a memory holding none of the question's words, WORDS_TIE for one holding some: two
  memories of one subject often hold the same words of the question ("bakery" in "The bakery
  opens at 7am." and "The bakery is on Mill Lane." for "Where is the bakery?"), and fusion
  then orders them by the text leg's length norm and the dense leg's raw cosine. It only
  breaks ties: a word more held outweighs it.
- the meaning vote: fusion ranks by rank, so a memory found by both legs (one word of the question
  it holds by chance: "named" in "My niece named her kayak Wren" for "What's our rabbit's name?")
  stays above one found by meaning alone ("We keep a lop-eared bunny, Clover"), and a factor of at
  most 2 cannot lift the latter over it. So the re-scored order is fused once more with the order
  by meaning, as the first stage fuses the legs: each candidate's place gives 1 / (VOTE_K +
  place), and a memory that stands out by meaning (its meaning above 0) adds meaning x trust /
  (VOTE_K + its place by meaning). The trust is 1 - the best coverage among the candidates:
  the words are trusted as far as some candidate holds them. Where one holds all the question's
  weight, meaning does not vote; where none holds any word, the order by meaning counts as much as
  the re-scored order. Nor does it vote where a candidate holding some of the question's words
  holds a name the question says (write/align.py's values: "Which firm employs Mira now?" over
  "Mira works in Berlin" and "Mira works at Spotify"): the question is asked in the store's words
  for its subject, meaning does not tell one attribute of a subject from another, and another
  person's memory, alike in meaning, would be lifted over the subject's own (LoCoMo dev, whose
  questions mostly name a speaker, gives the same figures with the vote). Only the memories whose
  meaning is read (those in the question's language) move, among the places they hold: one in the
  other language keeps its place, as the vote cannot read it (a Chinese cue that wakes an English
  episode keeps it first). The places keep their scores (the n-th place after the vote has the
  n-th score before it), so what reads the scores next (association) reads the same units.
- a turn that only asks: a turn of a conversation whose every sentence is a question states
  no value; it shares the topic's words with a question about that topic ("Which lock suits a
  bike rack?" for "Where is my bike locked up?") but answers nothing, so its score is scaled by
  ASKING. A memory the user stored as a question (remember) keeps its score: it is what the
  user chose to keep, and a near miss may be asked for by its own words.
- session density: the share of the top candidates that come from the memory's session
  (``source_session``), scaled so the densest session counts 1. A conversation talks about one
  thing for a while: the session where many candidates cluster is where the question's topic
  was discussed, and a turn there that matches only a few words is more likely evidence
  than one stray match elsewhere. Memories without a session get none.

The factors are set by reasoning (coverage matters most; density is a tie-breaker), not fitted;
bench/results/locomo.md reports what each gave on LoCoMo dev, split by conversation. Each
re-ranked hit's explanation holds ``coverage``, ``meaning`` (where read),
``session_density``, ``meaning_vote`` and ``asking`` (where they apply) and
``rerank_factor``;
the plan's ``stages["rerank"]`` says how deep it went."""

from __future__ import annotations

import re
from collections import Counter

from ..model import Hit, Record
from ..text import tokenize
from ..write.align import DATE_WORDS, VALUE, WORD, ZH_TIME, typed_tokens
from ..write.extract import marked_sentences
from .conflicts import said_in_chat
from .plan import QueryPlan
from .relevance import MIN_BACKGROUND, QueryTerms, lexical

RERANK_DEPTH = 30        # candidates re-scored (60 until 2026-12-05: 30 leaves every
#                          behaviour score and probe the same, LoCoMo R@10 +0.006 / -0.003,
#                          and costs ~8 % less recall CPU at 10k: bench/results/speed.md)
COVERAGE_WEIGHT = 1.0    # x (1 + this x coverage): a memory holding all the question's weight
DENSITY_WEIGHT = 0.25    # x (1 + this x density): the session most candidates come from
TIE_WEIGHT = 0.03        # + this x the standing's place among the candidates, for a memory
#                          holding no word of the question in a scope under 20 memories
WORDS_TIE = 0.02         # ... and this for one holding some (eighteenth session, design sets:
#                          0.01 / 0.02 / 0.03 / 0.05 gave near misses +9 / +11 / +11 / +12 of
#                          430 for update chains -2 / -2 / -3 / -5 of 561; bench/results/
#                          update_reading.md)
ASKING = 0.5            # x this for a turn of a conversation that only asks (fourteenth
#                          session: 0.5 and 0.25 the same on the design sets' update chains)
VOTE_K = 10              # the meaning vote's rank constant over RERANK_DEPTH places (twentieth
#                          session, design sets' 520 on-topic questions, the expected memory
#                          first at floor 0: 383 before, 402 with the vote; the prototype, with
#                          no names check, 5: 394, 10: 402; bench/results/abstain.md)


def rerank(hits: list[Hit], plan: QueryPlan, terms: QueryTerms,
           meant: dict[str, float] | None = None,
           ties: dict[str, float] | None = None) -> list[Hit]:
    """The hits, the top ``RERANK_DEPTH`` re-scored and re-sorted, the rest after them.
    ``meant``: memory id -> its meaning, 0 to 1 (none read: coverage alone); ``ties``: memory
    id -> its tie by meaning (``standing_ties``), scaled down for a memory holding words of
    the question."""
    top, rest = hits[:RERANK_DEPTH], hits[RERANK_DEPTH:]
    if len(top) < 2:
        return hits
    sessions = Counter(h.memory.source_session for h in top if h.memory.source_session)
    densest = max(sessions.values(), default=0)
    covered = [lexical(hit, terms) if terms.total > 0 else 0.0 for hit in top]
    trust = 1.0 - max(covered) if meant else 0.0
    if trust > 0.0 and names_held(plan.query, [h for h, cov in zip(top, covered, strict=True)
                                               if cov > 0.0]):
        trust = 0.0
    for hit, cov in zip(top, covered, strict=True):
        session = hit.memory.source_session
        dens = sessions[session] / densest if session and densest > 1 else 0.0
        meaning = meant.get(hit.memory.id) if meant else None
        if meaning is not None:
            hit.explanation.terms["meaning"] = round(meaning, 4)
        factor = 1.0 + COVERAGE_WEIGHT * max(cov, meaning or 0.0) + DENSITY_WEIGHT * dens
        if only_asks(hit.memory):
            hit.explanation.terms["asking"] = ASKING
            factor *= ASKING
        if ties and hit.memory.id in ties:
            tie = ties[hit.memory.id] * (1.0 if cov == 0.0 else WORDS_TIE / TIE_WEIGHT)
            hit.explanation.terms["meaning_tie"] = round(tie, 4)
            factor += tie
        hit.explanation.terms.update({"coverage": round(cov, 4),
                                      "session_density": round(dens, 4),
                                      "rerank_factor": round(factor, 4)})
        hit.score *= factor
        hit.explanation.final = hit.score
    top.sort(key=lambda h: (-h.score, h.memory.id))
    if trust > 0.0 and meant:
        top = meaning_vote(top, meant, trust)
    plan.stages["rerank"] = {"depth": len(top), "coverage_weight": COVERAGE_WEIGHT,
                             "density_weight": DENSITY_WEIGHT, "meaning_trust": round(trust, 4)}
    return top + rest


def meaning_vote(top: list[Hit], meant: dict[str, float], trust: float) -> list[Hit]:
    """``top`` (re-scored, best first) fused with its order by meaning: 1 / (VOTE_K + place)
    plus, for a memory with a meaning above 0, meaning x ``trust`` / (VOTE_K + its place by
    meaning). Only the memories whose meaning was read (``meant``: those in the question's
    language) move, among the places they hold; one in the other language keeps its place.
    Each place keeps the score it had."""
    voters = sorted((mid for mid, m in meant.items() if m > 0.0), key=lambda mid: -meant[mid])
    if trust <= 0.0 or not voters:
        return top
    by_meaning = {mid: place for place, mid in enumerate(voters, start=1)}
    fused: dict[str, float] = {}
    for place, hit in enumerate(top, start=1):
        mid = hit.memory.id
        vote = trust * meant[mid] / (VOTE_K + by_meaning[mid]) if mid in by_meaning else 0.0
        if vote:
            hit.explanation.terms["meaning_vote"] = round(vote, 4)
        fused[mid] = 1.0 / (VOTE_K + place) + vote
    places = [i for i, h in enumerate(top) if h.memory.id in meant]
    read = sorted((top[i] for i in places), key=lambda h: -fused[h.memory.id])  # stable
    voted = list(top)
    for i, hit in zip(places, read, strict=True):
        voted[i] = hit
    for hit, score in zip(voted, [h.score for h in top], strict=True):
        hit.score = hit.explanation.final = score
    return voted


def only_asks(rec: Record) -> bool:
    """A turn of a conversation (or what was extracted from turns) whose every sentence asks."""
    if not said_in_chat(rec):
        return False
    said = marked_sentences(rec.content)
    return bool(said) and all(asked for _, asked in said)


def names_held(question: str, hits: list[Hit]) -> bool:
    """Does one of the hits hold a name or value the question says (write/align.py's values: a
    capitalised name, a Chinese name or place, a number or code), a time word aside ("summer",
    周末: when, not whom, the question is about)? A capitalised word opening the question
    ("Mira is ...", which align.py reads as a plain word) counts where a hit writes it so."""
    toks = typed_tokens(question)
    said = [frozenset(tokenize(t.surface)) for t in toks
            if t.type == VALUE and t.norm not in DATE_WORDS and not ZH_TIME.search(t.surface)]
    said = [words for words in said if words]
    first = toks[0].surface if toks and toks[0].type == WORD and toks[0].surface[:1].isupper() \
        else None
    if said and any(words <= held for held in (frozenset(tokenize(h.memory.content))
                                               for h in hits) for words in said):
        return True
    return first is not None and any(re.search(rf"\b{re.escape(first)}\b", h.memory.content)
                                     for h in hits)


def standing_ties(standings: dict[str, float], scope_size: int) -> dict[str, float]:
    """Each memory's tie by meaning, in a scope under MIN_BACKGROUND memories (where
    relevance.py ``meanings`` reads none): its standing's place between the lowest and the
    highest of the candidates' standings, 0 to TIE_WEIGHT (none where fewer than two stand)."""
    if scope_size >= MIN_BACKGROUND or len(standings) < 2:
        return {}
    low, high = min(standings.values()), max(standings.values())
    if high <= low:
        return {}
    return {mid: TIE_WEIGHT * (stood - low) / (high - low) for mid, stood in standings.items()}

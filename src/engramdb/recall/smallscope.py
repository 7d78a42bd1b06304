"""A scope too small to have a background (under relevance.py's MIN_BACKGROUND memories): a new
user's store of a handful of memories. Relevance there was not judged at all, so every question,
"What's the weather tomorrow?" too, got the whole store back. The scope has no background of its
own, but a memory's standing against the question bank (recall/questionbank.py) needs none: it
compares the memory with typical questions, not with the scope. So a small scope is judged by
its lexical coverage and that standing, at a floor of at most SMALL_FLOOR: only a question that
nothing in the store is about, by words or by meaning, abstains. A memory in the other language
than the question's stands against the question's bank too: every memory is embedded by both
models of the default embedder, so its cosine to the question and to the bank's questions (both
in the question's language) are read in the question's model, and the language pair's offset
cancels. Not without a bank (an embedder of hashed words): there every hit is kept.

A current value that replaced others answers what they were about: "What does the blog run
on?" is answered by "Migrated from Ghost to Hugo over the weekend", which says none of its
words, where "We host the blog on Ghost", the value it replaced, says them. Each hit is judged
by the best of its own words and standing and those of the values its chain replaced. In a
small scope the chain is read by listing the scope (a few rows)."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Hit, Layer, Record, Scope
from ..store.protocol import ListFilter, Store
from .relevance import QueryTerms, held_weight

SMALL_FLOOR = 0.1   # the floor of a small scope, where a lower one is not asked for: relevance
#                     under it says nothing in the store is about the question (topicality near
#                     0); bench/results/abstain.md, sixteenth session


def formers(store: Store, scope: Scope, ids: Sequence[str],
            layers: tuple[Layer, ...]) -> dict[str, list[Record]]:
    """Each of ``ids``'s former values: the memories its chain replaced, nearest first (a scope
    listed whole: only for a small one)."""
    replaced: dict[str, list[Record]] = {}
    for rec in store.list(scope, ListFilter(layers=layers)):
        if rec.superseded_by:
            replaced.setdefault(rec.superseded_by, []).append(rec)
    out: dict[str, list[Record]] = {}
    for mid in ids:
        seen, todo, chain = {mid}, [mid], []
        while todo:
            for rec in replaced.get(todo.pop(0), ()):
                if rec.id not in seen:
                    seen.add(rec.id)
                    chain.append(rec)
                    todo.append(rec.id)
        if chain:
            out[mid] = chain
    return out


def inherit(hits: Sequence[Hit], chains: dict[str, list[Record]], terms: QueryTerms,
            standings: dict[str, float], theirs: dict[str, float]) -> dict[str, float]:
    """Each hit with former values (``chains``) holds the best of its own and their words
    (``terms.held``) and stands at the best of its own and their standings (``theirs``); the
    standings returned. The explanation counts the former values read (``formers``)."""
    stood = dict(standings)
    for hit in hits:
        chain = chains.get(hit.memory.id)
        if not chain:
            continue
        terms.held[hit.memory.id] = max(held_weight(rec, terms) for rec in [hit.memory, *chain])
        found = [s for s in (stood.get(hit.memory.id), *(theirs.get(r.id) for r in chain))
                 if s is not None]
        if found:
            stood[hit.memory.id] = max(found)
        hit.explanation.terms["formers"] = len(chain)
    return stood

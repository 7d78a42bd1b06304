"""The neighbours a write is judged against while its vector is still pending
(``Config.embed = "deferred"``): found by its words alone, at once.

What the text decides at write time, exactly as the synchronous path: exact duplicates, the same
URI, events, the slot rules (write/slots.py: the slot's current value is found by its slot token,
a word in the text index, as ``neighbours`` finds it) and the shape rules (write/shape.py: they
compare the texts token by token; the cosine only picks which stored memories are compared, and
here the candidates are the BM25 best over the new text's words, scored by the cosine of their
token sets). What waits for the vector (engine/deferred.py completes it in the batch): the
near-duplicate rule, whose cosine >= NEAR_DUP_COSINE is the meaning check on top of the token
Jaccard, and the surprise that scales importance (the neutral surprise here leaves the importance
as given)."""

from __future__ import annotations

import math

from ..model import Action, Record
from ..store.protocol import Store
from ..text import tokenize
from .prepare import slot_token
from .shape import SHAPE_KINDS
from .slots import slot_of
from .supersede import (
    NEIGHBOUR_LAYERS,
    NEIGHBOURS,
    SURPRISE_BASE,
    SURPRISE_GAIN,
    Judgement,
    Nearby,
    Neighbour,
)

# the surprise at which the importance gate leaves importance unchanged (factor 1)
NEUTRAL_SURPRISE = (1.0 - SURPRISE_BASE) / SURPRISE_GAIN
BODY = {"body": 1.0}


def text_neighbours(store: Store, rec: Record) -> Nearby:
    """The stored memories that share the most words with ``rec`` (BM25 over its content, the
    NEIGHBOURS best; for the kinds the shape rules compare) and its slot's current value,
    each with the cosine of the two token sets in place of the vectors' cosine; the top
    cosine is the neutral one (surprise unknown)."""
    shaped = rec.kind in SHAPE_KINDS and rec.uri is None  # what the shape rules compare
    words = sorted(set(tokenize(rec.content))) if shaped else []
    found = [mid for mid, _ in store.search_text(rec.scope, words, BODY, NEIGHBOURS,
                                                 NEIGHBOUR_LAYERS)] if words else []
    token = slot_token(rec) if slot_of(rec.content, rec.kind) is not None else None
    if token:
        found += [mid for mid, _ in store.search_text(rec.scope, [token], {"anchors": 1.0},
                                                      NEIGHBOURS, NEIGHBOUR_LAYERS)]
    ids = [mid for mid in dict.fromkeys(found) if mid != rec.id]
    records = store.get_many(rec.scope, ids) if ids else {}
    mine = set(tokenize(rec.content, keep_stopwords=True))
    return Nearby([Neighbour(records[mid], token_cosine(mine, records[mid].content))
                   for mid in ids if mid in records], 1.0 - NEUTRAL_SURPRISE, None)


def token_cosine(words: set[str], other: str) -> float:
    """|A and B| / sqrt(|A| |B|) over distinct tokens."""
    theirs = set(tokenize(other, keep_stopwords=True))
    if not words or not theirs:
        return 0.0
    return len(words & theirs) / math.sqrt(len(words) * len(theirs))


def text_judgement(verdict: Judgement) -> Judgement:
    """``judge``'s verdict on text neighbours, less what needs the vector: a near-duplicate
    (its cosine here is the token sets') is a new memory until the batch checks it with the
    vectors' cosine (engine/deferred.py)."""
    if verdict.rule == "near_duplicate":
        return Judgement(Action.ADD, "new_memory")
    return verdict

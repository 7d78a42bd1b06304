"""store/postings.py: pending postings, compacted into the sorted arrays, read the same."""

import random

import numpy as np

from engramdb.store.postings import Postings


def test_compacted_postings_are_the_pending_ones_and_those_built_at_once() -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(40)]
    docs = [[rng.choice(words) for _ in range(rng.randint(1, 8))] for _ in range(120)]
    at_once, grown = Postings(), Postings()
    terms, cells = [], []
    for d, tokens in enumerate(docs):
        for t in tokens:
            terms.append(at_once.vocab.setdefault(t, len(at_once.vocab)))
            cells.append(d * 3 + 1)
    at_once.sort_in(terms, cells, len(docs))
    split = 70   # the first 70 documents built at once, the rest added one posting at a time
    grown.vocab = {}
    terms, cells = [], []
    for d, tokens in enumerate(docs[:split]):
        for t in tokens:
            terms.append(grown.vocab.setdefault(t, len(grown.vocab)))
            cells.append(d * 3 + 1)
    grown.sort_in(terms, cells, split)
    for d, tokens in enumerate(docs[split:], start=split):
        for t in sorted(set(tokens), key=tokens.index):
            grown.pend(grown.vocab.setdefault(t, len(grown.vocab)), d, 1, tokens.count(t))
    pending = {t: grown.postings(grown.vocab[t]) for t in words if t in grown.vocab}
    grown.compact()
    assert not grown.pending and grown.pending_size == 0
    for t in words:
        if t not in grown.vocab:
            continue
        after, before = grown.postings(grown.vocab[t]), pending[t]
        whole = at_once.postings(at_once.vocab[t])
        for a, b, w in zip(after, before, whole, strict=True):
            assert a.dtype == b.dtype == w.dtype
            assert np.array_equal(a, b) and np.array_equal(a, w)


def test_idf_of_a_hit_count_above_the_row_total_is_the_floor() -> None:
    """FTS5's idf where it is defined; a hit count read a commit after its row total (another
    connection writing in between) is no log of a negative number: the floor, as for a term
    in half the rows or more."""
    import math

    from engramdb.store.bm25 import idf as bm25_idf

    assert bm25_idf(10, 2) == math.log((10 - 2 + 0.5) / (2 + 0.5))
    assert bm25_idf(10, 5) == bm25_idf(10, 10) == 1e-6
    assert bm25_idf(3, 4) == bm25_idf(3, 40) == 1e-6

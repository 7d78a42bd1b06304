"""A batch of vector searches (``search_vector_many``, what a remember_many's guard and a
sleep's merge pass use) answers each query as a search of its own would, however many blocks
of queries the batch is scored in (store/vectors.py ``TOP_MANY_BLOCK``)."""

from __future__ import annotations

import numpy as np

import engramdb
from engramdb.model import Layer, Scope
from engramdb.store import vectors


def test_a_batch_of_many_blocks_answers_each_query_as_alone(tmp_path, clock, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(vectors, "TOP_MANY_BLOCK", 16)
    texts = [f"note {i}: {w} met {v} about the {u}" for i, (w, v, u) in enumerate(
        (w, v, u) for w in ("Ana", "Wang", "小李", "Bob") for v in ("Maria", "老张", "Ivan")
        for u in ("budget", "garden", "冰雕", "hiring", "flight"))]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       auto_sleep_importance=0) as mem:
        mem.remember_many([engramdb.Draft(content=t, kind="event") for t in texts], user="u")
        scope, layers = Scope("u", "default"), (Layer.CORE, Layer.ARCHIVED)
        queries = np.vstack(mem.embedder.embed_batch(texts[:40] + ["Ana and the budget"]))
        assert len(queries) > 2 * vectors.TOP_MANY_BLOCK   # three blocks and a bit
        batch = mem.store.search_vector_many(scope, queries, 5, layers)
        alone = [mem.store.search_vector(scope, q, 5, layers) for q in queries]
    assert batch == alone
    assert all(len(found) == 5 for found in batch)
    assert [found[0][1] for found in batch[:40]] == [max(s for _, s in f) for f in alone[:40]]


def test_top_cut_is_the_nth_highest_score_as_a_full_selection_finds_it():  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(5)
    for size in (3, 255, 256, 257, 5 * vectors.TOP_BLOCK + 17, 10_000, 40_000):
        rough = rng.standard_normal(size).astype(np.float32)
        for scores in (rough, np.round(rough, 1)):   # rounded: many ties at the cut
            for n in {1, 2, min(20, size - 1), min(40, size - 1), min(125, size - 1), size - 1}:
                whole = scores[np.argpartition(-scores, n - 1)[:n]].min()
                assert vectors.top_cut(scores, n) == whole
                assert np.array_equal(vectors.top_positions(scores, n),
                                      np.flatnonzero(scores >= whole))


def test_the_dense_search_of_a_layer_that_holds_few_rows_is_the_exact_best(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Where most rows are in layers left out, the search goes deeper on the same scores
    until it holds the best ``limit`` of the layers asked: each one's cosine row by row, best
    first and by id among equals, as scoring every row would give; for a query of hashed
    words (scored on its non-zero dimensions alone) and for a dense one. Each cosine is the
    one that row gets scored alone."""
    texts = [f"{w} {i} met {v} about the {u}" for i, (w, v, u) in enumerate(
        (w, v, u) for w in ("Ana", "Wang", "小李", "Bob") for v in ("Maria", "老张", "Ivan")
        for u in ("budget", "garden", "冰雕", "hiring", "flight") for _ in range(4))]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock,
                       auto_sleep_importance=0) as mem:
        mem.remember_many([engramdb.Draft(content=t, kind="event") for t in texts], user="u")
        scope, store = Scope("u", "default"), mem.store
        records = store.get_many(scope, [r.id for r in mem.list(user="u", limit=1000)])
        for n, rec in enumerate(sorted(records.values(), key=lambda r: r.id)):
            if n % 10:   # nine in ten archived
                store.save(rec.replace(layer=Layer.ARCHIVED, version=rec.version + 1), "archive")
        vecs = store.vectors(scope, list(records))
        layer = {r.id: store.get(scope, r.id).layer for r in records.values()}
        rng = np.random.default_rng(5)   # a dense query too (every dimension non-zero)
        dense = rng.standard_normal(len(next(iter(vecs.values())))).astype(np.float32)
        for query in ("Ana met Maria about the budget", "小李 冰雕", "Bob hiring flight", dense):
            q = query if isinstance(query, np.ndarray) else \
                mem.embedder.embed_batch([query], query=True)[0]
            assert (np.count_nonzero(q) * vectors.SPARSE < len(q)) == isinstance(query, str)
            for layers, limit in (((Layer.CORE,), 7), ((Layer.CORE,), 40),
                                  ((Layer.ARCHIVED,), 30), ((Layer.CORE, Layer.ARCHIVED), 5)):
                want = sorted(((mid, float(vectors.cosines(v, q)[0]))   # one row alone
                               for mid, v in vecs.items() if layer[mid] in layers),
                              key=lambda item: (-item[1], item[0]))[:limit]
                assert store.search_vector(scope, q, limit, list(layers)) == want, (layers, limit)


def test_a_rows_cosine_has_the_same_bits_whatever_rows_are_scored_with_it():  # type: ignore[no-untyped-def]
    """``cosines``, every exact score's formula: a row scored alone, among a few or among a
    thousand, from a copy or from a view of a column matrix, gets one number, for the
    dimensions of each shipped model and of both together."""
    rng = np.random.default_rng(3)
    for dim in (7, 384, 512, 768, 896):
        columns = rng.standard_normal((dim, 3000)).astype(np.float32)
        query = rng.standard_normal(dim).astype(np.float32)
        for n in (1, 2, 3, 17, 100, 1000):
            positions = np.sort(rng.choice(3000, n, replace=False))
            together = vectors.cosines(columns[:, positions].T, query)
            alone = [vectors.cosines(np.ascontiguousarray(columns[:, p]), query)[0]
                     for p in positions]
            assert together.tolist() == [float(a) for a in alone]
            assert vectors.cosines(columns[:, positions[::2]].T, query).tolist() \
                == together[::2].tolist()
        some = columns[:, :5].T
        assert np.allclose(vectors.cosines(some, query), some @ query, rtol=1e-5, atol=1e-5)

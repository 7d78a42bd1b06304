"""Would an approximate index serve the write guard's neighbours? usearch's HNSW against the
exact top-20 on the scale corpus's hashing vectors (issue 28, item 2; bench/results/speed.md).

usearch is not a dependency of engramdb: install it where you run this (with numkong and
tqdm), e.g. ``pip install --target /tmp/ann usearch`` and ``PYTHONPATH=src:/tmp/ann``.

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/ann_probe.py --size 80000

For each size: CPU per insert and per query (ef 64, 128, 256), how many of 1,000 queries miss a
member of the exact top-20 or the exact nearest, and the exact product's CPU per query."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from common import Corpus  # noqa: E402
from engramdb.embed.hashing import HashingEmbedder  # noqa: E402

K = 20
QUERIES = 1000


def misses(exact: np.ndarray, keys: np.ndarray) -> tuple[int, int]:
    """(queries missing a member of the exact top-K, queries missing the exact nearest)."""
    top = nearest = 0
    for row, got in zip(exact, keys, strict=True):
        found = {int(k) for k in got if k >= 0}
        cut = np.partition(row, len(row) - K)[len(row) - K]
        strict = set(np.flatnonzero(row > cut).tolist())   # above the cut: no tie
        top += not strict <= found
        nearest += not any(abs(row[k] - row.max()) < 1e-6 for k in found)
    return top, nearest


def main() -> None:
    from usearch.index import Index

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=80000)
    args = p.parse_args()
    corpus = Corpus(7)
    texts = [corpus.draft(i).content for i in range(args.size + QUERIES)]
    vectors = HashingEmbedder().embed_batch(texts).astype(np.float32)
    index = Index(ndim=vectors.shape[1], metric="ip", dtype="f32", connectivity=16,
                  expansion_add=128)
    done = 0
    for size in (n for n in (5000, 20000, 40000, 80000) if n <= args.size):
        start = time.process_time()
        index.add(np.arange(done, size), vectors[done:size], threads=1)
        insert = (time.process_time() - start) / (size - done)
        done = size
        queries = vectors[size : size + QUERIES]
        start = time.process_time()
        exact = queries @ vectors[:size].T
        product = (time.process_time() - start) / QUERIES
        for ef in (64, 128, 256):
            index.expansion_search = ef
            start = time.process_time()
            found = index.search(queries, K, threads=1)
            query = (time.process_time() - start) / QUERIES
            top, nearest = misses(exact, found.keys)
            print(f"n={size:,} ef={ef}: insert {insert * 1e3:.3f} ms, query {query * 1e3:.3f} "
                  f"ms, missing a top-{K} member {top}/{QUERIES}, the nearest {nearest}/"
                  f"{QUERIES}; exact product {product * 1e3:.3f} ms a query", flush=True)


if __name__ == "__main__":
    main()

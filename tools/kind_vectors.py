"""Write src/engramdb/data/kind_examples.npz: the kind examples (data/kind_examples.txt) embedded
by the default embedder, so that a process using it reads them instead of embedding 529
sentences on its first ``ingest`` (about 9.5 s of CPU; write/kindvote.py).

    OMP_NUM_THREADS=1 PYTHONPATH=src python tools/kind_vectors.py

The file holds the vectors as float16 (under 1 MB), the embedder's model id and the SHA-256 of
the examples' text: another model, or examples changed since, and the vectors are computed
again at run time, as before. Run it again after editing the examples (a test says so)."""

from __future__ import annotations

import numpy as np

from engramdb.registry import make_embedder
from engramdb.write.kindvote import SHIPPED, examples, examples_sha, shipped_path


def main() -> None:
    embedder = make_embedder("default", threads=1)
    texts = [text for text, _ in examples()]
    vectors = np.asarray(embedder.embed_batch(texts), dtype=np.float32)
    path = shipped_path()
    np.savez_compressed(path, vectors=vectors.astype(np.float16),
                        model=np.array(embedder.model_id), sha=np.array(examples_sha()))
    print(f"{path}: {len(texts)} examples x {vectors.shape[1]} dims, {embedder.model_id} "
          f"({path.stat().st_size:,} bytes; {SHIPPED})")


if __name__ == "__main__":
    main()

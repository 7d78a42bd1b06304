"""Write the default embedder's vectors of the package's example texts, so that a process using
it reads them instead of embedding them on first use (embed/shipped.py):

- src/engramdb/data/kind_examples.npz: the kind examples (write/kindvote.py; 915 sentences;
  529 took about 9.5 s of CPU on a process's first ``ingest``);
- src/engramdb/data/question_bank.npz: the question bank, embedded as queries
  (recall/questionbank.py; 400 questions, on a process's first recall);
- src/engramdb/data/question_bank_main.npz: the question bank, every question embedded as a
  query by the main model (multilingual-e5; recall/questionbank.py ``main_bank_for``);
- src/engramdb/data/change_examples.npz: changes and plain statements (recall/changemeaning.py;
  300 sentences, on the first recall whose conflicts reach them);
- src/engramdb/data/world_questions.npz: questions about the world, embedded as queries
  (recall/worldly.py; 80 questions, on a process's first recall);
- src/engramdb/data/episode_cues.npz: cues calling up an episode of one's own, embedded as
  queries (recall/worldly.py; 120 cues, on a process's first recall that reads the archive);
- src/engramdb/data/earlier_questions.npz: questions about an earlier value and their twins
  about now, embedded as queries (recall/earlier.py; 160 questions, on a process's first
  recall).

    OMP_NUM_THREADS=1 PYTHONPATH=src python tools/shipped_vectors.py

Each file holds the vectors as float16, the embedder's model id and the SHA-256 of the text
file: another model, or a text edited since, and the vectors are computed again at run time.
Run it again after editing either text file (tests say so)."""

from __future__ import annotations

import numpy as np

from engramdb.embed.shipped import save
from engramdb.recall import changemeaning, earlier, questionbank, worldly
from engramdb.registry import make_embedder
from engramdb.write import kindvote


def main() -> None:
    embedder = make_embedder("default", threads=1)
    kinds = [text for text, _ in kindvote.examples()]
    bank = [text for _, text in questionbank.questions()]
    changes = [text for text, _ in changemeaning.examples()]
    world = [text for _, text in worldly.questions()]
    for name, source, vectors in (
            (kindvote.SHIPPED, kindvote.EXAMPLES, embedder.embed_batch(kinds)),
            (changemeaning.SHIPPED, changemeaning.EXAMPLES, embedder.embed_batch(changes)),
            (worldly.SHIPPED, worldly.TEXTS, embedder.embed_batch(world, query=True)),
            (worldly.CUES_SHIPPED, worldly.CUES,
             embedder.embed_batch([text for _, text in worldly.cues()], query=True)),
            (earlier.SHIPPED, earlier.TEXTS, embedder.embed_batch(earlier.texts(), query=True)),
            (questionbank.SHIPPED, questionbank.TEXTS, embedder.embed_batch(bank, query=True)),
            (questionbank.MAIN_SHIPPED, questionbank.TEXTS, embedder.embed_main_batch(bank))):
        values = np.asarray(vectors, dtype=np.float32)
        path = save(name, source, embedder.model_id, values)
        print(f"{path}: {len(values)} x {values.shape[1]} dims, {embedder.model_id} "
              f"({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()

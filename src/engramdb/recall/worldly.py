"""A question about the world, not about the asker's life: "Who won the 2018 World Cup?",
"How does a heat pump work?", 明天成都会下雨吗？ A memory that shares its topic ("I play
badminton on Saturdays") does not answer it, however high its words and meaning score.

Two sets of questions in each language give a direction in the question's own model: the world
questions (data/world_questions.txt: facts, news, weather, how things work, how-tos and
recommendations, written without reading any evaluation data) less the questions about the
asker's own life (those of the question bank, recall/questionbank.py, that speak in the first
person). A question stands along it, above the questions about the asker, in their spread:

    standing = (q . direction - mean(own . direction)) / spread(own)

A question standing WORLDLY or more asks about the world (set on the design sets: no question
they answer stands there; bench/results/abstain.md). Recall scales its hits' relevance as
recall/asked.py does a question the best match cannot answer, unless the best match holds
every word of the question (a procedure the user stored, "How do I restart staging?"). An
embedder that reads words, not meaning (the hashing one), gives no standing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..embed.shipped import PerModel, load
from ..text.lang import EN, ZH
from . import questionbank

if TYPE_CHECKING:
    import numpy as np

TEXTS = "data/world_questions.txt"
SHIPPED = "data/world_questions.npz"   # the default embedder's query vectors of TEXTS (float16)
WORLDLY = 4.0   # spreads above the asker's own questions that a question about the world stands
# the asker speaking of themselves: a question about their own life
_OWN = re.compile(r"\b(i|me|my|mine|we|us|our|ours|i'm|i've|i'd|we're)\b|我|咱", re.IGNORECASE)


@lru_cache(maxsize=1)
def questions() -> tuple[tuple[str, str], ...]:
    """(language, question) of every world question."""
    return questionbank.read_questions(TEXTS)


class WorldBook:
    """Per language: the direction from the asker's own questions to the world's, and the
    own questions' mean and spread along it."""

    def __init__(self, world: np.ndarray, world_langs: Sequence[str], own: np.ndarray,
                 own_langs: Sequence[str]) -> None:
        import numpy as np

        self.axes: dict[str, tuple[np.ndarray, float, float]] = {}
        for lang in (EN, ZH):
            w = _unit(world[np.array(world_langs) == lang])
            o = _unit(own[np.array(own_langs) == lang])
            if not len(w) or not len(o):
                continue
            d = w.mean(axis=0) - o.mean(axis=0)
            d /= max(float(np.linalg.norm(d)), 1e-12)
            along = o @ d
            self.axes[lang] = (d, float(along.mean()), max(float(along.std()), 1e-6))

    def standing(self, vector: np.ndarray, lang: str) -> float:
        """How far a question (its query vector) stands toward the world's questions: -inf
        where it cannot be told."""
        import numpy as np

        axis = self.axes.get(lang)
        if axis is None:
            return float("-inf")
        d, mean, spread = axis
        q = np.asarray(vector, dtype=np.float32)
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        return (float(q @ d) - mean) / spread


def _unit(rows: np.ndarray) -> np.ndarray:
    import numpy as np

    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), np.float32(1e-12))


_BOOKS: PerModel[WorldBook] = PerModel()


def book_for(embedder: Any) -> WorldBook | None:
    """The two sets embedded by ``embedder`` as queries (once per process and model id; the
    default embedder's vectors ship), or None for an embedder without meaning."""
    if getattr(embedder, "lexical_only", False):
        return None
    model = str(getattr(embedder, "model_id", ""))

    def build() -> WorldBook:
        world = questions()
        world_vectors = load(SHIPPED, TEXTS, model)
        if world_vectors is None:
            world_vectors = embedder.embed_batch([t for _, t in world], query=True)
        bank = questionbank.questions()
        bank_vectors = load(questionbank.SHIPPED, questionbank.TEXTS, model)
        if bank_vectors is None:
            bank_vectors = embedder.embed_batch([t for _, t in bank], query=True)
        own = [i for i, (_, text) in enumerate(bank) if _OWN.search(text)]
        return WorldBook(world_vectors, [lang for lang, _ in world], bank_vectors[own],
                         [bank[i][0] for i in own])

    return _BOOKS.get(model, build)

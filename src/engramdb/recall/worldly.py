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
embedder that reads words, not meaning (the hashing one), gives no standing.

A second direction tells a question about the world from a cue that calls up an episode of the
asker's own ("the day my suitcase never showed up in Lisbon", 还记得我在丽江丢了钱包那回吗？):
the world questions less the cues of data/episode_cues.txt (written for engramdb by a helper who
read no evaluation data), standings above the cues in their spread. Waking reads both
(recall/wake.py): a question standing WAKES_NOT or more along each ("How do I get red wine out
of a carpet?") wakes no faded episode by meaning alone, however alike their topics; a name, a place
or the episode's own words still do. Along each, the examples it is measured from stand below
WAKES_NOT but for 1 in 40 by chance. Along the second alone, 99 % of the question bank's 400
typical questions stand there too (it tells a question from a cue); along both, 38 %
(bench/results/wake.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..embed.shipped import PerModel, load
from ..text.lang import EN, ZH
from . import questionbank
from .background import in_model

if TYPE_CHECKING:
    import numpy as np

TEXTS = "data/world_questions.txt"
SHIPPED = "data/world_questions.npz"   # the default embedder's query vectors of TEXTS (float16)
WORLDLY = 4.0   # spreads above the asker's own questions that a question about the world stands
CUES = "data/episode_cues.txt"          # cues calling up an episode of one's own (lang, cue)
CUES_SHIPPED = "data/episode_cues.npz"  # their query vectors (float16)
WAKES_NOT = 2.0  # spreads above the episode cues and the own questions: quantile 1 - 1/40
# the asker speaking of themselves: a question about their own life
_OWN = re.compile(r"\b(i|me|my|mine|we|us|our|ours|i'm|i've|i'd|we're)\b|我|咱", re.IGNORECASE)


@lru_cache(maxsize=1)
def questions() -> tuple[tuple[str, str], ...]:
    """(language, question) of every world question."""
    return questionbank.read_questions(TEXTS)


@lru_cache(maxsize=1)
def cues() -> tuple[tuple[str, str], ...]:
    """(language, cue) of every episode cue."""
    return questionbank.read_questions(CUES)


class WorldBook(questionbank.Axes):
    """Per language: the direction from the asker's own questions (``bank``'s first-person
    ones) to the world's, and the own questions' mean and spread along it; and (``episodes``)
    the direction from the cues of one's own episodes to the world's questions, the cues'
    mean and spread along it."""

    def __init__(self, world: np.ndarray, world_langs: Sequence[str],
                 bank: questionbank.QuestionBank, cues: np.ndarray | None = None,
                 cue_langs: Sequence[str] = ()) -> None:
        import numpy as np

        super().__init__(bank)
        self.episodes = questionbank.Axes(bank)
        asked = questionbank.questions()
        for lang in (EN, ZH):
            mine = [text for one, text in asked if one == lang]
            own = bank.rows[lang][[i for i, text in enumerate(mine) if _OWN.search(text)]]
            w = in_model(world[np.array(world_langs) == lang], self.spans[lang])
            if len(w) and len(own):
                self.set(lang, w, own, own)
            if cues is not None and len(w):
                c = in_model(cues[np.array(cue_langs) == lang], self.spans[lang])
                if len(c):
                    self.episodes.set(lang, w, c, c)

    def wakes_nothing(self, vector: np.ndarray, lang: str) -> bool:
        """Does a question (its query vector) stand WAKES_NOT or more toward the world's
        questions both from the cues of one's own episodes and from one's own questions?"""
        return self.episodes.standing(vector, lang) >= WAKES_NOT \
            and self.standing(vector, lang) >= WAKES_NOT


_BOOKS: PerModel[WorldBook] = PerModel()


def book_for(embedder: Any) -> WorldBook | None:
    """The three sets embedded by ``embedder`` as queries (once per process and model id; the
    default embedder's vectors ship), or None for an embedder without meaning (no bank)."""

    def build(bank: questionbank.QuestionBank) -> WorldBook:
        model = str(getattr(embedder, "model_id", ""))
        world, told = questions(), cues()
        world_vectors = load(SHIPPED, TEXTS, model)
        if world_vectors is None:
            world_vectors = embedder.embed_batch([t for _, t in world], query=True)
        cue_vectors = load(CUES_SHIPPED, CUES, model)
        if cue_vectors is None:
            cue_vectors = embedder.embed_batch([t for _, t in told], query=True)
        return WorldBook(world_vectors, [lang for lang, _ in world], bank, cue_vectors,
                         [lang for lang, _ in told])

    return questionbank.banked(embedder, _BOOKS, build)

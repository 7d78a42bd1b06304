"""A question about an earlier value, asked without a word that says so: "Which dentist did the
kids go to at first?", "What did I originally book the table for?", 最早记的密码是什么？ Recall
reads "before", "used to", 以前 and their like as a question about the past (recall/temporal.py
``route``); a question that asks for the first, the original or the starting value in other
words was read as one about now, and a value the write path had superseded was left out.

Twin questions in each language give a direction in the question's own model: each asks about
one thing's value before (data/earlier_questions.txt) beside its twin asking about the value
now, the same topic, so that the topic cancels and what is left is the asking about before.
A question stands along it, above the present twins and the question bank's questions (typical
questions about the asker's life, recall/questionbank.py), in their spread:

    standing = (q . direction - mean(present . direction)) / spread(present)

A question standing EARLIER or more, that recall had routed as one about now, is routed as one
about history (recall/temporal.py): superseded values come back, each just below the value
that replaced it. Below, not above as for a question that says "before": the meaning is less
sure than the word, and a question about now that stands there by chance still gets the
current value first, with the former one after it, marked as such. EARLIER is set on the
design sets (the dev file and fresh to fresh9, bench/results/conflicts.md): 55 of the 81
questions about before that no word routes stand there, and 4 of the 481 questions about now
(Chinese ones; no English one). Chinese stands lower: the direction is read in USE there. An
embedder that reads words, not meaning (the hashing one), gives no standing."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..embed.shipped import PerModel, data_lines, load
from ..text.lang import EN, ZH
from . import questionbank
from .background import in_model

if TYPE_CHECKING:
    import numpy as np

TEXTS = "data/earlier_questions.txt"
SHIPPED = "data/earlier_questions.npz"   # the default embedder's query vectors: every line's
#                                          earlier question, then every line's present twin
EARLIER = 2.0   # spreads above the questions about now that a question about before stands


@lru_cache(maxsize=1)
def twins() -> tuple[tuple[str, str, str], ...]:
    """(language, the question about before, its twin about now) of every line."""
    out = []
    for lang, rest in data_lines(TEXTS, "\t"):
        before, now = rest.split("\t")
        out.append((lang, before.strip(), now.strip()))
    return tuple(out)


def texts() -> list[str]:
    """The texts embedded, in the shipped file's order: the earlier questions, then the twins."""
    pairs = twins()
    return [before for _, before, _ in pairs] + [now for _, _, now in pairs]


class EarlierBook(questionbank.Axes):
    """Per language: the direction from the questions about now to those about before, and
    the questions about now's mean and spread along it (the twins and the bank's)."""

    def __init__(self, vectors: np.ndarray, languages: Sequence[str],
                 bank: questionbank.QuestionBank) -> None:
        import numpy as np

        super().__init__(bank)
        n = len(languages)
        picked = np.array(languages)
        for lang in (EN, ZH):
            rows = picked == lang
            if rows.any() and lang in bank.rows:
                before = in_model(vectors[:n][rows], self.spans[lang])
                now = in_model(vectors[n:][rows], self.spans[lang])
                self.set(lang, before, now, np.concatenate([now, bank.rows[lang]]))


_BOOKS: PerModel[EarlierBook] = PerModel()


def book_for(embedder: Any) -> EarlierBook | None:
    """The twins embedded by ``embedder`` as queries (once per process and model id; the
    default embedder's vectors ship), or None for an embedder without meaning (no bank)."""

    def build(bank: questionbank.QuestionBank) -> EarlierBook:
        vectors = load(SHIPPED, TEXTS, str(getattr(embedder, "model_id", "")))
        if vectors is None:
            vectors = embedder.embed_batch(texts(), query=True)
        return EarlierBook(vectors, [lang for lang, _, _ in twins()], bank)

    return questionbank.banked(embedder, _BOOKS, build)

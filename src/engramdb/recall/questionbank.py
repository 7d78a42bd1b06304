"""How far a memory stands out for one question against how typical questions meet it.

A model's cosine between a question and a memory says little on its own: e5 scores every pair
of texts 0.7 to 0.9, USE a Chinese question against an English memory lower than against a
Chinese one, and some memories (short, generic ones) resemble every question. So a hit's
cosine is read against the same memory's cosines to a bank of typical questions in the
question's own language (data/question_bank.txt: 200 English and 200 Chinese questions that
people ask an assistant with a memory, about their lives, other people, facts of the world and
how to do things, in many domains; written by someone who had read neither the code nor the
evaluation data), embedded by the same model as the question:

    standing = (cos(question, memory) - mean over the bank) / spread over the bank

The model's scale, the language pair's offset and the memory's own pull on every question
cancel out, per memory and per language, so one number means the same in any scope. A question
about something no memory holds stands among its best memories where the best of that many
typical questions would: recall/relevance.py subtracts that chance level (background.chance).

The bank is embedded once per process and embedder model (for the default embedder its vectors
ship as data/question_bank.npz: tools/shipped_vectors.py). A memory's mean and spread against
the bank are computed once per vector and kept, so a recall costs its hits' cosines to the
question, and one product with the bank's rows for vectors it has not seen before
(bench/results/speed.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ..embed.shipped import PerModel, data_lines, load
from ..text.lang import EN, ZH, script

if TYPE_CHECKING:
    import numpy as np

KEPT = 65536   # memory vectors whose statistics against the bank are kept, per language
TEXTS = "data/question_bank.txt"
SHIPPED = "data/question_bank.npz"  # the default embedder's query vectors of TEXTS (float16)
MAIN_SHIPPED = "data/question_bank_main.npz"  # the same in its main model (``main_bank_for``)

EmbedQueries = Callable[[Sequence[str]], "np.ndarray"]
B = TypeVar("B")


@lru_cache(maxsize=1)
def questions() -> tuple[tuple[str, str], ...]:
    """(language, question) of every line of the bank."""
    return read_questions(TEXTS)


def read_questions(name: str) -> tuple[tuple[str, str], ...]:
    """(language, question) of every line of the data file ``name`` ("en<TAB>question"; "#"
    starts a comment)."""
    return data_lines(name, "\t")


class QuestionBank:
    """The bank's unit query vectors, per language."""

    def __init__(self, vectors: np.ndarray, languages: Sequence[str]) -> None:
        import numpy as np

        vectors = np.asarray(vectors, dtype=np.float32)
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        picked = np.array(languages)
        self.rows: dict[str, np.ndarray] = {}
        self.dims: dict[str, slice] = {}  # the positions a language's questions fill (a routed
        for lang in (EN, ZH):             # embedder fills one model's half): the rest is 0
            rows = vectors[picked == lang]
            used = np.flatnonzero(np.any(rows != 0, axis=0))
            span = slice(int(used[0]), int(used[-1]) + 1) if len(used) else slice(0, 0)
            self.dims[lang] = span
            self.rows[lang] = np.ascontiguousarray(rows[:, span])
        # a memory's mean cosine to the bank and its spread do not change between recalls:
        # kept per vector (by the hash of its bytes; dicts of numbers, which the garbage
        # collector does not walk)
        self._means: dict[str, dict[int, float]] = {EN: {}, ZH: {}}
        self._spreads: dict[str, dict[int, float]] = {EN: {}, ZH: {}}
        self._agreed: dict[tuple[int, str], float] = {}

    def standings(self, query: str, vector: np.ndarray,
                  memories: dict[str, np.ndarray]) -> dict[str, float]:
        """Each memory's standing for the question ``query`` (its vector ``vector``, as the
        dense leg embedded it): its cosine less its mean cosine to the bank's questions of the
        query's language, over their spread."""
        import numpy as np

        if not memories:
            return {}
        ids = list(memories)
        lang = script(query)
        span = self.dims[lang]
        rows = np.stack([memories[i][span] for i in ids]).astype(np.float32, copy=False)
        cos = rows @ np.asarray(vector[span], dtype=np.float32)
        mean, spread = self._typical(lang, rows)
        return dict(zip(ids, ((cos - mean) / spread).tolist(), strict=True))

    def mean_spread(self, other: QuestionBank, lang: str) -> float:
        """The spread by chance of the mean of this bank's standing and ``other``'s (the same
        questions in another model), in units of one model's (recall/background.py
        ``chance_spread``), from how far the two models agree on the pairs of the questions of
        ``lang`` (r 0.46 for the default's two models on the Chinese questions); kept."""
        from .background import chance_spread, pair_agreement

        key = (id(other), lang)
        if key not in self._agreed:
            self._agreed[key] = chance_spread(pair_agreement(self.rows[lang], other.rows[lang]))
        return self._agreed[key]

    def _typical(self, lang: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's mean cosine to the bank's questions of ``lang`` and their spread (at
        least 1e-6), computed once per vector."""
        import numpy as np

        means, spreads = self._means[lang], self._spreads[lang]
        keys = [hash(row.tobytes()) for row in rows]
        found = [(means.get(key), spreads.get(key)) for key in keys]
        missing = [i for i, (mean, spread) in enumerate(found) if mean is None or spread is None]
        if missing:
            typical = rows[missing] @ self.rows[lang].T
            computed = zip(typical.mean(axis=1).tolist(),
                           np.maximum(typical.std(axis=1), 1e-6).tolist(), strict=True)
            if len(means) + len(missing) > KEPT:
                means.clear()
                spreads.clear()
            for i, (mean, spread) in zip(missing, computed, strict=True):
                found[i] = (mean, spread)
                means[keys[i]], spreads[keys[i]] = mean, spread
        return (np.array([mean for mean, _ in found], dtype=np.float32),
                np.array([spread for _, spread in found], dtype=np.float32))


_BANKS: PerModel[QuestionBank] = PerModel()
_MAIN_BANKS: PerModel[QuestionBank] = PerModel()


def bank_for(embedder: Any, embed: EmbedQueries | None = None) -> QuestionBank | None:
    """The bank embedded by ``embedder`` as queries (once per process and model id), or None
    for an embedder without meaning (``lexical_only``). ``embed``: how to embed many queries,
    default the embedder's own ``embed_batch(texts, query=True)``."""
    if getattr(embedder, "lexical_only", False):
        return None
    return _embedded(embedder, _BANKS, SHIPPED, embed or (
        lambda texts: embedder.embed_batch(texts, query=True)))


def main_bank_for(embedder: Any) -> QuestionBank | None:
    """The bank's every question, whatever its language, embedded as a query by the main
    model of a routed embedder (its ``embed_main``: multilingual-e5 in the default), once per
    process and model id: what a Chinese question's standing is also read against
    (recall/pipeline.py ``_bank_standings``). None for an embedder of one model or without
    meaning."""
    embed = getattr(embedder, "embed_main_batch", None)
    if embed is None or getattr(embedder, "lexical_only", False):
        return None
    return _embedded(embedder, _MAIN_BANKS, MAIN_SHIPPED, embed)


def _embedded(embedder: Any, kept: PerModel[QuestionBank], shipped: str,
              embed: EmbedQueries) -> QuestionBank:
    """The bank's vectors shipped as ``shipped`` for this embedder's model, or ``embed``-ded
    on first use; once per process and model id, in ``kept``."""
    model = str(getattr(embedder, "model_id", ""))

    def build() -> QuestionBank:
        known = questions()
        vectors = load(shipped, TEXTS, model)
        if vectors is None:
            vectors = embed([text for _, text in known])
        return QuestionBank(vectors, [lang for lang, _ in known])

    return kept.get(model, build)


class Axes:
    """Per language, a direction in the questions' own model (the positions the bank's
    questions of that language fill: a routed embedder's one model) from one set of
    questions to another, and a reference set's mean and spread along it: how far a question
    stands toward one kind of question (recall/worldly.py, recall/earlier.py)."""

    def __init__(self, bank: QuestionBank) -> None:
        self.spans = bank.dims
        self.axes: dict[str, tuple[np.ndarray, float, float]] = {}

    def set(self, lang: str, toward: np.ndarray, away: np.ndarray,
            reference: np.ndarray) -> None:
        """The direction mean(``toward``) - mean(``away``) for ``lang``, standings measured
        above ``reference`` along it (rows already in the model's positions, unit length)."""
        from .background import axis

        self.axes[lang] = axis(toward, away, reference)

    def standing(self, vector: np.ndarray, lang: str) -> float:
        """How far a question (its query vector) stands along the direction of ``lang``, in
        the reference's spreads above its mean: -inf where it cannot be told."""
        from .background import in_model

        axis = self.axes.get(lang)
        if axis is None:
            return float("-inf")
        d, mean, spread = axis
        q = in_model(vector[None, :], self.spans[lang])[0]
        return (float(q @ d) - mean) / spread


def banked(embedder: Any, books: PerModel[B], build: Callable[[QuestionBank], B]) -> B | None:
    """What ``build`` makes of the question bank of ``embedder`` (once per process and model
    id, kept in ``books``), or None for an embedder without meaning."""
    bank = bank_for(embedder)   # embedded once per process, shared with recall
    if bank is None:
        return None
    return books.get(str(getattr(embedder, "model_id", "")), lambda: build(bank))

"""A scope's background in meaning, per model and per language: what a memory's similarity to a
query must be measured against before it can be said to stand out (recall/wakemeaning.py).

For each model of the embedder (the default pairs e5 and USE; each has its own cosine scale) and
each language of the scope's memories (a model ranks memories in the query's own language higher,
whatever they say), a sample of at most SAMPLE memories, spread evenly over the scope's history,
is kept with the spread of the cosines between them: a pair of memories in one scope is mostly a
pair of unrelated texts, so that spread is the model's spread for unrelated texts in this scope,
measured over thousands of pairs, where one query's similarities to a dozen memories would give
a noisy one. A query's own offset (e5 scores every memory higher for a query than for a
passage) is its mean similarity to the sample of that language. A memory's standing is the mean
of the models' standings, in units of what that mean spreads by chance: less than one model's
where the models disagree on unrelated pairs (``mean_spread``).

The background is computed once per scope and model and kept (the KEPT most recently used: at
most 400 rows of float32 each); it is computed again when the scope has grown or shrunk by more
than a tenth (REFRESH), so a recall costs one product of the query with the sample."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ..model import Scope
from ..store.protocol import Store
from ..text.lang import EN, ZH

SAMPLE = 200         # memories per language that make the background
MIN_BACKGROUND = 8   # memories of a language needed to tell its background at all
REFRESH = 0.1        # the share by which a scope may change before its background is redone
KEPT = 64            # backgrounds kept (scope x model), the least recently used dropped first
_LANGS = (ZH, EN)


@dataclass(frozen=True)
class ModelBackground:
    """One model's background in one scope: the sample's unit vectors per language (in that
    model's half of the vector), their ids, and the spread of the cosines between languages."""

    dims: np.ndarray                         # the vector's positions that are this model's
    sample: dict[str, np.ndarray]            # language -> rows, unit length in the model
    ids: dict[str, dict[str, int]]           # language -> id -> its row
    spread: dict[tuple[str, str], float]     # (language, language) -> std of pair cosines
    sizes: dict[str, int]                    # the scope's memories per language when computed
    agreed: dict[tuple[int, int, str], float] = field(default_factory=dict, compare=False)

    def counts(self, lang: str) -> int:
        return self.sizes.get(lang, 0)

    def agreement(self, other: ModelBackground, lang: str) -> float:
        """How far this model and ``other`` agree by chance: the correlation of their cosines
        over the pairs of the scope's sample of ``lang`` (the same memories in both), kept."""
        key = (int(other.dims[0]), len(other.dims), lang)
        if key not in self.agreed:
            self.agreed[key] = pair_agreement(self.sample[lang], other.sample[lang])
        return self.agreed[key]


def pair_agreement(x: np.ndarray, y: np.ndarray) -> float:
    """How far two models agree by chance on one set of texts (``x``, ``y``: the same texts'
    unit rows in each model): the correlation of their cosines over the texts' pairs; 0 where
    it cannot be told."""
    off = ~np.eye(len(x), dtype=bool)
    sx, sy = (x @ x.T)[off], (y @ y.T)[off]
    return float(np.corrcoef(sx, sy)[0, 1]) \
        if sx.size > 1 and sx.std() > 0 and sy.std() > 0 else 0.0


def chance_spread(r: float) -> float:
    """The spread by chance of the mean of two models' standings, in units of one model's,
    for models that agree by ``r``: sqrt((1 + r) / 2), the spread of the mean of two standard
    normals that correlate by r (a negative r counted as 0)."""
    return float(np.sqrt((1.0 + max(r, 0.0)) / 2.0))


def model_half(vector: np.ndarray) -> np.ndarray:
    """The positions of a query vector that hold its model (a routed query fills one half)."""
    return np.flatnonzero(vector)


def in_model(vectors: np.ndarray, dims: np.ndarray) -> np.ndarray:
    """Rows restricted to one model's positions, each of unit length there."""
    part = vectors[:, dims].astype(np.float32)
    norms = np.linalg.norm(part, axis=1, keepdims=True)
    return part / np.maximum(norms, np.float32(1e-12))


def axis(toward: np.ndarray, away: np.ndarray,
         reference: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The unit direction mean(``toward``) - mean(``away``), and the mean and spread (at least
    1e-6) of ``reference`` along it: a row's standing along it is (row . direction - mean) /
    spread (the changes against plain statements, recall/changemeaning.py; one kind of
    question against another, recall/questionbank.py ``Axes``)."""
    d = toward.mean(axis=0) - away.mean(axis=0)
    d /= max(float(np.linalg.norm(d)), 1e-12)
    along = reference @ d
    return d, float(along.mean()), max(float(along.std()), 1e-6)


def _spaced(ids: set[str], n: int) -> list[str]:
    """At most ``n`` of ``ids`` spread evenly over their (time-sortable) order."""
    ordered = sorted(ids)
    if len(ordered) <= n:
        return ordered
    step = len(ordered) / n
    return [ordered[int(i * step)] for i in range(n)]


def _spread(a: np.ndarray, b: np.ndarray, same: bool) -> float:
    sims = a @ b.T
    if same:
        sims = sims[~np.eye(len(a), dtype=bool)]
    return float(sims.std()) if sims.size else 0.0


class Backgrounds:
    """Each scope's background per model, kept and redone as the scope changes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[Scope, int, int], ModelBackground] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, scope: Scope, query: np.ndarray,
           languages: dict[str, set[str]]) -> ModelBackground | None:
        """The background of the model that ``query`` is in, for ``scope`` whose memories by
        language are ``languages``; None where no language has MIN_BACKGROUND memories."""
        dims = model_half(query)
        if not len(dims):
            return None
        key = (scope, int(dims[0]), len(dims))
        sizes = {lang: len(languages.get(lang, ())) for lang in _LANGS}
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or _changed(kept.sizes, sizes):
                kept = self._compute(scope, dims, languages, sizes)
                self._kept[key] = kept
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return kept if any(len(ids) >= MIN_BACKGROUND for ids in kept.ids.values()) else None

    def _compute(self, scope: Scope, dims: np.ndarray, languages: dict[str, set[str]],
                 sizes: dict[str, int]) -> ModelBackground:
        ids = {lang: _spaced(languages.get(lang, set()), SAMPLE) for lang in _LANGS}
        found = self.store.vectors(scope, [m for lang in _LANGS for m in ids[lang]])
        rows = {lang: [m for m in ids[lang] if m in found] for lang in _LANGS}
        sample = {lang: in_model(np.array([found[m] for m in rows[lang]]), dims)
                  if rows[lang] else np.zeros((0, len(dims))) for lang in _LANGS}
        spread = {(a, b): _spread(sample[a], sample[b], a == b)
                  if min(len(sample[a]), len(sample[b])) >= MIN_BACKGROUND else 0.0
                  for a in _LANGS for b in _LANGS}
        index = {lang: {m: i for i, m in enumerate(rows[lang])} for lang in _LANGS}
        return ModelBackground(dims, sample, index, spread, sizes)


def averaged(backgrounds: Backgrounds, scope: Scope, vectors: Sequence[np.ndarray],
             languages: dict[str, set[str]], asked: str,
             candidates: Sequence[tuple[str, str, np.ndarray]]) -> dict[str, float]:
    """Each candidate's (id, language, vector) standing for the query, one vector per model
    (``vectors``), averaged over the models that have a background for ``scope``: what one
    model finds by chance, the other seldom does. None for a candidate no model stands."""
    views, kept = [], []
    for v in vectors:
        bg = backgrounds.of(scope, v, languages)
        if bg is not None:
            views.append(standing(bg, v, asked, candidates))
            kept.append(bg)
    # the mean of two models' standings spreads less than one model's by chance: by
    # sqrt((1 + r) / 2), r their agreement on the scope's pairs; rescaled to one (per language,
    # once a query)
    spreads = {lang: mean_spread(kept, lang) for lang in {lang for _, lang, _ in candidates}}
    out = {}
    for mid, lang, _ in candidates:
        zs = [view[mid] for view in views if mid in view]
        if zs:
            out[mid] = sum(zs) / len(zs) / (spreads[lang] if len(zs) == len(kept) else 1.0)
    return out


def mean_spread(kept: Sequence[ModelBackground], lang: str) -> float:
    """The spread by chance of the mean of the models' standings for a memory of ``lang``,
    in units of one model's: sqrt((1 + r) / 2) for two models whose pair cosines over the
    scope's sample correlate by r (1 for one model, or where the samples differ)."""
    if len(kept) != 2:
        return 1.0
    a, b = kept
    if a.ids.get(lang, {}).keys() != b.ids.get(lang, {}).keys() \
            or len(a.ids.get(lang, {})) < MIN_BACKGROUND:
        return 1.0
    return chance_spread(a.agreement(b, lang))


def chance(n: int) -> float:
    """The standing the best of ``n`` unrelated memories reaches by chance: the normal
    quantile 1 - 1/(n + 1)."""
    return NormalDist().inv_cdf(1 - 1 / (max(n, 1) + 1))


def _changed(then: dict[str, int], now: dict[str, int]) -> bool:
    return any(abs(now[lang] - then.get(lang, 0)) > REFRESH * max(then.get(lang, 0), 1)
               for lang in now)


def standing(background: ModelBackground, query: np.ndarray, query_lang: str,
             candidates: Sequence[tuple[str, str, np.ndarray]]) -> dict[str, float]:
    """Each candidate's (id, language, vector) standing for ``query`` in this model: its cosine
    above the query's mean cosine over the rest of its language's sample, in deviations of
    the scope's pair cosines between the query's language and its own (its own language's,
    where the scope has none in the query's). None for a language whose sample is under
    MIN_BACKGROUND."""
    q = query[background.dims].astype(np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    sims = {lang: rows @ q for lang, rows in background.sample.items()}
    sums = {lang: float(v.sum()) for lang, v in sims.items()}
    if not candidates:
        return {}
    cosines = in_model(np.array([v for _, _, v in candidates]), background.dims) @ q
    out: dict[str, float] = {}
    for (mid, lang, _), cos in zip(candidates, cosines.tolist(), strict=True):
        row = background.ids[lang].get(mid)
        n = len(sims[lang]) - (row is not None)
        spread = background.spread[(query_lang, lang)] or background.spread[(lang, lang)]
        if n < MIN_BACKGROUND or spread <= 0:
            continue
        total = sums[lang] - (float(sims[lang][row]) if row is not None else 0.0)
        out[mid] = (cos - total / n) / spread
    return out

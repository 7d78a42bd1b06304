"""Waking by meaning: how far an archived memory stands out, for this query, from the rest of
its scope, and how much of the query's words it holds.

**Standing out.** The query is embedded by every model the embedder has (the default pairs e5
and USE; recall/crosslingual.py). For each model, the scope's BACKGROUND best memories (core and
archived together) are the background, taken per language (text/lang.py): a Chinese memory
is compared with the scope's Chinese memories, an English one with the English ones, since a
model ranks memories in the query's own language higher whatever they say. A memory's standing
is its z-score in its language's background, leaving itself out (in a small scope the answer
would otherwise raise the mean and the spread it is measured against), with the background
drawn toward the whole pool by PRIOR pseudo-memories (a language with three memories is no
background). The models' z-scores are averaged: what one model finds by chance, the other
seldom does. On the behaviour data's design half (bench/behaviours_half.py) an episode's
exact words stand at z 4.5-25, its paraphrase and its translation at 2-11, and questions on
nothing archived at most 3.8 (bench/results/wake.md).

**Words.** The share of the query's content words the memory's text holds, when it holds two of
them or more: the exact words of a faded episode wake it even where a small scope has no
background to stand out from."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model import Layer, Record, Scope
from ..store.protocol import Store
from ..text import tokenize
from ..text.lang import EN, ZH

BACKGROUND = 200      # the scope's best memories per model that make the background
MIN_BACKGROUND = 8    # memories of a language needed to tell its background at all
PRIOR = 0             # pseudo-memories of the whole pool in each language's background
MIN_Z = 4.0           # the standing that wakes a memory by meaning alone (a weak wake)
WORDS_Z = 1.5         # the standing that the query's words need beside them
MIN_WORDS = 2         # content words the memory must hold for a words cue
WORDS_SHARE = 2 / 3   # ... and this share of the query's content words
# the former rule, kept for a query that names one anchor and means the rest (recall/wake.py)
MIN_GAP = 0.06        # above the dense leg's mean
SPREADS = 2.0         # ... and this many of its deviations
MIN_COSINE = 0.6      # without a background

Languages = Callable[[], dict[str, set[str]]]


@dataclass(frozen=True)
class Cue:
    kind: str      # person | place | topic | time | meaning | words
    anchor: str    # the anchor named, the time window, or what the meaning and words are
    match: float   # how fully the cue holds, 0.5 to 1


@dataclass
class Meaning:
    """The query's vectors (computed on demand, once), the dense leg's similarities and the
    scope's memories by language."""

    vector: Callable[[], np.ndarray]
    dense: list[tuple[str, float]]
    embed: Callable[[str], np.ndarray] | None = None   # for the query less its named anchors
    vectors: Callable[[], list[np.ndarray]] | None = None   # the query in every model
    languages: Languages | None = None
    _z: dict[str, float] | None = field(default=None, repr=False)

    def standing(self, store: Store, scope: Scope) -> dict[str, float]:
        """Every archived candidate's z-score over the scope's background, averaged over the
        models; computed once per query."""
        if self._z is None:
            vectors = self.vectors() if self.vectors is not None else [self.vector()]
            langs = self.languages() if self.languages is not None else {}
            views = [_standouts(store.search_vector(scope, v, BACKGROUND,
                                                    (Layer.CORE, Layer.ARCHIVED)), langs)
                     for v in vectors]
            found = set().union(*views) if views else set()
            self._z = {mid: sum(v.get(mid, 0.0) for v in views) / len(views) for mid in found}
        return self._z

    def archived(self, store: Store, scope: Scope, depth: int) -> list[str]:
        """The archived memories nearest the query in meaning."""
        return [mid for mid, _ in
                store.search_vector(scope, self.vector(), depth, (Layer.ARCHIVED,))]

    def threshold(self) -> tuple[float, float]:
        """(the similarity a memory needs, the span from a half to a full match) for the
        meaning beyond a named anchor, over the dense leg's candidates."""
        if len(self.dense) < 3:
            return MIN_COSINE, 1.0 - MIN_COSINE
        sims = np.array([s for _, s in self.dense])
        gap = max(MIN_GAP, SPREADS * float(sims.std()))
        return float(sims.mean()) + gap, gap

    def beyond(self, store: Store, scope: Scope, memory_id: str, text: str,
               anchors: list[str]) -> Cue | None:
        """The "meaning" cue of what the query says besides the anchors it names ("that trip
        with Wang" less "Wang"): only that part may count as a second kind."""
        rest = text
        for anchor in anchors:
            rest = re.sub(re.escape(anchor), " ", rest, flags=re.IGNORECASE)
        words = " ".join(tokenize(rest))  # its content words: "that trip to" -> "trip"
        if self.embed is None or not words:
            return None
        vec = store.vectors(scope, [memory_id]).get(memory_id)
        if vec is None:
            return None
        cos = float(np.dot(self.embed(words), vec))
        need, span = self.threshold()
        if cos < need:
            return None
        return Cue("meaning", f"{words!r} ~ similarity {cos:.3f}",
                   round(min(0.5 + 0.5 * (cos - need) / span, 1.0), 4))


def meaning_cue(z: float) -> Cue | None:
    """The cue of a memory that stands out by ``z``: a half match at MIN_Z, full at twice."""
    if z < MIN_Z:
        return None
    return Cue("meaning", f"stands out by {z:.1f} deviations", round(min(z / (2 * MIN_Z), 1.0), 4))


def words_cue(record: Record, tokens: Sequence[str], z: float | None) -> Cue | None:
    """The cue of a memory that holds most of the query's content words, where it stands
    out a little in meaning too (``z``; None where its scope is too small to tell)."""
    asked = set(tokens)
    if not asked or z is not None and z < WORDS_Z:
        return None
    held = asked & set(tokenize(" ".join([record.content, *record.people, *record.places,
                                          *record.topics])))
    share = len(held) / len(asked)
    if len(held) < MIN_WORDS or share < WORDS_SHARE:
        return None
    return Cue("words", ", ".join(sorted(held)), round(share, 4))


def _standouts(found: list[tuple[str, float]], langs: dict[str, set[str]]) -> dict[str, float]:
    """Each candidate's z-score within its language, itself left out of the background,
    which is drawn toward the whole pool by PRIOR pseudo-memories; none for a language with
    fewer than MIN_BACKGROUND memories among the candidates."""
    if not found:
        return {}
    every = np.array([s for _, s in found], dtype=np.float64)
    pool_mean, pool_var = float(every.mean()), float(every.var())
    groups: dict[str, list[tuple[str, float]]] = {}
    for mid, score in found:
        lang = ZH if mid in langs.get(ZH, ()) else EN if mid in langs.get(EN, ()) else "?"
        groups.setdefault(lang, []).append((mid, score))
    out: dict[str, float] = {}
    for members in groups.values():
        if len(members) < MIN_BACKGROUND:
            continue
        scores = np.array([s for _, s in members], dtype=np.float64)
        n, total, squares = len(scores), scores.sum(), (scores * scores).sum()
        mean = ((total - scores) + PRIOR * pool_mean) / (n - 1 + PRIOR)
        second = ((squares - scores * scores) + PRIOR * (pool_var + pool_mean ** 2)) \
            / (n - 1 + PRIOR)
        spread = np.sqrt(np.maximum(second - mean * mean, 1e-6))
        for (mid, _), z in zip(members, (scores - mean) / spread, strict=True):
            out[mid] = float(z)
    return out

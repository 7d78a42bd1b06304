"""Waking by meaning: how far an archived memory stands out, for this query, from the rest of
its scope, and how much of the query's words it holds.

**Standing out.** The query is embedded by every model the embedder has (the default pairs e5
and USE; recall/crosslingual.py). For each model, the archived memories nearest the query are
the candidates, and each one's standing is how far its cosine stands above the query's mean
over the scope's memories of its language, in deviations of the cosines between the scope's own
memories (recall/background.py: per model and per language, computed once per scope and kept).
The models' standings are averaged: what one model finds by chance, the other seldom does. The
mean of two standings spreads less by chance than one does (by sqrt((1 + r) / 2), r the two
models' agreement over the scope's pairs: about 0.5 for e5 and USE), so it is rescaled to one
model's spread before it is compared with chance (recall/background.py, ``mean_spread``).

A memory wakes by meaning alone when it stands above what the best of the scope's unrelated
memories would reach by chance: the standing one in n memories of its language reaches at
random, the normal quantile 1 - 1/(n + 1), plus MARGIN. It grows with the scope (1.4 for a
dozen memories, 2.3 for a hundred, 3.1 for a thousand), so a large scope does not wake
something for every question. Such a wake is weak: shown and not promoted
(recall/wake.py). On the behaviour data's design half (bench/behaviours_half.py,
bench/results/wake.md), where 1.9 wakes, the episodes' exact words stand at 4.6-6.4, their
paraphrases and translations at 0.9-4.2, the wake file's control questions at most 1.4, and
the relevance file's off-topic ones at most 1.9 but for two that share a topic with an
episode (car insurance and a towed car, 2.05; a cat's food and a stray cat's litter, 3.2).

**Against the question bank.** A cue asked as a question ("Do you remember when ...?",
"还记得...吗？") crowds its cosines to every memory together: its frame is what they all meet,
so the memory it means stands less far out of the scope. The memory's standing against the
question bank (recall/questionbank.py: its cosine to this question less its mean cosine to
typical questions of the question's language, over their spread; what relevance reads)
cancels the frame: typical questions share it. For a memory in the question's language (the
bank's questions are in it; read for the other language's memories too, it lifted the wrong
episodes for cues in the other language), that standing, less BANK_SHIFT (it runs higher than
a standing in the scope: the bank's questions are unlike any one memory, the scope's memories
alike), stands for the memory's standing in the scope where it is higher, by at most LIFT: it
lifts a memory that stands out a little, it cannot wake one that does not
(bench/results/wake.md, thirteenth session).

**Not an episode, for a question about the world.** "How do I get red wine out of a carpet?"
stands out toward the faded episode of a spilt glass at a party as far as a cue of it would,
the scope holding nothing else about carpets. A query that stands toward the world's questions
from the cues of one's own episodes and from one's own questions (recall/worldly.py
``wakes_nothing``) wakes no episode by meaning alone (recall/wake.py).

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
from ..text import is_cjk, tokenize
from ..text.lang import EN, ZH
from .background import Backgrounds, averaged, chance

CANDIDATES = 20       # archived memories nearest the query, per model, whose standing is read
MARGIN = 0.5          # standing above the best one chance match among n would reach
BANK_SHIFT = 1.5      # a standing against the question bank, less this, is one in the scope
LIFT = 1.0            # ... and lifts the scope's standing by at most this
WORDS_Z = 1.0         # the standing that the query's words need beside them
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
    backgrounds: Backgrounds | None = None   # the scope's background, kept between queries
    text: str = ""                          # the query, for its language
    layers: tuple[Layer, ...] = (Layer.ARCHIVED,)   # where the candidates sleep (+ cold)
    # memory id -> vector, to each memory's standing against the question bank, if any
    bank: Callable[[dict[str, np.ndarray]], dict[str, float]] | None = None
    # does the query ask about the world, not call up an episode (recall/worldly.py), if known
    worldly: Callable[[], bool] | None = None
    _z: dict[str, tuple[float, float]] | None = field(default=None, repr=False)
    _near: dict[bytes, list[str]] = field(default_factory=dict, repr=False)

    def nearest(self, store: Store, scope: Scope, vector: np.ndarray) -> list[str]:
        """The CANDIDATES archived memories nearest ``vector``, searched once per query."""
        key = vector.tobytes()
        if key not in self._near:
            self._near[key] = [mid for mid, _ in store.search_vector(
                scope, vector, CANDIDATES, self.layers)]
        return self._near[key]

    def standing(self, store: Store, scope: Scope) -> dict[str, tuple[float, float]]:
        """Every archived candidate's (standing, the standing that wakes it), its standing
        averaged over the models; computed once per query. Empty where no model has a
        background for the scope (recall/background.py)."""
        if self._z is None:
            self._z = self._standing(store, scope)
        return self._z

    def _standing(self, store: Store, scope: Scope) -> dict[str, tuple[float, float]]:
        if self.backgrounds is None:
            return {}
        vectors = self.vectors() if self.vectors is not None else [self.vector()]
        langs = self.languages() if self.languages is not None else {}
        ids = list(dict.fromkeys(mid for v in vectors for mid in self.nearest(store, scope, v)))
        found = store.vectors(scope, ids)
        of = {mid: ZH if mid in langs.get(ZH, ()) else EN for mid in found}
        candidates = [(mid, of[mid], found[mid]) for mid in ids if mid in found]
        asked = ZH if self.text and is_cjk(self.text) else EN
        z = averaged(self.backgrounds, scope, vectors, langs, asked, candidates)
        if self.bank is not None and z:
            banked = self.bank({mid: v for mid, lang, v in candidates
                                if mid in z and lang == asked})
            z = {**z, **lift(z, banked)}
        return {mid: (z[mid], wake_at(len(langs.get(lang, ()))))
                for mid, lang, _ in candidates if mid in z}

    def about_world(self) -> bool:
        """The query asks about the world (recall/worldly.py ``wakes_nothing``)."""
        return self.worldly is not None and self.worldly()

    def archived(self, store: Store, scope: Scope, depth: int) -> list[str]:
        """The ``depth`` (at most CANDIDATES) archived memories nearest the query in meaning."""
        return self.nearest(store, scope, self.vector())[:depth]

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


def lift(standing: dict[str, float], banked: dict[str, float]) -> dict[str, float]:
    """The standings in the scope that a standing against the question bank (``banked``)
    lifts: to that standing less BANK_SHIFT, by at most LIFT."""
    out = {}
    for mid, z in standing.items():
        if mid in banked:
            up = min(banked[mid] - BANK_SHIFT, z + LIFT)
            if up > z:
                out[mid] = up
    return out


def wake_at(n: int) -> float:
    """The standing that wakes a memory by meaning alone among ``n`` memories of its
    language: above the best that one of them would reach by chance."""
    return chance(n) + MARGIN


def meaning_cue(z: float, at: float) -> Cue | None:
    """The cue of a memory that stands out by ``z`` where ``at`` wakes it: a half match at
    ``at``, full at twice."""
    if z < at:
        return None
    return Cue("meaning", f"stands out by {z:.1f} deviations", round(min(z / (2 * at), 1.0), 4))


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

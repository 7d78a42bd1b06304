"""Two statements about the same thing in other words, judged by meaning against what people
say: the frame recall/conflicts.py asks for where two statements share no word ("I rent a flat
in Shoreditch." / "Just moved into a house in Walthamstow.", 我的家庭医生是李医生 /
现在换成王医生给我看病了).

A model's cosine between two statements says little on its own (e5 gives unrelated English
statements ~0.8, USE unrelated Chinese ones ~0.3), and the behaviour files' scopes hold two or
three memories, too few for a background of their own. So each statement's cosine to the other
is read against its cosines to the kind examples of its language (data/kind_examples.txt: a few
hundred things users say, in many domains, written without reading any evaluation data, shipped
with the default embedder's vectors; write/kindvote.py), in the question's own model half:

    standing = mean over the two of (cos(x, y) - mean cos(x, examples)) / spread

Two statements that stand STANDING or more above what the examples meet say something alike:
more alike than all but a few of the examples are to either. The number is the examples'
spread, the same for every model and language; an embedder that reads words, not meaning
(the hashing one), gives no standing. bench/results/conflicts.md has what it buys."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..model import Record
from ..text import is_cjk
from .background import in_model, model_half

STANDING = 2.5   # spreads above the examples' mean that two statements must stand

Vectors = Callable[[Sequence[str]], dict[str, np.ndarray]]   # stored vectors by id
Examples = Callable[[bool], "np.ndarray | None"]   # the examples' rows in Chinese or not


class MeaningFrame:
    """Whether two stored memories say something alike, for one question: ``query`` is its
    vector (its non-zero positions are its model's), ``vectors`` reads stored vectors by id,
    ``examples`` gives the examples' vectors of a script (write/kindvote.py ``vectors_for``).
    One per recall: each pair's standing is read once, whatever bar asks it (the conflicts
    net's STANDING, or recall/nearpair.py's own through ``at``)."""

    def __init__(self, query: np.ndarray | None, vectors: Vectors, examples: Examples) -> None:
        self.dims = model_half(query) if query is not None else np.zeros(0, dtype=int)
        self.vectors = vectors
        self.examples = examples
        self._seen: dict[tuple[str, str], float] = {}
        self._rows: dict[bool, np.ndarray | None] = {}  # the examples in the model, by script

    def __call__(self, old: Record, new: Record) -> bool:
        return self.standing(old, new) >= STANDING

    def at(self, bar: float) -> Callable[[Record, Record], bool]:
        """The same reading with another bar."""
        return lambda old, new: self.standing(old, new) >= bar

    def standing(self, old: Record, new: Record) -> float:
        """The two memories' cosine above what each meets among the examples of its script,
        in the spreads of those (the mean of the two); -inf where it cannot be told."""
        key = (old.id, new.id)
        if key not in self._seen:
            self._seen[key] = self._standing(old, new)
        return self._seen[key]

    def _standing(self, old: Record, new: Record) -> float:
        cjk = is_cjk(old.content)
        if not len(self.dims) or is_cjk(new.content) != cjk:
            return float("-inf")
        rows = self._examples_of(cjk)
        found = self.vectors([old.id, new.id])
        if rows is None or old.id not in found or new.id not in found:
            return float("-inf")
        x, y = in_model(np.array([found[old.id], found[new.id]]), self.dims)
        sims = rows @ np.array([x, y]).T
        spread = sims.std(axis=0)
        if (spread <= 0).any():
            return float("-inf")
        return float((((x @ y) - sims.mean(axis=0)) / spread).mean())

    def _examples_of(self, cjk: bool) -> np.ndarray | None:
        """The examples of a script in the question's model, unit length there (once per
        recall, whatever the pairs read)."""
        if cjk not in self._rows:
            book = self.examples(cjk)
            self._rows[cjk] = in_model(book, self.dims) if book is not None and len(book) \
                else None
        return self._rows[cjk]

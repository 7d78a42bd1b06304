"""A change said in any words, read by meaning: what recall/conflicts.py asks of a newer
statement when it holds no change word ("Landlord renewed the lease at ...", "turns out I'm a
10", 私教又换人了).

The examples (data/change_examples.txt: changes and plain statements users say, in many domains,
written without reading any evaluation data) give, in each model and script, a direction: the
mean of the changes less the mean of the plain statements (a passing exception, a plan and a past
story count as plain). A statement's standing is how far its vector lies along that direction
above the plain examples, in their spread, averaged over the models the vector holds (the default
embedder's two halves):

    standing = mean over models of (v . direction - mean(plain . direction)) / spread(plain)

The plain examples include long statements full of names ("I work for Halden Logistics at their
Rotterdam depot"): with short ones alone, the direction also read length and names as change.

A correction of what was said before ("I had that wrong, ...", "更正一下：...") is a change too,
but said unlike the rest: a mean over both kinds leans less toward either (with the corrections
among the changes, 1 update chain of the design sets' 481 came right and 3 went wrong). So the
corrections give a direction of their own (label ``correction``), read from the plain examples
and from plain statements written to look like corrections ("I'm not a morning person", "My son
keeps correcting my French": label ``lookalike``, not read by the change direction, which lost
a chain with them); a statement's standing is the higher of the two.

The newer of two statements says a change when it stands STANDING or more: set on the design sets
(bench/results/conflicts.md); an embedder that reads words, not meaning (the hashing one), gives
no standing. The net (recall/conflicts.py) asks it of a remembered statement, and of a turn of
a conversation along the corrections' direction only: a turn's story reads as a change (on LoCoMo
through ingest, reading turns along both cost R@1 0.431 -> 0.427), a correction seldom is one
(along it alone, LoCoMo's figures are unchanged and 4 more of the design sets' chains said
through ingest come right)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..embed.shipped import PerModel, data_lines, load
from ..model import Record
from ..text import is_cjk
from .background import axis, in_model
from .conflicts import said_in_chat

if TYPE_CHECKING:
    import numpy as np

EXAMPLES = "data/change_examples.txt"
SHIPPED = "data/change_examples.npz"   # the default embedder's vectors of EXAMPLES (float16)
CHANGE = "change"
CORRECTION = "correction"
PLAIN = "plain"
LOOKALIKE = "lookalike"   # plain, written to look like a correction: the corrections' plain only
# each label that gives a direction, and the labels of the plain examples it is read from
TOWARD = {CHANGE: (PLAIN,), CORRECTION: (PLAIN, LOOKALIKE)}
STANDING = 2.5   # spreads above the plain examples the newer must stand

Vectors = Callable[[Sequence[str]], dict[str, "np.ndarray"]]   # stored vectors by id


@lru_cache(maxsize=1)
def examples() -> tuple[tuple[str, str], ...]:
    """(sentence, label) of every example line ("label | sentence"; "#": a comment): a label
    of TOWARD, PLAIN or LOOKALIKE."""
    return tuple((text, label) for label, text in data_lines(EXAMPLES, "|"))


def parts_of(embedder: Any) -> list[slice]:
    """The positions of each model in ``embedder``'s vectors: the two halves of a routed
    embedder (embed/routed.py), or the whole vector."""
    main = getattr(embedder, "main", None)
    split = getattr(main, "dimensions", None)
    total = int(embedder.dimensions)
    if isinstance(split, int) and 0 < split < total:
        return [slice(0, split), slice(split, total)]
    return [slice(0, total)]


class ChangeBook:
    """Per script, per label of TOWARD and per model: the direction from plain statements to
    that label's, and the plain examples' mean and spread along it."""

    def __init__(self, vectors: np.ndarray, labels: Sequence[str], cjk: Sequence[bool],
                 parts: list[slice]) -> None:
        import numpy as np

        rows = np.asarray(vectors, dtype=np.float32)
        label, script = np.array(labels), np.array(cjk, dtype=bool)
        self.parts = parts
        self.axes: dict[bool, dict[str, list[tuple[np.ndarray, float, float]]]] = {}
        for zh in (False, True):
            mine = script == zh
            for toward, away in TOWARD.items():
                plain, said = mine & np.isin(label, away), mine & (label == toward)
                if not said.any() or not plain.any():
                    continue
                axes = []
                for part in parts:
                    base = in_model(rows[plain], part)
                    axes.append(axis(in_model(rows[said], part), base, base))
                self.axes.setdefault(zh, {})[toward] = axes

    def standing(self, vector: np.ndarray, cjk: bool) -> float:
        """How far ``vector`` (a stored memory's) stands along a direction of its script above
        its plain examples, the higher of the directions: -inf where it cannot be told."""
        return max(self.along(vector, cjk).values(), default=float("-inf"))

    def along(self, vector: np.ndarray, cjk: bool) -> dict[str, float]:
        """Its standing along each direction of its script (by label; none where the script
        has no examples), averaged over the models."""
        out = {}
        for toward, axes in self.axes.get(cjk, {}).items():
            stood = 0.0
            for part, (d, mean, spread) in zip(self.parts, axes, strict=True):
                x = in_model(vector[None, :], part)[0]
                stood += (float(x @ d) - mean) / spread
            out[toward] = stood / len(axes)
        return out


_BOOKS: PerModel[ChangeBook] = PerModel()


def book_for(embedder: Any) -> ChangeBook | None:
    """The examples read by ``embedder`` (once per process and model id; the default
    embedder's vectors ship), or None for an embedder without meaning."""
    if getattr(embedder, "lexical_only", False):
        return None
    model = str(getattr(embedder, "model_id", ""))

    def build() -> ChangeBook:
        known = examples()
        texts = [text for text, _ in known]
        vectors = load(SHIPPED, EXAMPLES, model)
        if vectors is None:
            vectors = embedder.embed_batch(texts)
        return ChangeBook(vectors, [label for _, label in known], [is_cjk(t) for t in texts],
                          parts_of(embedder))

    return _BOOKS.get(model, build)


class ChangeMeaning:
    """Whether the newer of two stored memories says a change, for one recall (each memory's
    standings read once; ``book`` asked only when a pair gets this far). A turn of a
    conversation says a change only as a correction (the corrections' direction alone)."""

    def __init__(self, vectors: Vectors, book: Callable[[], ChangeBook | None]) -> None:
        self.vectors = vectors
        self.book = book
        self._along: dict[str, dict[str, float]] = {}

    def __call__(self, old: Record, new: Record) -> bool:
        along = self.along(new)
        if said_in_chat(new):
            along = {CORRECTION: along.get(CORRECTION, float("-inf"))}
        return max(along.values(), default=float("-inf")) >= STANDING

    def along(self, rec: Record) -> dict[str, float]:
        if rec.id not in self._along:
            book = self.book()
            found = self.vectors([rec.id]).get(rec.id) if book is not None else None
            self._along[rec.id] = {} if book is None or found is None \
                else book.along(found, is_cjk(rec.content))
        return self._along[rec.id]

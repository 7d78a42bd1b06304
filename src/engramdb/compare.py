"""The two comparisons a user may plug in (registry.py), and how the engine calls them.

- A **similarity function** ``fn(a: Compared, b: Compared) -> float`` says how alike two
  memories are in meaning, on the cosine's scale (1: the same meaning; the write guard's
  near-duplicate bar is 0.9, write/supersede.py). Each side carries its record (``.text``,
  ``.record``) and its unit vector (``.vector``). The engine asks it where it compares two
  memories' meaning to dedupe, merge or supersede: the write guard's neighbours
  (write/supersede.py: near-duplicates, the shape and ended-value rules) and the sleep's merge
  pass (dynamics/merge.py). The candidates are still found by the store's vector search; the
  function decides how alike each is. Built-in: ``cosine``, the dot product of the two unit
  vectors (what the store computes, so it is not asked again).
- A **conflict function** ``fn(old: Record, new: Record) -> bool`` says whether ``new``, said
  later, states another value of what ``old`` states. Recall asks it of the top hits to place
  the newer of a pair first (recall/conflicts.py ``order_conflicts``); at write, a new fact,
  preference or identity supersedes the nearest current one of those kinds it conflicts with
  (rule ``conflict_function``), after the slot rules and before the shape rules. Built-in:
  ``statements``, recall/conflicts.py's reading of the two texts (values, subject, frame, a
  change said); at write it is not asked, since the slot and shape rules decide what it
  decides there (``register_conflict(..., at_write=False)``).

Config ``similarity`` / ``conflict`` (``ENGRAMDB_SIMILARITY`` / ``ENGRAMDB_CONFLICT``) name
them. A name not registered is a ConfigError listing the names there are; a function that
raises, or returns something else than a number from -1 to 1 (similarity) or a bool
(conflict), is a ConfigError naming it, and the write it was asked for writes nothing."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, EngramError

if TYPE_CHECKING:
    import numpy as np

    from .model import Record

DEFAULT_SIMILARITY = "cosine"
DEFAULT_CONFLICT = "statements"
SLACK = 1e-6   # a float's rounding past 1 (a vector with itself) is still 1


@dataclass(frozen=True)
class Compared:
    """One side of a similarity: the memory and its unit vector."""

    record: Record
    vector: np.ndarray

    @property
    def text(self) -> str:
        return self.record.content


Similarity = Callable[[Compared, Compared], float]
ConflictFn = Callable[["Record", "Record"], bool]


def cosine(a: Compared, b: Compared) -> float:
    """The cosine of two unit vectors: their dot product."""
    return float(a.vector @ b.vector)


@dataclass(frozen=True)
class Comparers:
    """The similarity and conflict functions a Memory was opened with."""

    similarity_name: str = DEFAULT_SIMILARITY
    similarity_fn: Similarity = cosine
    conflict_name: str = DEFAULT_CONFLICT
    conflict_fn: ConflictFn | None = None   # None: recall's own (recall/conflicts.py)
    conflict_at_write: bool = False

    @property
    def custom_similarity(self) -> bool:
        """Not the store's own cosine: the engine asks the function for each pair."""
        return self.similarity_fn is not cosine

    @property
    def wide(self) -> bool:
        """The write guard reads every near neighbour (not only the nearest by cosine) for a
        registered function to judge."""
        return self.custom_similarity or self.conflict_at_write

    def similar(self, a: Compared, b: Compared) -> float:
        if not self.custom_similarity:
            return cosine(a, b)
        value = _call(self.similarity_fn, "similarity", self.similarity_name, a, b)
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or not -1.0 - SLACK <= value <= 1.0 + SLACK:
            raise ConfigError(f"similarity function {self.similarity_name!r} returned "
                              f"{value!r}: a number from -1 to 1 is needed")
        return min(max(float(value), -1.0), 1.0)

    def conflicts(self, old: Record, new: Record) -> bool:
        if self.conflict_fn is None:
            raise ConfigError("no conflict function was given")
        value = _call(self.conflict_fn, "conflict", self.conflict_name, old, new)
        if not isinstance(value, bool):
            raise ConfigError(f"conflict function {self.conflict_name!r} returned {value!r}: "
                              f"True or False is needed")
        return value


def _call(fn: Callable[..., Any], what: str, name: str, *args: Any) -> Any:
    try:
        return fn(*args)
    except EngramError:
        raise
    except Exception as exc:  # a plug-in's own failure: named, never a bare traceback
        raise ConfigError(f"{what} function {name!r} failed: "
                          f"{type(exc).__name__}: {exc}") from exc


DEFAULT = Comparers()

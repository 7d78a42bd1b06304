"""FTS5's bm25() (fts5_aux.c), the one formula the text rankings outside SQLite's own bm25() use:
the SQLite and PostgreSQL text indexes, PostgreSQL's text ranking and the cold tier."""

from __future__ import annotations

import math

K1 = 1.2
B = 0.75


def idf(rows: float, hits: float) -> float:
    """The idf of a term that ``hits`` of ``rows`` rows hold, log((rows - hits + 0.5) /
    (hits + 0.5)), and 1e-6 where that is not positive (a term in half the rows or more). A hit
    count above the row total (the two read a commit apart, another connection writing) is
    such a term too, not the log of a negative number."""
    ratio = (rows - hits + 0.5) / (hits + 0.5)
    return math.log(ratio) if ratio > 1.0 else 1e-6

"""Two current statements among the top hits that say something alike (a near miss the write
path kept apart: two subjects, two attributes of one subject, a fact and an exception): which
of them is the question about? Both hold the question's words alike (their lexical coverage,
recall/relevance.py, within TIE of each other), so fusion and re-ranking tie them and the
order falls to strength or recency; meaning can tell them apart.

The two statements differ in a direction: x - y, their vectors in the question's own model
(its half of a routed vector: e5 for English, USE for Chinese). How far the question leans
toward x along that line, q . (x - y) / |x - y| (from -1 to 1), is read there: the question's
offset (e5 scores every memory higher for a query) and what the two share cancel out, and
what is left is what sets them apart ("我女儿" against "我", "在哪里" against "几点"). The one
the question leans toward by at least MIN_LEAN ranks first.

A pair is read only when both are facts, preferences or identities, current, in the
question's script, and share a word or value besides their subjects' names
(recall/conflicts.py ``same_frame``). Only the top TOP hits are read, with one store read of
their vectors when such a pair is there and no model call; a pair of values
recall/conflicts.py finds conflicting is ordered by it after this (the newer first for a
question about now). bench/results/restated.md has what it buys."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..model import Hit, Kind
from ..text import is_cjk
from ..write.align import COPULAS
from ..write.reading import Reading, read
from .background import in_model, model_half
from .conflicts import read as statement
from .conflicts import same_frame

TOP = 4                  # hits read for near pairs
TIE = 0.05               # lexical coverages closer than this weigh the question's words alike
MIN_LEAN = 0.05          # the question's lean toward one of the two that decides
KINDS = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.IDENTITY})
NOTE = "near miss"

Vectors = Callable[[Sequence[str]], dict[str, np.ndarray]]


def order_near(hits: list[Hit], query: str, mode: str, vector: np.ndarray | None,
               vectors: Vectors) -> list[tuple[Hit, Hit, float]]:
    """Move, within the top TOP hits, the one of each near pair the question ``query``
    (embedded as ``vector``) leans toward just above the other; ``vectors`` reads stored
    vectors by id. Returns (moved up, moved down, lean) for each move; both hits say so in
    their notes and ``near_lean`` term."""
    if vector is None or len(hits) < 2:
        return []
    top = hits[:TOP]
    asked = is_cjk(query)
    read = [h for h in top if h.memory.kind in KINDS and h.memory.invalid_at is None
            and is_cjk(h.memory.content) == asked]
    pairs = [(x, y) for i, x in enumerate(read) for y in read[i + 1:] if _near(x, y)]
    if not pairs:
        return []
    leans = _leans(vector, vectors(list({h.memory.id: 0 for p in pairs for h in p})))
    asks = asked_of(query)
    moved: list[tuple[Hit, Hit, float]] = []
    for _ in range(len(pairs)):
        swap = None
        for x, y in pairs:
            upper, lower = (x, y) if top.index(x) < top.index(y) else (y, x)
            lean = leans.get((lower.memory.id, upper.memory.id), 0.0)
            if asks is not None and _whose(asks, lower, upper):
                swap = (lower, upper, lean)
                break
            if asks is not None and _whose(asks, upper, lower):
                continue
            if lean >= MIN_LEAN and _alike(lower, upper) \
                    and (_in_time(lower, upper, mode) or _apart(lower, upper)):
                swap = (lower, upper, lean)
                break
        if swap is None:
            break
        lower, upper, lean = swap
        top.insert(top.index(upper), top.pop(top.index(lower)))
        moved.append(swap)
    hits[:TOP] = top
    for up, down, lean in moved:
        up.explanation.terms["near_lean"] = round(lean, 4)
        up.explanation.notes.append(f"{NOTE}: the question is about it rather than "
                                    f"[{down.memory.id}] (lean {lean:.2f} toward it)")
        down.explanation.notes.append(f"{NOTE}: [{up.memory.id}] says something alike that "
                                      "the question is about")
    return moved


PEOPLE = frozenset({"user", "person"})


def asked_of(query: str) -> Reading | None:
    """The question read as a statement (write/reading.py), when its subject is the user or
    a person; in English what follows its first auxiliary ("Where do my parents live?" ->
    "my parents live?"), the words before it being what is asked."""
    if not is_cjk(query):
        toks = query.split()
        at = next((i for i, w in enumerate(toks) if w.lower() in COPULAS), None)
        if at is None:
            return None
        query = " ".join(toks[at + 1:])
    found = read(query)
    return found if found.subject.kind in PEOPLE else None


def _whose(asks: Reading, x: Hit, y: Hit) -> bool:
    """The question asks about ``x``'s subject and not ``y``'s, both people (the user, "my
    parents", 我女儿, a name): "我住在哪里？" is not about "我爸妈住在绍兴"."""
    rx, ry = read(x.memory.content), read(y.memory.content)
    if rx.subject.kind not in PEOPLE or ry.subject.kind not in PEOPLE:
        return False
    return not asks.apart_from(rx) and asks.apart_from(ry)


def _in_time(up: Hit, down: Hit, mode: str) -> bool:
    """Lifting ``up`` over ``down`` keeps time's order: the newer first, or for a question
    about the past (recall/temporal.py's routing, ``mode``) the older."""
    newer = (up.memory.at, up.memory.id) > (down.memory.at, down.memory.id)
    return newer != (mode == "past")


def _near(x: Hit, y: Hit) -> bool:
    """Two statements that the question's words weigh alike."""
    cx, cy = x.explanation.terms.get("coverage"), y.explanation.terms.get("coverage")
    return cx is not None and cy is not None and abs(cx - cy) < TIE


def _alike(x: Hit, y: Hit) -> bool:
    """They share a word or value besides their subjects' names."""
    return same_frame(statement(x.memory.content), statement(y.memory.content))


def _apart(x: Hit, y: Hit) -> bool:
    """Two facts for the write path's reading (write/reading.py): two subjects ("我" /
    "我女儿"), or two moods (a fact and a plan, a past story, a passing exception, one more
    item). Else the two may be one fact said again with another value, which time orders."""
    rx, ry = read(x.memory.content), read(y.memory.content)
    return rx.apart_from(ry) or ry.apart_from(rx)


def _leans(query: np.ndarray, found: dict[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """For each two memories x, y: how far the question leans toward x along the line from y
    to x in the question's own model, q . (x - y) / |x - y|, from -1 to 1."""
    dims = model_half(query)
    if not len(dims) or len(found) < 2:
        return {}
    ids = list(found)
    rows = in_model(np.array([found[m] for m in ids]), dims)
    q = query[dims].astype(np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    out = {}
    for i, x in enumerate(ids):
        for j, y in enumerate(ids):
            gap = float(np.linalg.norm(rows[i] - rows[j]))
            if i != j and gap > 1e-6:
                out[(x, y)] = float(q @ (rows[i] - rows[j])) / gap
    return out

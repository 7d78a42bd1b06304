"""Spreading activation: a recall's hits activate what they are linked to (personalised PageRank).

Seeds are the direct hits (their scores, normalised, are the personalisation vector). The graph
(recall/concepts.py) holds memories, the concepts they name and their links. Each step, every
memory keeps ``1 - DAMPING`` of its seed share and passes ``DAMPING`` of its activation along
its edges: a link passes its weight, a concept ``CONCEPT_WEIGHT`` split evenly over the
concept's members; a memory whose edges weigh more than 1 in all splits by their sum, one whose
edges weigh less keeps the rest out of the graph (so a 0.1 link passes a tenth). At most
``MAX_ITERATIONS`` steps, stopping when the activations change by under ``TOLERANCE`` (L1); the
same graph gives the same activations (plain float64 sums in a fixed node order).

An associated memory (not a seed) is offered as a hit when its activation is at least
``FLOOR`` of the strongest seed's. Its score is its activation in the units of the direct
scores (``activation * sum(seed scores) / (1 - DAMPING)``: an isolated seed would get its own
score back) times the preset's ``assoc_weight``; it carries the activation and the edges that
brought it in the explanation. At most ``preset.assoc_slots`` of the k hits are associated,
and they pass the same filters as direct hits (the caller's ``allowed``). An archived memory
reached through a link is woken; at ``STRONG`` of the strongest seed's activation it is
promoted back to core by a tracked recall.

Co-activation (Hebbian): a tracked recall strengthens the ``associated`` link between each two
of its top ``HEBB_TOP`` hits, both ways, by ``HEBB_STEP`` up to ``HEBB_CAP``, at most once a
``HEBB_DEBOUNCE_S`` per link (``hebbian_pairs``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from ..model import Explanation, Hit, Layer, LegScore, Record, Scope
from ..store.protocol import Store
from .concepts import Graph, build
from .presets import Preset
from .reading import read_many

DAMPING = 0.5
MAX_ITERATIONS = 20
TOLERANCE = 1e-6
CONCEPT_WEIGHT = 1.0
FLOOR = 0.1
STRONG = 0.3
MAX_SEEDS = 10
HEBB_TOP = 3
HEBB_STEP = 0.05
HEBB_CAP = 1.0
HEBB_DEBOUNCE_S = 60.0


@dataclass
class Activation:
    """Activations of a graph's memories, and what each one received from each neighbour."""

    order: list[str]
    values: np.ndarray
    iterations: int
    matrix: np.ndarray | None = None   # the transition it spread through (for the traces)

    def of(self, memory_id: str) -> float:
        return float(self.values[self.order.index(memory_id)])


def spread(graph: Graph, seeds: dict[str, float], damping: float = DAMPING,
           max_iterations: int = MAX_ITERATIONS, tolerance: float = TOLERANCE) -> Activation:
    """Personalised PageRank over the graph's memories; ``seeds``: id -> personalisation."""
    order = list(graph.nodes)
    index = {mid: i for i, mid in enumerate(order)}
    n = len(order)
    p = np.zeros(n)
    total = sum(seeds.values())
    for mid, share in seeds.items():
        if mid in index and total > 0:
            p[index[mid]] = share / total
    matrix = transition(graph, order, index)
    act = p.copy()
    steps = 0
    for steps in range(1, max_iterations + 1):  # noqa: B007 - the count is reported
        new = (1.0 - damping) * p + damping * (matrix.T @ act)
        change = float(np.abs(new - act).sum())
        act = new
        if change < tolerance:
            break
    return Activation(order, act, steps, matrix)


def transition(graph: Graph, order: list[str], index: dict[str, int]) -> np.ndarray:
    """Row u: the share of u's activation each memory receives in one step (its links'
    weights and ``CONCEPT_WEIGHT`` / fan for each concept it shares, divided by its total
    out-weight where that is over 1)."""
    matrix = np.zeros((len(order), len(order)))
    concepts = _concept_counts(graph)
    norm = np.array([max(1.0, graph.link_weight.get(mid, 0.0) + CONCEPT_WEIGHT
                         * concepts.get(mid, 0)) for mid in order])
    for mid, edges in graph.edges.items():
        u = index.get(mid)
        if u is None:
            continue
        for edge in edges:
            v = index.get(edge.target)
            if v is not None:
                matrix[u, v] += edge.weight
    for name, members in graph.concept_members.items():
        at = np.array([index[mid] for mid in members], dtype=np.intp)
        share = CONCEPT_WEIGHT / graph.concepts[name]
        matrix[np.ix_(at, at)] += share
        matrix[at, at] -= share   # no edge from a memory to itself (the diagonal was 0)
    return matrix / norm[:, None]


def _concept_counts(graph: Graph) -> dict[str, int]:
    counts: dict[str, int] = {}
    for members in graph.concept_members.values():
        for mid in members:
            counts[mid] = counts.get(mid, 0) + 1
    return counts


def associate(store: Store, scope: Scope, hits: list[Hit], preset: Preset,
              allowed: Callable[[Record], bool]) -> list[Hit]:
    """The memories the hits activate, as hits (best first, at most ``preset.assoc_slots``)."""
    seeds = [h for h in hits[:MAX_SEEDS] if h.score > 0]
    if preset.assoc_slots <= 0 or not seeds:
        return []
    graph = build(store, scope, [h.memory for h in seeds],
                  relation_boost=dict(preset.relation_boost))
    if len(graph.nodes) <= len(seeds):
        return []
    act = spread(graph, {h.memory.id: h.score for h in seeds})
    seed_ids = {h.memory.id for h in hits}
    top = max(act.of(h.memory.id) for h in seeds)
    scale = sum(h.score for h in seeds) / (1.0 - DAMPING) * preset.assoc_weight
    above = [(float(act.values[i]), mid) for i, mid in enumerate(act.order)
             if mid not in seed_ids and act.values[i] >= FLOOR * top]
    unread = [mid for _, mid in above if mid not in graph.records]
    records = {**graph.records, **read_many(store, scope, unread)}
    found = [(value, mid) for value, mid in above if mid in records
             and records[mid].layer != Layer.DELETED and allowed(records[mid])]
    found.sort(key=lambda x: (-x[0], x[1]))
    if not found:
        return []
    matrix = act.matrix
    if matrix is None:
        matrix = transition(graph, act.order, {m: i for i, m in enumerate(act.order)})
    return [_hit(records[mid], value, value / top, scale, graph, act, matrix)
            for value, mid in found[: preset.assoc_slots]]


def _hit(rec: Record, value: float, share: float, scale: float, graph: Graph,
         act: Activation, matrix: np.ndarray) -> Hit:
    trace = _trace(rec.id, graph, act, matrix)
    notes = [f"associated: activation {value:.4f} ({share:.0%} of the strongest seed's), via "
             + "; ".join(trace)]
    woken = rec.layer == Layer.ARCHIVED
    terms = {"activation": value, "activation_share": share}
    if woken:
        strong = share >= STRONG
        terms["strong_cue"] = float(strong)
        notes.append("woken from the archive by association"
                     + (": a strong activation, promoted to core when tracked" if strong else ""))
    score = value * scale
    explanation = Explanation(legs={"associate": LegScore(0, value)}, fused=0.0, strength=0.0,
                              terms={**terms, "final": score}, final=score, notes=notes)
    return Hit(memory=rec, score=score, explanation=explanation, woken=woken)


def _trace(mid: str, graph: Graph, act: Activation, matrix: np.ndarray,
           top: int = 3) -> list[str]:
    """The strongest edges into ``mid``: which memory passed how much, and through what."""
    v = act.order.index(mid)
    amounts = DAMPING * matrix[:, v] * act.values
    inflow = sorted((-float(amounts[u]), src) for u, src in enumerate(act.order)
                    if amounts[u] > 0)[:top]
    out = []
    for neg, src in inflow:
        label = ", ".join(w.replace(f" {mid}", "") for w in sorted(set(graph.why(src, mid))))
        out.append(f"{src} by {label} (+{-neg:.4f})")
    return out


def merge(direct: list[Hit], associated: list[Hit], k: int, slots: int) -> list[Hit]:
    """The best k of both, best first, with at most ``slots`` associated hits."""
    out: list[Hit] = []
    extra = 0
    for hit in sorted([*direct, *associated], key=lambda h: (-h.score, h.memory.id)):
        is_assoc = "associate" in hit.explanation.legs
        if is_assoc and extra >= slots:
            continue
        out.append(hit)
        extra += is_assoc
        if len(out) == k:
            break
    return out


def hebbian_pairs(hits: list[Hit], top: int = HEBB_TOP) -> list[tuple[str, str]]:
    """Both directions between each two of the top hits (the co-activated memories)."""
    ids = list(dict.fromkeys(h.memory.id for h in hits[:top]))
    return list(permutations(ids, 2))

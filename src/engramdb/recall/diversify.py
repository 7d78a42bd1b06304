"""Maximal marginal relevance: an exploratory question ("tell me about ...") is better served
by k different memories than by k that say the same thing.

Greedy: each next hit maximises ``lam * relevance - (1 - lam) * redundancy``, where relevance is
the hit's score over the best score and redundancy its highest cosine similarity (stored
vectors) to a hit already chosen. Only the first ``depth`` hits are re-ordered; hits without a
vector count as not redundant. The same hits and vectors give the same order (ties by id)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..model import Hit


def mmr(hits: list[Hit], vectors: Mapping[str, np.ndarray], lam: float, depth: int) -> list[Hit]:
    if not 0 < lam < 1 or len(hits) < 2:
        return hits
    head, tail = list(hits[:depth]), hits[depth:]
    top = max(h.score for h in head) or 1.0
    unit = {mid: v / (np.linalg.norm(v) or 1.0) for mid, v in vectors.items()}
    chosen: list[Hit] = []
    while head:
        best_i, best = 0, -np.inf
        for i, hit in enumerate(head):
            v = unit.get(hit.memory.id)
            same = max((float(v @ unit[c.memory.id]) for c in chosen
                        if v is not None and c.memory.id in unit), default=0.0)
            value = lam * hit.score / top - (1.0 - lam) * same
            if value > best or (value == best and hit.memory.id < head[best_i].memory.id):
                best_i, best = i, value
        hit = head.pop(best_i)
        if chosen and best_i != 0:
            hit.explanation.notes.append("moved up for diversity (MMR): unlike the hits above")
        chosen.append(hit)
    return chosen + tail

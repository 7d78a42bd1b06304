"""``focus(query)``: the attention workspace. It holds the active goal, the procedures whose
triggers fire on the query or the goal, and the memories chosen by the score of score.py, with
an audit that lists every candidate looked at (kept or not) and its full breakdown.

Candidates are the recall hits for the query, the recall hits for the goal, and the most
important memories of the scope (the ones most likely to crowd a prompt whatever the topic:
the audit shows why they are kept out when they are off topic). Procedures are listed under
procedures, never as memories."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from ..model import Goal, Kind, Record, Scope
from ..store.protocol import ListFilter
from ..text.tokenize import tokenize
from .goals import GoalStack
from .procedures import Procedure, Triggered, triggered
from .score import DENSE_FLOOR, WEIGHTS, Signals, coverage, dense, exclusion, terms, total
from .uncertainty import Uncertainty, detect

if TYPE_CHECKING:
    from ..facade import Facade

CANDIDATES = 20        # recall hits read for the query and for the goal
IMPORTANT = 10         # most important memories added as candidates
IMPORTANT_SCAN = 2000  # newest memories scanned for the most important ones
MAX_K = 100


@dataclass
class Scored:
    """One candidate: its score, every term, and whether it is in (and why not)."""

    memory: Record
    score: float
    terms: dict[str, float]
    included: bool = False
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.memory.id, "kind": self.memory.kind.value,
                "content": self.memory.content, "score": round(self.score, 4),
                "terms": {k: round(v, 4) for k, v in self.terms.items()},
                "included": self.included, "reason": self.reason}


@dataclass
class Workspace:
    """What deserves attention now: the goal, triggered procedures, chosen memories, and the
    audit of every candidate (best score first, excluded ones included)."""

    query: str
    goal: Goal | None
    procedures: list[Triggered]
    memories: list[Scored]
    audit: list[Scored]
    uncertainty: Uncertainty = field(default_factory=lambda: Uncertainty(False))

    def excluded(self) -> list[Scored]:
        return [s for s in self.audit if not s.included]

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "goal": self.goal.to_dict() if self.goal else None,
                "uncertain": self.uncertainty.uncertain, "cues": self.uncertainty.cues,
                "procedures": [t.to_dict() for t in self.procedures],
                "memories": [s.to_dict() for s in self.memories],
                "audit": [s.to_dict() for s in self.audit]}

    def render(self) -> str:
        """The workspace as plain text for a prompt: goal, procedures, memories."""
        lines: list[str] = []
        if self.goal:
            lines.append(f"Goal: {self.goal.title}")
            lines += [f"  constraint: {c}" for c in self.goal.constraints]
            lines += [f"  open: {o}" for o in self.goal.open_loops]
        for t in self.procedures:
            p = t.procedure
            lines.append(f"Procedure: {p.title} (confidence {p.confidence:.2f})")
            lines += [f"  {i}. {s}" for i, s in enumerate(p.steps, 1)]
        for s in self.memories:
            lines.append(f"- [{s.memory.at.date().isoformat()}] {s.memory.content}")
        return "\n".join(lines)


def goal_texts(goal: Goal | None) -> list[str]:
    """What a memory can be relevant to in a goal: its title and each open loop."""
    return [] if goal is None else [goal.title, *goal.open_loops]


def goal_text(goal: Goal | None) -> str:
    return "\n".join(goal_texts(goal))


def build(mem: Facade, scope: Scope, query: str, k: int, now: datetime) -> Workspace:
    goal = GoalStack(mem.store, scope, now).active()
    gtext = goal_text(goal)
    procs = triggered(list_procedures(mem, scope), query, goal.title if goal else "")
    records = candidates(mem, scope, query, gtext)
    signals = relevances(mem, scope, records, query, goal_texts(goal))
    doubt = detect(query)
    scored = []
    for rec in records:
        q, g = signals[rec.id]
        parts = terms(rec, Signals(goal=g, query=q, uncertain=doubt.uncertain), now)
        scored.append(Scored(rec, total(parts), parts))
    scored.sort(key=lambda s: (-s.score, s.memory.id))
    chosen = choose(scored, k)
    return Workspace(query, goal, procs, chosen, scored, doubt)


def choose(scored: list[Scored], k: int) -> list[Scored]:
    chosen: list[Scored] = []
    for s in scored:
        why = exclusion(s.memory, s.terms, s.score)
        if why is None and len(chosen) >= k:
            why = f"ranked below the top {k}"
        if why is None:
            s.included, s.reason = True, _why_in(s)
            chosen.append(s)
        else:
            s.reason = why
    return chosen


def _why_in(s: Scored) -> str:
    best = sorted(((v * w, n) for n, v in s.terms.items()
                   if (w := WEIGHTS[n]) > 0 and v > 0), reverse=True)[:3]
    return "in: " + ", ".join(f"{n} {s.terms[n]:.2f}" for _, n in best)


def list_procedures(mem: Facade, scope: Scope) -> list[Procedure]:
    flt = ListFilter(kinds=(Kind.PROCEDURE.value,), current_only=True)
    return [Procedure.from_record(r) for r in mem.store.list(scope, flt)]


def candidates(mem: Facade, scope: Scope, query: str, gtext: str) -> list[Record]:
    found: dict[str, Record] = {}
    for text in (query, gtext):
        if text.strip():
            for hit in mem.recall(text, k=CANDIDATES, track=False, user=scope.user,
                                  agent=scope.agent):
                found.setdefault(hit.memory.id, hit.memory)
    recent = mem.store.list(scope, ListFilter(current_only=True, limit=IMPORTANT_SCAN,
                                              newest_first=True))
    important = sorted(recent, key=lambda r: (-r.importance, r.id))[:IMPORTANT]
    for rec in important:
        found.setdefault(rec.id, rec)
    return [r for r in found.values() if r.kind != Kind.PROCEDURE]


def relevances(mem: Facade, scope: Scope, records: list[Record], query: str,
               goals: list[str]) -> dict[str, tuple[float, float]]:
    """(query relevance, goal relevance) of each record; the goal's is the best over its
    title and open loops."""
    texts = [query, *goals]
    wanted = [set(tokenize(t)) for t in texts]
    vecs = mem.embedder.embed_batch(texts, query=True) if records else None
    stored = mem.store.vectors(scope, [r.id for r in records]) if records else {}
    floor = getattr(mem.embedder, "relevance_floor", None) or DENSE_FLOOR
    out = {}
    for rec in records:
        have = set(tokenize(" ".join([rec.content, *rec.topics, *rec.people, *rec.places])))
        vec = stored.get(rec.id)
        rel = []
        for i, terms_ in enumerate(wanted):
            cos = float(np.dot(vecs[i], vec)) if vecs is not None and vec is not None else None
            rel.append(max(coverage(terms_, have), dense(cos, floor)))
        out[rec.id] = (rel[0], max(rel[1:], default=0.0))
    return out

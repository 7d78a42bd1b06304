"""Procedures: how to do something, as a title, ordered steps, trigger words (English or
Chinese) and a confidence in [0, 1] that rises on success and falls on failure.

A procedure is stored as a memory of kind "procedure" (not in a table of its own): it is then
searched like every memory (text and vectors, both languages), versioned (each outcome is a
version in its history, with the confidence before and after), exported, snapshotted, scoped
and forgotten like the rest, with no second code path. Its structure lives in the metadata
under the key ``procedure``: {"title", "steps", "triggers", "confidence", "successes",
"failures"}; its URI is ``procedure://<slug of the title>``, so adding the same title again
updates it in place. A procedure memory written by hand (no such metadata) still reads as one:
first line the title, later lines the steps, topics the triggers."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import Invalid
from ..model import Draft, Kind, Record
from .goals import clean_list, clean_text
from .triggers import fired

META = "procedure"
START_CONFIDENCE = 0.5
RATE = 0.2  # success: c += RATE * (1 - c); failure: c -= RATE * c (so c stays in [0, 1])
_STEP_PREFIX = re.compile(r"^\s*(?:\d+[.)、]|[-*•])\s*")


@dataclass
class Procedure:
    id: str
    uri: str | None
    title: str
    steps: list[str]
    triggers: list[str]
    confidence: float
    successes: int = 0
    failures: int = 0

    @classmethod
    def from_record(cls, rec: Record) -> Procedure:
        meta = rec.metadata.get(META)
        if isinstance(meta, dict):
            return cls(rec.id, rec.uri, str(meta.get("title", "")),
                       [str(s) for s in meta.get("steps", [])],
                       [str(t) for t in meta.get("triggers", [])],
                       float(meta.get("confidence", START_CONFIDENCE)),
                       int(meta.get("successes", 0)), int(meta.get("failures", 0)))
        lines = [ln.strip() for ln in rec.content.splitlines() if ln.strip()]
        return cls(rec.id, rec.uri, lines[0] if lines else "",
                   [_STEP_PREFIX.sub("", ln) for ln in lines[1:]], list(rec.topics),
                   START_CONFIDENCE)

    def meta(self) -> dict[str, Any]:
        return {"title": self.title, "steps": list(self.steps), "triggers": list(self.triggers),
                "confidence": round(self.confidence, 6), "successes": self.successes,
                "failures": self.failures}

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "uri": self.uri, **self.meta()}


@dataclass
class Triggered:
    """A procedure that fired for a query or the active goal, and on which words."""

    procedure: Procedure
    on_query: list[str] = field(default_factory=list)
    on_goal: list[str] = field(default_factory=list)

    @property
    def why(self) -> str:
        parts = []
        if self.on_query:
            parts.append(f"query has {', '.join(repr(t) for t in self.on_query)}")
        if self.on_goal:
            parts.append(f"goal has {', '.join(repr(t) for t in self.on_goal)}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {**self.procedure.to_dict(), "on_query": self.on_query, "on_goal": self.on_goal,
                "why": self.why}


def slug(text: str, limit: int = 60) -> str:
    s = re.sub(r"[^\w.\-~@+]+", "-", text.lower(), flags=re.UNICODE).strip("-.")
    return s[:limit].strip("-.") or "x"


def check_confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise Invalid(f"confidence must be a number between 0 and 1, got {value!r}")
    return float(value)


def procedure_draft(title: str, steps: Sequence[str], triggers: Sequence[str],
                    confidence: float, counts: tuple[int, int] = (0, 0)) -> Draft:
    title = clean_text("title", title)
    steps_l, triggers_l = clean_list("steps", steps), clean_list("triggers", triggers)
    if not steps_l:
        raise Invalid("a procedure needs at least one step")
    if not triggers_l:
        raise Invalid("a procedure needs at least one trigger word")
    proc = Procedure("", None, title, steps_l, triggers_l, check_confidence(confidence), *counts)
    content = "\n".join([title, *(f"{i}. {s}" for i, s in enumerate(steps_l, 1))])
    return Draft(content=content, kind=Kind.PROCEDURE, uri=f"procedure://{slug(title)}",
                 metadata={META: proc.meta()}, topics=triggers_l)


def after_outcome(proc: Procedure, success: bool) -> Procedure:
    if not isinstance(success, bool):
        raise Invalid("success must be true or false")
    c = proc.confidence
    if success:
        return _with(proc, confidence=min(1.0, c + RATE * (1 - c)), successes=proc.successes + 1)
    return _with(proc, confidence=max(0.0, c - RATE * c), failures=proc.failures + 1)


def _with(proc: Procedure, **changes: Any) -> Procedure:
    return dataclasses.replace(proc, **changes)


def triggered(procedures: Sequence[Procedure], query: str, goal_text: str = "") -> list[Triggered]:
    """The procedures whose triggers fire on the query or the goal, most confident first."""
    out = []
    for proc in procedures:
        hit = Triggered(proc, fired(proc.triggers, query),
                        fired(proc.triggers, goal_text) if goal_text else [])
        if hit.on_query or hit.on_goal:
            out.append(hit)
    out.sort(key=lambda t: (-t.procedure.confidence, -len(t.on_query) - len(t.on_goal)))
    return out

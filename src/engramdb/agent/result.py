"""What one agent turn gives back: the answer, every step, the evaluation and what was written."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Evaluation:
    success: bool
    reward: float                 # in [-1, 1]
    lesson: str
    strategy: str
    tools: list[str]
    failures: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success, "reward": self.reward, "lesson": self.lesson,
                "strategy": self.strategy, "tools": self.tools, "failures": self.failures}


@dataclass
class Step:
    """One step of a turn. kind: focus | cache | plan | tool | refused | answer | fallback |
    limit."""

    n: int
    kind: str
    tool: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    ok: bool = True
    output: str = ""
    error: str = ""
    note: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def brief(self) -> dict[str, Any]:
        """The step as the experience keeps it (outputs cut short)."""
        out: dict[str, Any] = {"n": self.n, "kind": self.kind, "ok": self.ok}
        for name in ("tool", "error", "note"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.args:
            out["args"] = self.args
        if self.output:
            out["output"] = self.output[:200]
        if self.data.get("rationale"):
            out["rationale"] = str(self.data["rationale"])[:200]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "kind": self.kind, "tool": self.tool, "args": self.args,
                "ok": self.ok, "output": self.output, "error": self.error, "note": self.note,
                "data": self.data}


@dataclass
class TurnResult:
    """``answer``: what to tell the user. ``source``: llm | cache | fallback | limit.
    ``ok``: the turn reached an answer the agent stands behind (not a fallback, not the
    step limit). ``note``: a sentence about how the answer came (a cache hit says so here).
    ``experience_id``: the experience episode written (None for a cache hit)."""

    answer: str
    ok: bool
    source: str
    lang: str
    steps: list[Step] = field(default_factory=list)
    evaluation: Evaluation | None = None
    used: list[str] = field(default_factory=list)
    experience_id: str | None = None
    consolidated: dict[str, list[str]] = field(default_factory=dict)
    beliefs: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "ok": self.ok, "source": self.source, "lang": self.lang,
                "note": self.note, "error": self.error,
                "steps": [s.to_dict() for s in self.steps],
                "evaluation": self.evaluation.to_dict() if self.evaluation else None,
                "used": self.used, "experience_id": self.experience_id,
                "consolidated": self.consolidated, "beliefs": self.beliefs}

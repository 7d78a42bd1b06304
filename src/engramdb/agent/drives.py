"""Drives: three numbers in [0, 1] that say how the agent stands, each computed from signals the
agent already keeps (nothing is set by hand):

- **coherence**: consistent evidence against loose ends. With C the confirmations and X the
  contradictions its beliefs have met (state.meet) and Q its open questions,
  ``(1 + C) / (1 + C + X + Q)``: 1 with nothing unresolved, lower with each contradiction or
  open question, higher again as beliefs are confirmed (setting a belief anew starts its
  counts afresh).
- **competence**: how its recent actions went. The mean of a Beta(1 + ok, 1 + failed) over the
  last ``RECENT`` action notes (notes.py: every tool call, refusal, answer and fallback):
  ``(1 + ok) / (2 + n)``.
- **curiosity**: what it does not know. U is the mean uncertainty of its beliefs
  (1 - confidence) and of its last ``RECENT_UNCERTAIN`` action notes (0.5 when there are none);
  ``1 - (1 - U) / (1 + Q)``: U with no open question, nearer 1 with each one.

They are recomputed for the cognitive state whenever it is read, and stored after every action
at ``system://agent/drives`` (one event memory per scope, a version per action: ``history`` is their
course); metadata ``drives`` holds the values and the signals they came from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model import Kind, Scope
from .texts import DRIVE_NAMES, DRIVE_WHY, DRIVES_CONTENT
from .uris import PREFIX, put

if TYPE_CHECKING:
    from ..engine import Memory

URI = PREFIX + "drives"
RECENT, RECENT_UNCERTAIN = 20, 5
NAMES = ("coherence", "competence", "curiosity")


@dataclass(frozen=True)
class Drives:
    coherence: float
    competence: float
    curiosity: float
    confirmations: int = 0
    contradictions: int = 0
    questions: int = 0
    ok: int = 0
    actions: int = 0
    uncertainty: float = 0.5

    def values(self) -> dict[str, float]:
        return {n: round(getattr(self, n), 4) for n in NAMES}

    def signals(self) -> dict[str, Any]:
        return {"confirmations": self.confirmations, "contradictions": self.contradictions,
                "questions": self.questions, "ok": self.ok, "actions": self.actions,
                "uncertainty": round(self.uncertainty, 4)}

    def to_dict(self) -> dict[str, Any]:
        return {**self.values(), "signals": self.signals()}

    def line(self, lang: str) -> str:
        """The three drives with what each comes from."""
        names, why = DRIVE_NAMES[lang], DRIVE_WHY[lang]
        sig = self.signals()
        sep, shape = ("；", "{} {:.2f}（{}）") if lang == "zh" else ("; ", "{} {:.2f} ({})")
        return sep.join(shape.format(names[n], getattr(self, n), why[n].format(**sig))
                        for n in NAMES)


def compute(confirmations: int, contradictions: int, questions: int,
            outcomes: Sequence[bool], uncertainties: Sequence[float]) -> Drives:
    """The drives from their signals. ``outcomes``: the recent actions' success, newest last;
    ``uncertainties``: the beliefs' and the recent actions' uncertainties, each in [0, 1]."""
    recent = list(outcomes)[-RECENT:]
    ok = sum(1 for o in recent if o)
    u = sum(uncertainties) / len(uncertainties) if uncertainties else 0.5
    return Drives(coherence=(1 + confirmations) / (1 + confirmations + contradictions
                                                   + questions),
                  competence=(1 + ok) / (2 + len(recent)),
                  curiosity=1 - (1 - u) / (1 + questions),
                  confirmations=confirmations, contradictions=contradictions,
                  questions=questions, ok=ok, actions=len(recent), uncertainty=u)


def save(memory: Memory, scope: Scope, drives: Drives, lang: str) -> None:
    content = DRIVES_CONTENT[lang].format(**drives.values())
    meta = {"drives": drives.to_dict(), "agent_trace": "drives"}
    put(memory, scope, URI, content, meta, kind=Kind.EVENT, priority="P2", importance=0.3)


def stored(memory: Memory, scope: Scope) -> dict[str, Any] | None:
    """The drives as stored after the last action (None before the first)."""
    rec = memory.store.get_by_uri(scope, URI)
    return dict(rec.metadata.get("drives") or {}) if rec is not None and rec.current else None

"""Persona: does this user want old memories brought up unprompted?

One preference per scope, stored as a preference memory at ``system://agent/persona/proactive``
with its evidence in metadata ``persona``: ``yes`` and ``no`` weights, starting from the prior
``PRIOR_YES`` = 2, ``PRIOR_NO`` = 1 (on, until told otherwise). Explicit feedback
(``Agent.persona_feedback``) adds ``EXPLICIT`` = 1 to one side; a reaction in a user's message
(a cue from texts.PERSONA_NO / PERSONA_YES, English or Chinese) adds ``REACTION`` = 0.5. The
agent brings memories up unprompted while ``yes / (yes + no) >= 0.5``: then its ``context()``
call recalls relevant memories (k = the agent's setting); otherwise it asks for none (k = 0) and
reaches old memories only through the ``recall`` tool, when the task asks for them. From the
prior, two explicit "no" turn it off (2 / 4 stays on, 2 / 5 is off); three keep it off until
enough "yes" come back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Memory
from ..model import Kind, Scope
from .texts import PERSONA_NO, PERSONA_YES
from .uris import put

URI = "system://agent/persona/proactive"
PRIOR_YES, PRIOR_NO = 2.0, 1.0
EXPLICIT, REACTION = 1.0, 0.5
CONTENT = {True: "Bring up relevant old memories unprompted: yes (主动提起相关旧记忆：是)",
           False: "Bring up relevant old memories unprompted: no (主动提起相关旧记忆：否)"}


@dataclass(frozen=True)
class Persona:
    yes: float = PRIOR_YES
    no: float = PRIOR_NO
    votes: int = 0

    @property
    def score(self) -> float:
        return self.yes / (self.yes + self.no)

    @property
    def proactive(self) -> bool:
        return self.score >= 0.5

    def to_dict(self) -> dict[str, Any]:
        return {"yes": self.yes, "no": self.no, "votes": self.votes,
                "score": round(self.score, 4), "proactive": self.proactive}


def reaction(message: str) -> bool | None:
    """True / False when the message welcomes / rejects memories brought up unprompted."""
    text = " ".join(message.lower().split())
    if any(cue in text for cue in PERSONA_NO):
        return False
    if any(cue in text for cue in PERSONA_YES):
        return True
    return None


def load(memory: Memory, scope: Scope) -> Persona:
    rec = memory.store.get_by_uri(scope, URI)
    meta = (rec.metadata.get("persona") if rec is not None and rec.current else None) or {}
    try:
        return Persona(float(meta.get("yes", PRIOR_YES)), float(meta.get("no", PRIOR_NO)),
                       int(meta.get("votes", 0)))
    except (TypeError, ValueError):
        return Persona()


def vote(memory: Memory, scope: Scope, wants: bool, weight: float = EXPLICIT) -> Persona:
    """Move the preference toward ``wants`` by ``weight`` and store it."""
    old = load(memory, scope)
    new = Persona(old.yes + (weight if wants else 0.0), old.no + (0.0 if wants else weight),
                  old.votes + 1)
    meta = {"persona": new.to_dict(), "agent_trace": "persona"}
    put(memory, scope, URI, CONTENT[new.proactive], meta, kind=Kind.PREFERENCE, importance=0.6)
    return new

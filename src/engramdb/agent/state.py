"""The agent's cognitive state: who it is, what it can do, what it believes and how sure it is,
what it wants (the goal stack), what it has not resolved, and what it concluded.

Stored as memories of the scope under ``system://agent/`` (no table of its own), each with
metadata ``agent_trace`` naming what it is:

    system://agent/belief/<slug of key>     fact      metadata belief: key, value, confidence,
                                                      confirmations, contradictions, last_source
    system://agent/question/<slug>          pending   an open question
    system://agent/reflection/<id>          lesson    a reflection (Agent.reflect, at sleep)
    system://agent/self/mission, .../limits  identity the mission and limits (selfmodel.py)
    system://agent/prior/<tool>             event     a tool's record (priors.py)
    system://agent/note/<id>                event     a note after an action (notes.py)
    system://agent/drives                   event     the drives after the last action (drives.py)

The self model: the identity memories (kind identity, the user's words), the mission and limits,
and the tool names with their priors. Goals are the goal stack (attention/goals.py). The drives
are computed from the beliefs, questions and recent notes whenever the state is read.
``introspect`` gathers all of it; ``lines`` is the block the planner reads next to the memory
context.

Beliefs meet tool results: a tool output that is a JSON object is flattened to dotted keys
(``{"weather": {"paris": "rain"}}`` -> ``weather.paris``); a belief whose key is there with the
same value (case and spacing aside) is confirmed (confidence + ``CONFIRM``, at most ``MAX``), a
different value contradicts it (confidence x ``CONTRADICT``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..attention.procedures import slug
from ..errors import Invalid
from ..ids import new_id
from ..model import Goal, GoalStatus, Kind, Record, Scope
from ..store.protocol import ListFilter
from ..text.tokenize import normalize
from . import drives, notes, priors, selfmodel
from .drives import Drives
from .notes import Note
from .priors import Prior
from .texts import STATE_TITLES
from .uris import PREFIX, put

if TYPE_CHECKING:
    from ..engine import Memory

BELIEFS, QUESTIONS, REFLECTIONS = PREFIX + "belief/", PREFIX + "question/", PREFIX + "reflection/"
CONFIRM, CONTRADICT, MAX = 0.1, 0.5, 0.99
SHOWN_REFLECTIONS = 3


@dataclass(frozen=True)
class Belief:
    id: str
    key: str
    value: str
    confidence: float
    confirmations: int = 0
    contradictions: int = 0
    last_source: str = ""

    @classmethod
    def from_record(cls, rec: Record) -> Belief:
        b = rec.metadata.get("belief") or {}
        return cls(rec.id, str(b.get("key", "")), str(b.get("value", "")),
                   float(b.get("confidence", 0.5)), int(b.get("confirmations", 0)),
                   int(b.get("contradictions", 0)), str(b.get("last_source", "")))

    def meta(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "confidence": round(self.confidence, 4),
                "confirmations": self.confirmations, "contradictions": self.contradictions,
                "last_source": self.last_source}

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, **self.meta()}


@dataclass(frozen=True)
class CognitiveState:
    identity: list[str]
    tools: list[str]
    beliefs: list[Belief]
    goals: list[Goal]
    questions: list[str]
    reflections: list[str]
    persona: dict[str, Any] = field(default_factory=dict)
    mission: str = ""
    limits: list[str] = field(default_factory=list)
    drives: Drives | None = None
    priors: list[Prior] = field(default_factory=list)     # the tools called at least once
    notes: list[Note] = field(default_factory=list)       # the last few, oldest first
    cautions: list[str] = field(default_factory=list)     # this turn's low-prior choices
    # the ids of the open questions (pending) and reflections (lessons) ``lines`` states: what
    # an answer given from this state relied on (agent/cache.py links to them)
    sources: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"self": {"identity": self.identity, "mission": self.mission,
                         "limits": self.limits, "tools": self.tools},
                "drives": self.drives.to_dict() if self.drives else None,
                "priors": {p.tool: p.to_dict() for p in self.priors},
                "beliefs": [b.to_dict() for b in self.beliefs],
                "goals": [{"id": g.id, "title": g.title, "status": g.status.value}
                          for g in self.goals],
                "questions": self.questions, "reflections": self.reflections,
                "notes": [n.to_dict() for n in self.notes], "cautions": self.cautions,
                "persona": self.persona}

    def lines(self, lang: str = "en") -> str:
        """The state as the planner reads it: a ``## Cognitive state`` block."""
        t = STATE_TITLES[lang]
        out = ["## Cognitive state"]
        if self.identity:
            out.append(f"- {t['self']}: " + "; ".join(self.identity))
        if self.mission:
            out.append(f"- {t['mission']}: {self.mission}")
        if self.limits:
            out.append(f"- {t['limits']}: " + ("；" if lang == "zh" else "; ").join(self.limits))
        out.append(f"- {t['tools']}: " + ", ".join(self.tools))
        out += [f"- {t['priors']}: {p.line(lang)}" for p in self.priors]
        if self.drives is not None:
            out.append(f"- {t['drives']}: {self.drives.line(lang)}")
        out += [f"- {t['beliefs']}: {b.key} = {b.value} (confidence {b.confidence:.2f})"
                for b in self.beliefs]
        out += [f"- {t['goals']}: {g.title} ({g.status.value})" for g in self.goals]
        out += [f"- {t['questions']}: {q}" for q in self.questions]
        out += [f"- {t['reflections']}: {r}" for r in self.reflections]
        out += [f"- {t['notes']}: {n.text()}" for n in self.notes]
        out += [f"- {t['cautions']}: {c}" for c in self.cautions]
        return "\n".join(out)


def _current(memory: Memory, scope: Scope, prefix: str) -> list[Record]:
    return list(memory.store.list(scope, ListFilter(uri_prefix=prefix, current_only=True)))


def beliefs(memory: Memory, scope: Scope) -> list[Belief]:
    found = [Belief.from_record(r) for r in _current(memory, scope, BELIEFS)]
    return sorted(found, key=lambda b: (-b.confidence, b.key))


def believe(memory: Memory, scope: Scope, key: str, value: object, confidence: float = 0.8,
            source: str = "told") -> Belief:
    """Hold ``key`` = ``value`` with ``confidence`` (a new value for a key replaces the old)."""
    if not isinstance(key, str) or not key.strip():
        raise Invalid("a belief needs a key")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) \
            or not 0 <= confidence <= 1:
        raise Invalid(f"confidence must be a number from 0 to 1, got {confidence!r}")
    b = Belief("", key.strip(), str(value), float(confidence), last_source=source)
    return _save(memory, scope, b)


def _save(memory: Memory, scope: Scope, b: Belief) -> Belief:
    uri = BELIEFS + slug(b.key)
    content = f"{b.key} = {b.value} (confidence {b.confidence:.2f})"
    meta = {"belief": b.meta(), "agent_trace": "belief"}
    return Belief.from_record(put(memory, scope, uri, content, meta, kind=Kind.FACT))


def flatten(value: object, prefix: str = "") -> dict[str, str]:
    """A JSON object's leaves by dotted key, normalized for comparison."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}{k}."))
        return out
    return {prefix.rstrip("."): normalize(str(value))} if prefix else {}


def meet(memory: Memory, scope: Scope, output: object, source: str) -> list[dict[str, Any]]:
    """Confirm or contradict the beliefs a tool's output speaks about; what changed."""
    facts = flatten(output)
    if not facts:
        return []
    changes = []
    for b in beliefs(memory, scope):
        seen = facts.get(b.key) or facts.get(normalize(b.key))
        if seen is None:
            continue
        same = seen == normalize(b.value)
        new = Belief(b.id, b.key, b.value,
                     min(MAX, b.confidence + CONFIRM) if same else b.confidence * CONTRADICT,
                     b.confirmations + same, b.contradictions + (not same), source)
        _save(memory, scope, new)
        changes.append({"key": b.key, "belief": b.value, "seen": seen,
                        "contradicted": not same, "confidence_before": round(b.confidence, 4),
                        "confidence": round(new.confidence, 4)})
    return changes


def ask(memory: Memory, scope: Scope, question: str) -> str:
    """Keep an open question (once)."""
    if not isinstance(question, str) or not question.strip():
        raise Invalid("an open question needs text")
    uri = QUESTIONS + slug(question)
    if memory.store.get_by_uri(scope, uri) is None:
        memory.remember(question.strip(), kind=Kind.PENDING, uri=uri,
                        metadata={"agent_trace": "question"}, user=scope.user,
                        agent=scope.agent)
    return uri


def reflect(memory: Memory, scope: Scope, text: str) -> Record:
    uri = REFLECTIONS + new_id(memory._now())
    return memory.remember(text, kind=Kind.LESSON, uri=uri, importance=0.4,
                           metadata={"agent_trace": "reflection"}, user=scope.user,
                           agent=scope.agent).memory


def introspect(memory: Memory, scope: Scope, tools: Sequence[str],
               persona: dict[str, Any] | None = None,
               cautions: Sequence[str] = ()) -> CognitiveState:
    identity = [r.content for r in memory.store.list(scope, ListFilter(
        kinds=(Kind.IDENTITY.value,), current_only=True)) if not (r.uri or "").startswith(PREFIX)]
    goals = memory.goals([GoalStatus.ACTIVE.value, GoalStatus.PAUSED.value], user=scope.user,
                         agent=scope.agent)
    asked = _current(memory, scope, QUESTIONS)
    refl = sorted(_current(memory, scope, REFLECTIONS), key=lambda r: r.recorded_at)
    questions = [r.content for r in asked]
    shown = refl[-SHOWN_REFLECTIONS:]
    held = beliefs(memory, scope)
    known = priors.load_all(memory, scope)
    past = notes.recent(memory, scope, drives.RECENT)
    return CognitiveState(identity, list(tools), held, goals, questions,
                          [r.content for r in shown], persona or {},
                          selfmodel.mission(memory, scope), selfmodel.limits(memory, scope),
                          drives_now(memory, scope, held, len(questions), past),
                          [known[t] for t in tools if t in known],
                          past[-notes.SHOWN:], list(cautions), [r.id for r in asked + shown])


def drives_now(memory: Memory, scope: Scope, held: Sequence[Belief] | None = None,
               questions: int | None = None, past: Sequence[Note] | None = None) -> Drives:
    """The drives from the scope's beliefs, open questions and recent action notes."""
    held = beliefs(memory, scope) if held is None else held
    if questions is None:
        questions = len(_current(memory, scope, QUESTIONS))
    if past is None:
        past = notes.recent(memory, scope, drives.RECENT)
    unsure = [1 - b.confidence for b in held] + [
        n.uncertainty for n in past[-drives.RECENT_UNCERTAIN:]]
    return drives.compute(sum(b.confirmations for b in held),
                          sum(b.contradictions for b in held), questions,
                          [n.ok for n in past], unsure)

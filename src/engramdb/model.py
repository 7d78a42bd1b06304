"""The domain: the memory record, what a write and a recall return, and the enums."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .verdict import Verdict


class Kind(StrEnum):
    IDENTITY = "identity"
    PREFERENCE = "preference"
    FACT = "fact"
    EVENT = "event"
    LESSON = "lesson"
    RULE = "rule"
    PROCEDURE = "procedure"
    PENDING = "pending"
    GIST = "gist"
    EMOTION = "emotion"


class Priority(StrEnum):
    P0 = "P0"  # never fades (identity)
    P1 = "P1"  # long-lived (emotion, rules, lessons, procedures)
    P2 = "P2"  # knowledge: facts, preferences
    P3 = "P3"  # episodes: events fade in weeks


class Layer(StrEnum):
    CORE = "core"
    ARCHIVED = "archived"
    DELETED = "deleted"
    COLD = "cold"   # archived for long (Config.cold_after): out of the hot search structures


class Lifecycle(StrEnum):
    PERMANENT = "permanent"
    LONG = "long"
    CONTEXTUAL = "contextual"
    LOG = "log"
    TEMP = "temp"


class Action(StrEnum):
    ADD = "add"
    UPDATE = "update"
    SUPERSEDE = "supersede"
    NOOP = "noop"
    REJECT = "reject"


@dataclass(frozen=True)
class Scope:
    user: str = "default"
    agent: str = "default"


@dataclass
class Record:
    """One memory. ``at``: when the remembered thing happened; ``recorded_at``: when stored."""

    id: str
    user: str
    agent: str
    content: str
    kind: Kind
    uri: str | None
    priority: Priority
    lifecycle: Lifecycle
    importance: float
    at: datetime
    recorded_at: datetime
    updated_at: datetime
    metadata: dict[str, Any] = field(default_factory=dict)
    people: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    context: str | None = None   # nearby text (e.g. the previous turn): searched, not returned
    valence: float = 0.0
    intensity: float = 0.0
    source_session: str | None = None
    source_turn: str | None = None
    derived_from: list[str] = field(default_factory=list)
    invalid_at: datetime | None = None
    superseded_by: str | None = None
    expires_at: datetime | None = None
    due_at: datetime | None = None
    layer: Layer = Layer.CORE
    use_count: int = 0
    last_uses: list[datetime] = field(default_factory=list)
    version: int = 1
    content_hash: str = ""
    overdue_since: datetime | None = None  # when a sleep first found it past its due date
    at_precision: str | None = None  # "day", "week", "month", "year": ``at`` spans that unit

    @property
    def scope(self) -> Scope:
        return Scope(self.user, self.agent)

    @property
    def current(self) -> bool:
        """True while the fact holds: not superseded and not forgotten."""
        return self.invalid_at is None and self.layer != Layer.DELETED

    @property
    def erased(self) -> bool:
        """A hard forget's tombstone: deleted, empty content (no memory is written empty)."""
        return self.layer == Layer.DELETED and not self.content

    def scrubbed(self) -> Record:
        """This record without anything it said: no content, metadata, anchors, context or
        emotion. Its id, scope, kind, URI, times and version stay (they name a slot, not what
        was in it). What a hard forget keeps, in the record and in every event snapshot."""
        return self.replace(content="", content_hash="", metadata={}, people=[], places=[],
                            topics=[], keywords=[], context=None, valence=0.0, intensity=0.0)

    def replace(self, **changes: Any) -> Record:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass
class Draft:
    """A memory to be written by ``remember_many``; the fields mirror ``remember``'s arguments."""

    content: str
    kind: str | Kind | None = None     # None: "fact", or the current kind when a URI is rewritten
    uri: str | None = None
    at: datetime | date | str | None = None  # a date or "2025-03" spans that day or month
    importance: float | None = None
    metadata: dict[str, Any] | None = None
    people: list[str] | None = None
    places: list[str] | None = None
    topics: list[str] | None = None
    priority: str | Priority | None = None
    expires_at: datetime | str | None = None  # ISO 8601 text too; no time zone: UTC
    due_at: datetime | str | None = None
    session: str | None = None
    turn: str | None = None
    context: str | None = None         # nearby text that helps find it, e.g. the previous turn
    at_precision: str | None = None    # "day", "week", "month", "year"; None: ``at`` is a moment
    valence: float | None = None       # [-1, 1]; None: read from the content (text/emotion.py)
    intensity: float | None = None     # [0, 1]; None: read from the content


@dataclass
class WriteResult:
    """What a write did (``action``), which rule decided it, and the memory it concerns.

    ``evidence`` says why (write/supersede.py): for SUPERSEDE the old id, slot and values; for a
    near-duplicate NOOP the similarities; the surprise of a fact. A REJECT (rule
    "quality_gate", ``evidence["failed"]`` lists the criteria) stored nothing: its memory is the
    refused record, whose id names nothing in the store."""

    action: Action
    rule: str
    memory: Record
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "rule": self.rule,
            "evidence": _plain(self.evidence),
            "memory": self.memory.to_dict(),
        }


@dataclass
class LegScore:
    """One candidate leg's view of a hit: its rank (1 = best) and raw score."""

    rank: int
    score: float


@dataclass
class Explanation:
    """Why a hit is where it is: every leg's rank and score, the fusion and the blend."""

    legs: dict[str, LegScore] = field(default_factory=dict)
    fused: float = 0.0
    strength: float = 0.0
    terms: dict[str, float] = field(default_factory=dict)
    final: float = 0.0
    notes: list[str] = field(default_factory=list)
    summary: str = ""  # the same in one line a person can read (recall/why.py)

    def to_dict(self) -> dict[str, Any]:
        return {
            "legs": {k: {"rank": v.rank, "score": round(v.score, 6)} for k, v in self.legs.items()},
            "fused": round(self.fused, 6),
            "strength": round(self.strength, 6),
            "terms": {k: round(v, 6) for k, v in self.terms.items()},
            "final": round(self.final, 6),
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        legs = " ".join(f"{k}#{v.rank}({v.score:.3g})" for k, v in self.legs.items())
        terms = " ".join(f"{k}={v:.3g}" for k, v in self.terms.items() if k != "rrf")
        notes = f" [{'; '.join(self.notes)}]" if self.notes else ""
        return f"{legs or 'no leg'} -> rrf={self.fused:.4f} {terms}{notes}"


@dataclass
class Hit:
    memory: Record
    score: float
    explanation: Explanation
    woken: bool = False  # found in the archive by the query's cues (recall/wake.py)
    verdict: Verdict | None = None  # does it still hold? (recall/judge.py)

    @property
    def why(self) -> str:
        """One line a person can read: why this hit, what it is, how old (recall/why.py)."""
        e = self.explanation
        return e.summary or "; ".join(e.notes[:1]) or "found by " + (", ".join(e.legs) or "-")

    def to_dict(self) -> dict[str, Any]:
        return {"score": round(self.score, 6), "memory": self.memory.to_dict(),
                "explanation": self.explanation.to_dict(), "woken": self.woken, "why": self.why,
                "verdict": self.verdict.to_dict() if self.verdict is not None else None}


MAX_K = 1000  # the most hits one recall, context or focus may ask for


class Hits(list[Hit]):
    """The hits of one recall, best first, plus whether the recall abstained and why."""

    def __init__(
        self,
        hits: Iterable[Hit] = (),
        *,
        abstained: bool = False,
        note: str = "",
        plan: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(hits)
        self.abstained = abstained
        self.note = note
        self.plan = plan or {}

    def memories(self) -> Iterator[Record]:
        return (h.memory for h in self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "abstained": self.abstained,
            "note": self.note,
            "plan": self.plan,
            "hits": [h.to_dict() for h in self],
        }


@dataclass
class Version:
    """One version of a record, read from the event log: what it was (``memory``), what made
    it (``op``), who (the memory's scope and, where known, an ``actor`` such as "user",
    "sleep" or "import") and why (``reason``, where known). ``current``: this is the value that
    holds now (the newest version of the chain's current record); ``Memory.history`` lists a
    whole supersession chain, oldest first, so exactly one version of a live chain is current."""

    version: int
    op: str
    at: datetime
    memory: Record
    actor: str | None = None
    reason: str | None = None
    current: bool = False

    @property
    def who(self) -> str:
        scope = f"{self.memory.user}/{self.memory.agent}"
        return f"{scope} ({self.actor})" if self.actor else scope

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "op": self.op,
            "at": self.at.isoformat(),
            "user": self.memory.user,
            "agent": self.memory.agent,
            "actor": self.actor,
            "reason": self.reason,
            "current": self.current,
            "memory": self.memory.to_dict(),
        }


@dataclass
class Boot:
    """What an agent loads at start (``Memory.boot``): the memories in load order, the listed
    URIs that named no memory, the estimated tokens of what was kept, whether the budget
    cut the list short, and (with ``Config.review_due``) the memories due for review, which
    count in ``tokens`` and come after the boot list while they fit; ``warnings``: the
    profile's capacity and pending reminders (io/profile.py, ``Config.profile_budget``);
    ``still_true``: facts unconfirmed for long, under ``still_true_title`` (stilltrue.py)."""

    memories: list[Record]
    missing: list[str] = field(default_factory=list)
    tokens: int = 0
    truncated: bool = False
    due: list[Record] = field(default_factory=list)  # due for review (Config.review_due)
    warnings: list[str] = field(default_factory=list)  # the profile's (io/profile.py)
    still_true: list[Record] = field(default_factory=list)  # unconfirmed for long
    still_true_title: str = "Still true?"

    def to_dict(self) -> dict[str, Any]:
        return {"memories": [m.to_dict() for m in self.memories], "missing": list(self.missing),
                "tokens": self.tokens, "truncated": self.truncated,
                "due": [m.to_dict() for m in self.due], "warnings": list(self.warnings),
                "still_true": [m.to_dict() for m in self.still_true],
                "still_true_title": self.still_true_title}


@dataclass
class Stats:
    user: str
    agent: str
    total: int
    by_layer: dict[str, int]
    by_kind: dict[str, int]
    events: int
    embedder: str
    dimensions: int
    path: str
    pending_vectors: int = 0   # memories still waiting for their vector (Config.embed)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class GoalStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    DONE = "done"


@dataclass
class Goal:
    """One goal of a scope's goal stack (attention/goals.py). At most one goal of a scope is
    active. ``parent``: the goal that was active when this one started (it was paused for it,
    and resumes when this one is done). ``open_loops``: questions or tasks still open;
    ``evidence``: what was found or done towards it."""

    id: str
    user: str
    agent: str
    title: str
    status: GoalStatus
    created_at: datetime
    updated_at: datetime
    constraints: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    open_loops: list[str] = field(default_factory=list)
    parent: str | None = None
    closed_at: datetime | None = None

    @property
    def scope(self) -> Scope:
        return Scope(self.user, self.agent)

    def replace(self, **changes: Any) -> Goal:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


class Role(StrEnum):
    """What an API key may do: read (get, list, recall, history...), write (also remember,
    update, forget, restore, sleep), admin (also act on any scope)."""

    READ = "read"
    WRITE = "write"
    ADMIN = "admin"


@dataclass(frozen=True)
class ApiKey:
    """An HTTP API key as stored: its public id, the scope it is bound to, its role and name.
    The secret itself is never stored, only its SHA-256 hash (engramdb/keys.py)."""

    id: str
    user: str
    agent: str
    role: Role
    name: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def scope(self) -> Scope:
        return Scope(self.user, self.agent)

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "user": self.user, "agent": self.agent, "role": self.role.value,
                "name": self.name, "created_at": self.created_at.isoformat(),
                "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None}

RELATIONS = ("related", "caused", "reminds", "evolved", "contradicts", "supersedes", "gist_of",
             "derived_from", "associated")


@dataclass
class Link:
    """A typed, directed edge between two memories of one scope. ``associated`` links are the
    system's own (co-activation by tracked recalls, recall/associate.py); the others are given
    by a user or written by the system (supersedes, gist_of, derived_from)."""

    source: str
    target: str
    relation: str
    weight: float
    created_at: datetime
    updated_at: datetime
    user: str = "default"
    agent: str = "default"

    def other(self, memory_id: str) -> str:
        """The end of this link that is not ``memory_id``."""
        return self.target if self.source == memory_id else self.source

    def to_dict(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in dataclasses.asdict(self).items()}
@dataclass
class Message:
    """One turn of a conversation for ``Memory.ingest``: who spoke (``role``: "user",
    "assistant", "system"...; ``speaker``: a name, optional), what was said, and when (``at``;
    None: the ingest's ``at``, else now)."""

    role: str
    content: str
    at: datetime | None = None
    speaker: str | None = None


@dataclass
class IngestReport:
    """What ``Memory.ingest`` did: the session id, how many turns it read and kept as events,
    the write results of the extracted memories (each links back to its turn), which extractor
    ran ("rules" or "llm") and, when the LLM was asked but the rules ran, why."""

    session: str
    turns: int
    events: list[WriteResult] = field(default_factory=list)
    extracted: list[WriteResult] = field(default_factory=list)
    extractor: str = "rules"
    fallback_reason: str | None = None
    repeated_turns: int = 0  # turns already ingested (same content and time): not extracted again
    skipped_turns: int = 0   # turns not kept (no words: "...", "👍")
    offloaded_turns: int = 0  # turns over the size limit: kept whole in a blob (write/offload.py)
    forgotten: list[Record] = field(default_factory=list)  # "forget that ...": commands.py

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for result in self.extracted:
            out[result.action.value] = out.get(result.action.value, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session, "turns": self.turns, "extractor": self.extractor,
            "fallback_reason": self.fallback_reason, "counts": self.counts(),
            "repeated_turns": self.repeated_turns, "skipped_turns": self.skipped_turns,
            "offloaded_turns": self.offloaded_turns, "events": [r.memory.id for r in self.events],
            "extracted": [r.to_dict() for r in self.extracted],
            "forgotten": [{"id": r.id, "content": r.content} for r in self.forgotten],
        }

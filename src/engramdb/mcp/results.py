"""The result models of the MCP tools: they mirror the engine's ``to_dict()`` output and allow
extra fields, so a record that grows a field still validates (argument models: schema.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Out(BaseModel):
    model_config = ConfigDict(extra="allow")


class MemoryOut(Out):
    id: str
    user: str
    agent: str
    content: str
    kind: str
    uri: str | None
    priority: str
    lifecycle: str
    importance: float
    at: str
    recorded_at: str
    updated_at: str
    metadata: dict[str, Any]
    people: list[str]
    places: list[str]
    topics: list[str]
    layer: str
    version: int
    invalid_at: str | None = None
    superseded_by: str | None = None


class WriteOut(Out):
    action: Literal["add", "update", "supersede", "noop", "reject"]
    rule: str
    evidence: dict[str, Any]
    memory: MemoryOut


class WritesOut(Out):
    results: list[WriteOut]


class LegOut(Out):
    rank: int
    score: float


class ExplanationOut(Out):
    legs: dict[str, LegOut]
    fused: float
    strength: float
    terms: dict[str, float]
    final: float
    notes: list[str]


class ReasonOut(Out):
    code: str
    weight: float
    detail: str


class VerdictOut(Out):
    label: Literal["approved", "questionable"]
    confidence: float = Field(description="In the label, 0.5 to 1")
    doubt: float = Field(description="The chance it no longer holds")
    reasons: list[ReasonOut]
    lang: str = Field(description="The question's language, which text is in")
    text: str


class HitOut(Out):
    score: float
    memory: MemoryOut
    explanation: ExplanationOut
    woken: bool
    why: str = Field("", description="Why it was found, in one line a person can read")
    verdict: VerdictOut | None = Field(None, description="Does it still hold: approved or "
                                       "questionable, with a confidence and the reasons")


class RecallOut(Out):
    abstained: bool
    note: str
    plan: dict[str, Any]
    hits: list[HitOut]


class ListOut(Out):
    memories: list[MemoryOut]
    total: int = Field(description="How many match the filters, all pages together")


class VersionOut(Out):
    version: int
    op: str
    at: str
    actor: str | None
    reason: str | None
    current: bool
    memory: MemoryOut


class HistoryOut(Out):
    versions: list[VersionOut]


class BootOut(Out):
    memories: list[MemoryOut]
    missing: list[str]
    tokens: int
    truncated: bool
    due: list[MemoryOut] = Field(description="Due for review (Config.review_due)")
    warnings: list[str] = Field(description="The profile's capacity and pending reminders")
    still_true: list[MemoryOut] = Field([], description="Facts unconfirmed for long: ask "
                                        "whether they still hold, then confirm one")
    still_true_title: str = "Still true?"


class PhaseOut(Out):
    phase: str
    examined: int
    counts: dict[str, int]
    ids: dict[str, list[str]]
    seconds: float
    note: str


class SleepOut(Out):
    user: str
    agent: str
    at: str
    phases: list[PhaseOut]
    skipped: dict[str, str]
    mode: str = Field(description="full, incremental, or phase (one phase alone)")
    visited: int


class ReviewOut(Out):
    id: str
    content: str
    kind: str
    reviews: int
    difficulty: float
    stability_days: float
    last_review: str
    interval_days: float
    due_at: str
    retrievability: float
    overdue_days: float


class FeedbackOut(Out):
    id: str
    useful: bool
    importance_before: float
    importance: float
    uses: int
    version: int


class ReviewsOut(Out):
    reviews: list[ReviewOut] = Field(description="Due now, least retrievable first")


class ProfileCheckOut(Out):
    tokens: int
    budget: int
    pending: int
    overdue: int
    warnings: list[str]


class BriefOut(Out):
    id: str
    kind: str
    content: str
    at: str
    current: bool


class EntityOut(Out):
    name: str
    kinds: list[str] = Field(description="person, place, topic: how its memories tag it")
    aliases: list[str]
    first_seen: str
    last_seen: str
    memories: int
    facts: list[BriefOut] = Field(description="What holds now, oldest first")
    episodes: list[BriefOut] = Field(description="Events about it, newest first")
    history: list[list[BriefOut]] = Field(description="Each chain of values, oldest first")


class StatsOut(Out):
    user: str
    agent: str
    total: int
    by_layer: dict[str, int]
    by_kind: dict[str, int]
    events: int
    embedder: str
    dimensions: int
    path: str


class StrengthOut(Out):
    id: str
    kind: str
    layer: str
    priority: str
    uses: int
    weight: float
    retention: float
    half_life_days: float | None
    archivable: bool


class SnapshotInfoOut(Out):
    name: str
    user: str
    agent: str
    at: str
    memories: int
    bytes: int


class SnapshotOut(Out):
    action: str
    snapshots: list[SnapshotInfoOut] = Field(
        description="take: the one taken; list: the scope's, newest first; restore: the one "
        "restored")
    restored: dict[str, int] | None = Field(
        None, description="restore: {removed, restored, reembedded}")


class LinkOut(Out):
    source: str
    target: str
    relation: str
    weight: float
    created_at: str
    updated_at: str


class LinksOut(Out):
    links: list[LinkOut]
    removed: int | None = Field(None, description="unlink: how many links were removed")


class PathHitsOut(Out):
    hits: list[HitOut]


class SectionOut(Out):
    name: str
    title: str
    lines: list[str]
    tokens: int


class ContextOut(Out):
    text: str
    tokens: int
    budget: int
    encoding: str
    sections: list[SectionOut]
    cut: list[dict[str, Any]]


class IngestOut(Out):
    session: str
    turns: int
    extractor: str
    fallback_reason: str | None
    counts: dict[str, int]
    repeated_turns: int
    skipped_turns: int = 0
    offloaded_turns: int = 0
    events: list[str]
    extracted: list[WriteOut]
    forgotten: list[dict[str, str]] = []


class MemoriesOut(Out):
    memories: list[MemoryOut]


class WorkspaceOut(Out):
    query: str
    goal: dict[str, Any] | None
    uncertain: bool
    cues: list[str]
    procedures: list[dict[str, Any]]
    memories: list[dict[str, Any]]
    audit: list[dict[str, Any]]


class GoalOut(Out):
    id: str
    title: str
    status: str
    constraints: list[str]
    evidence: list[str]
    open_loops: list[str]
    parent: str | None


class GoalsOut(Out):
    action: str
    goals: list[GoalOut] = Field(description="The goal acted on, or the goals listed")
    active: GoalOut | None = Field(None, description="The active goal after the action")


class SessionOut(Out):
    action: str
    session: dict[str, Any] | None = Field(None, description="add/show: the session's window")
    turn: dict[str, Any] | None = Field(None, description="add: the turn added")
    handover: dict[str, Any] | None = Field(None, description="end: what long-term memory got")
    content: str | None = Field(None, description="fetch: the offloaded turn's whole text")
    sessions: list[str] | None = Field(None, description="list: the scope's session ids")


class ProceduresOut(Out):
    action: str
    procedures: list[dict[str, Any]]


class LearnOut(Out):
    added: bool
    id: str
    uri: str | None
    rule: str
    mistake: str | None


class MarkdownOut(Out):
    format: str
    text: str


class StillTrueOut(Out):
    id: str
    content: str
    kind: str
    priority: str
    importance: float
    last_confirmed: str
    period_days: float
    unconfirmed_days: float
    doubt: float
    queued: bool
    next_at: str


class StillTrueQueueOut(Out):
    queue: list[StillTrueOut]

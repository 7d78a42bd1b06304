"""The MCP door's schemas: what each tool takes and what its structured result holds.

Pydantic lives here, at the edge (DESIGN.md). Argument models forbid unknown fields, so a
call with a misspelt or unexpected argument is rejected by the schema before the engine runs.
Result models mirror the engine's ``to_dict()`` output; they allow extra fields so a record
that grows a field still validates. Limits here are first checks for the caller's benefit:
the engine stays the authority (e.g. content is limited in UTF-8 bytes there, in characters
here)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from pydantic import BaseModel, ConfigDict, Field

from .engine import MAX_K
from .model import Kind, Layer

KindName = Literal[tuple(k.value for k in Kind)]  # type: ignore[valid-type]
LayerName = Literal[tuple(x.value for x in Layer)]  # type: ignore[valid-type]
PhaseName = Literal["sync", "decay", "tidy", "govern"]
MAX_CHARS = 65536   # characters; the engine also limits UTF-8 bytes (Config.max_content_bytes)
MAX_TEXT = 4096     # queries, reasons, names
MAX_ITEMS = 100     # remember_many
MAX_LIST = 1000

Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
Ref = Annotated[str, Field(min_length=1, max_length=600,
                           description="A memory id, or its URI such as core://user/name")]
MemoryId = Annotated[str, Field(min_length=1, max_length=600, description="A memory id")]
Time = Annotated[str, Field(max_length=64, description="ISO 8601; no timezone means UTC")]
Names = Annotated[list[Annotated[str, Field(max_length=MAX_TEXT)]], Field(max_length=64)]


class Args(ArgModelBase):
    """Base of every tool's arguments: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")


class ScopeArgs(Args):
    """Added to every tool when the operator allows a scope per call."""

    user: Text | None = Field(None, description="User scope; default: the server's user")
    agent: Text | None = Field(None, description="Agent scope; default: the server's agent")


class RememberArgs(Args):
    content: Annotated[str, Field(min_length=1, max_length=MAX_CHARS,
                                  description="What to remember (English, 中文, ...)")]
    kind: KindName | None = Field(None, description="Default fact (or the URI's current kind)")
    uri: Text | None = Field(None, description="A slot such as core://user/name; remembering "
                             "the same URI again updates it")
    at: Time | None = Field(None, description="When it happened (ISO 8601); default now")
    importance: float | None = Field(None, ge=0, le=1)
    metadata: dict[str, Any] | None = Field(None, description="Kept unchanged on the memory")
    people: Names | None = None
    places: Names | None = None
    topics: Names | None = None
    priority: Literal["P0", "P1", "P2", "P3"] | None = None
    expires_at: Time | None = None
    due_at: Time | None = None
    session: Text | None = None
    turn: Text | None = None
    context: Annotated[str, Field(max_length=MAX_CHARS)] | None = Field(
        None, description="Nearby text that helps find it later (searched, not returned)")


class RememberManyArgs(Args):
    items: list[RememberArgs] = Field(min_length=1, max_length=MAX_ITEMS,
                                   description="Memories written in one transaction: one bad "
                                   "item rejects them all")


class RecallArgs(Args):
    query: Text
    k: int = Field(5, ge=1, le=MAX_K)
    kinds: list[KindName] | None = Field(None, description="Only these kinds")
    preset: Text | None = Field(None, description="Recall preset name")
    track: bool = Field(True, description="False: a pure read that changes no strength")


class RefArgs(Args):
    id: Ref


class ListArgs(Args):
    kind: list[KindName] | None = None
    uri_prefix: Text | None = Field(None, description="e.g. core://user/")
    since: Time | None = None
    until: Time | None = None
    layer: list[LayerName] | None = Field(None, description="Default: core")
    include_superseded: bool = True
    limit: int = Field(50, ge=0, le=MAX_LIST)
    offset: int = Field(0, ge=0)
    newest_first: bool = False


class UpdateArgs(Args):
    id: MemoryId
    content: Annotated[str, Field(min_length=1, max_length=MAX_CHARS)] | None = None
    kind: KindName | None = None
    uri: Text | None = None
    importance: float | None = Field(None, ge=0, le=1)
    metadata: dict[str, Any] | None = None
    people: Names | None = None
    places: Names | None = None
    topics: Names | None = None
    at: Time | None = None


class ForgetArgs(Args):
    id: MemoryId
    hard: bool = Field(False, description="Erase for good (content and history); no restore")
    reason: Text | None = None


class RestoreArgs(Args):
    id: MemoryId


class RollbackArgs(Args):
    id: MemoryId
    version: int = Field(ge=1, description="The version to say again (see history)")
    reason: Text | None = None


class BootArgs(Args):
    budget: int | None = Field(None, ge=0, le=1_000_000, description="At most this many tokens")


class SleepArgs(Args):
    phase: PhaseName | None = Field(None, description="One phase only; default all")


class NoArgs(Args):
    pass


class SnapshotArgs(Args):
    action: Literal["take", "list", "restore"] = Field(
        "list", description="take: snapshot the scope; list: its snapshots; restore: replace "
        "everything the scope holds with snapshot `name`")
    name: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="For restore: a name from list")


# ---------------------------------------------------------------- results


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


class HitOut(Out):
    score: float
    memory: MemoryOut
    explanation: ExplanationOut
    woken: bool


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


# ---------------------------------------------------------------- association, context,
# conversations, working memory, attention (the tools of mcp_more.py)

RelationName = Literal["related", "caused", "reminds", "evolved", "contradicts", "supersedes",
                       "gist_of", "derived_from", "associated"]
Lines = Annotated[list[Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]],
                  Field(max_length=64)]


class LinkArgs(Args):
    source: Ref
    target: Ref
    relation: RelationName = "related"
    weight: float = Field(0.5, ge=0, le=1)


class UnlinkArgs(Args):
    source: Ref
    target: Ref
    relation: RelationName | None = Field(None, description="Only this relation; default all")


class RelatedArgs(Args):
    id: Ref
    hops: int = Field(2, ge=1, le=3, description="Links away")


class PathArgs(Args):
    uri: Annotated[str, Field(min_length=1, max_length=600,
                              description="A URI, or a prefix ending in / (core://user/)")]
    hops: int = Field(0, ge=0, le=3, description="Then this many links away")


class ContextArgs(Args):
    query: Text
    budget: int = Field(800, ge=1, le=1_000_000, description="At most this many tokens")
    session: Text | None = Field(None, description="Add this session's summary and turns")
    k: int = Field(8, ge=1, le=MAX_K)
    track: bool = True
    encoding: Literal["cl100k_base", "o200k_base", "estimate"] | None = None


class MessageArgs(Args):
    role: Annotated[str, Field(min_length=1, max_length=64, description="user, assistant...")]
    content: Annotated[str, Field(min_length=1, max_length=MAX_CHARS)]
    at: Time | None = None
    speaker: Text | None = None


class IngestArgs(Args):
    messages: list[MessageArgs] = Field(min_length=1, max_length=1000)
    session: Text | None = Field(None, description="The conversation's id; default a new one")
    at: Time | None = Field(None, description="When turns without `at` happened; default now")
    extractor: Literal["auto", "rules", "llm"] = "auto"
    keep_turns: bool = Field(True, description="Keep each turn as an event memory")


class FocusArgs(Args):
    query: Text
    k: int = Field(5, ge=1, le=MAX_K)
    track: bool = True


class GoalArgs(Args):
    action: Literal["start", "pause", "resume", "done", "note", "list"] = Field(
        "list", description="start (needs title), pause/done/note (the active goal unless "
        "id), resume (needs id), list (status filter)")
    id: Text | None = None
    title: Text | None = None
    constraints: Lines | None = None
    open_loops: Lines | None = None
    close_loops: Lines | None = None
    evidence: Lines | None = None
    status: list[Literal["active", "paused", "done"]] | None = None


class SessionArgs(Args):
    action: Literal["add", "show", "end", "fetch", "list"] = Field(
        "show", description="add a turn (role, content, pin), show the window, end (hand the "
        "turns to long-term memory), fetch an offloaded turn (ref), list session ids")
    id: Text | None = Field(None, description="The session id (all actions but list)")
    role: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    content: Annotated[str, Field(min_length=1, max_length=MAX_CHARS)] | None = None
    pin: bool = False
    ref: Text | None = Field(None, description="For fetch: a wm-... reference")


class ProcedureArgs(Args):
    action: Literal["add", "list", "outcome", "triggered"] = Field(
        "list", description="add (title, steps, triggers), list, outcome (id, success), "
        "triggered (the procedures a query or the active goal fires)")
    id: Ref | None = None
    title: Text | None = None
    steps: Lines | None = None
    triggers: Lines | None = None
    confidence: float | None = Field(None, ge=0, le=1)
    success: bool | None = None
    query: Text | None = None


class LearnArgs(Args):
    mistake: Text
    rule: Text


class MarkdownArgs(Args):
    format: Literal["memory-md", "agents-md"] = Field(
        "memory-md", description="memory-md: the zoned MEMORY.md; agents-md: the rules block")
    uris: bool = Field(False, description="memory-md: show each memory's URI")


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
    events: list[str]
    extracted: list[WriteOut]


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

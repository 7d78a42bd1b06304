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

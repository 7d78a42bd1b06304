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
from pydantic import ConfigDict, Field

from ..dynamics.review import MAX_K as MAX_REVIEW
from ..dynamics.sleep import PHASES
from ..model import MAX_K, Kind, Layer
from ..write.prepare import KIND_ALIASES

# engramdb's kinds, then the design's names for them (knowledge, idea, story, interaction)
KindName = Literal[(*(k.value for k in Kind), *KIND_ALIASES)]  # type: ignore[valid-type]
LayerName = Literal[tuple(x.value for x in Layer)]  # type: ignore[valid-type]
PhaseName = Literal[PHASES]  # type: ignore[valid-type]
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
    valence: float | None = Field(None, ge=-1, le=1, description="Feeling, -1 (bad) to 1 "
                                  "(good); default: read from the content")
    intensity: float | None = Field(None, ge=0, le=1, description="How strongly felt, 0 to 1; "
                                    "default: read from the content")


class RememberManyArgs(Args):
    items: list[RememberArgs] = Field(min_length=1, max_length=MAX_ITEMS,
                                   description="Memories written in one transaction: one bad "
                                   "item rejects them all")


REVEAL = ("True: the values the PII policy masked in place of their placeholders "
          "([email#3f9a...]); needs an admin key when the server checks keys")


class RecallArgs(Args):
    query: Text
    k: int = Field(5, ge=1, le=MAX_K)
    kinds: list[KindName] | None = Field(None, description="Only these kinds")
    uri_prefix: Text | None = Field(None, description="Only memories under this URI prefix")
    preset: Text | None = Field(None, description="Recall preset name")
    track: bool = Field(True, description="False: a pure read that changes no strength")
    reveal: bool = Field(False, description=REVEAL)
    # checked by the engine (recall/hints.py): at most 64 keywords, each at most 1000 chars
    keywords: list[str] | None = Field(None, description="Words to match too")
    time_context: str | dict[str, str] | None = Field(
        None, description='When: "last week", "上周", "2025-03" or {start, end}')
    include_cold: bool = Field(False, description="True: search the cold tier too (memories "
                               "archived for long); a strong cue brings them back")


class RefArgs(Args):
    id: Ref


class GetArgs(RefArgs):
    reveal: bool = Field(False, description=REVEAL)


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
    valence: float | None = Field(None, ge=-1, le=1, description="Feeling, -1 to 1; default: "
                                  "read from new content, else kept")
    intensity: float | None = Field(None, ge=0, le=1, description="How strongly felt, 0 to 1; "
                                    "default: read from new content, else kept")


class ForgetArgs(Args):
    id: MemoryId
    hard: bool = Field(False, description="Erase for good (content and history); no restore")
    reason: Text | None = None


class RestoreArgs(Args):
    id: MemoryId


class FeedbackArgs(Args):
    id: MemoryId
    useful: bool = Field(description="true: the memory helped (it is strengthened); false: it "
                                     "did not (it is weakened)")


class RollbackArgs(Args):
    id: MemoryId
    version: int = Field(ge=1, description="The version to say again (see history)")
    reason: Text | None = None


class BootArgs(Args):
    budget: int | None = Field(None, ge=0, le=1_000_000, description="At most this many tokens")


class SleepArgs(Args):
    phase: PhaseName | None = Field(None, description="One phase only; default all")
    full: bool = Field(False, description="Look at every memory, not only what changed "
                       "since the last sleep")


class ReviewArgs(Args):
    k: int = Field(10, ge=1, le=MAX_REVIEW, description="At most this many")


class ConfirmArgs(RefArgs):
    content: Annotated[str, Field(min_length=1, max_length=MAX_CHARS)] | None = Field(
        None, description="It holds in these words now (its content is updated first)")


class ProfileArgs(Args):
    budget: int | None = Field(None, ge=1, le=1_000_000, description="The profile's token "
                               "budget; default the configured one (2000)")


class NoArgs(Args):
    pass


class EntityArgs(Args):
    name: str = Field(min_length=1, max_length=200, description="A person, place, project "
                      "or topic, as the memories name it (e.g. \"Wang Lei\", \"柏林\")")


class SnapshotArgs(Args):
    action: Literal["take", "list", "restore"] = Field(
        "list", description="take: snapshot the scope; list: its snapshots; restore: replace "
        "everything the scope holds with snapshot `name`")
    name: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="For restore: a name from list")


# ---------------------------------------------------------------- association, context,
# conversations, working memory, attention (the tools of agent_tools.py)

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



"""Request bodies of the HTTP API (pydantic lives here and nowhere else). Strict: a field of
the wrong type or an unknown field is refused (422), nothing is coerced. Each body turns into
the engine's own arguments; the engine checks the values (kinds, URIs, sizes, times). Times
are ISO 8601 text, read by the engine as every door reads them (clock.aware): without a time
zone, UTC."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from ..model import Draft

_STRICT = ConfigDict(extra="forbid", strict=True)
Time = Annotated[str, Field(max_length=64, description="ISO 8601, such as 2026-01-01T10:00:00Z "
                            "or 2026-01-01; without a time zone: UTC.")]


class RememberIn(BaseModel):
    """One memory to remember (the fields of ``Memory.remember``)."""

    model_config = _STRICT
    content: str = Field(description="What to remember (Chinese and English alike).")
    kind: str | None = Field(None, description="identity, preference, fact, event, lesson, "
                             "rule, procedure, pending, gist, emotion (default fact); the "
                             "aliases knowledge, idea (fact), story, interaction (event).")
    uri: str | None = Field(None, description="A slot such as core://user/name.")
    at: Time | None = Field(None, description="When it happened (ISO 8601; no zone: UTC).")
    importance: float | None = Field(None, description="0 to 1.")
    metadata: dict[str, Any] | None = Field(None, description="Kept unchanged on the memory.")
    people: list[str] | None = None
    places: list[str] | None = None
    topics: list[str] | None = None
    priority: str | None = Field(None, description="P0 to P3.")
    expires_at: Time | None = None
    due_at: Time | None = None
    session: str | None = None
    turn: str | None = None
    context: str | None = Field(None, description="Nearby text that helps find it.")
    valence: float | None = Field(None, description="The feeling, -1 to 1; none: read from "
                                  "the content.")
    intensity: float | None = Field(None, description="How strongly felt, 0 to 1; none: read "
                                    "from the content.")

    def draft(self) -> Draft:
        return Draft(**self.model_dump())


class BatchIn(BaseModel):
    """Many memories, written in one transaction: one bad item refuses them all."""

    model_config = _STRICT
    items: list[RememberIn]


class UpdateIn(BaseModel):
    """The fields to change (at least one); the rest stay as they are."""

    model_config = _STRICT
    content: str | None = None
    kind: str | None = None
    uri: str | None = None
    importance: float | None = None
    metadata: dict[str, Any] | None = None
    people: list[str] | None = None
    places: list[str] | None = None
    topics: list[str] | None = None
    at: Time | None = None
    valence: float | None = Field(None, description="The feeling, -1 to 1; none: read from "
                                  "new content, else kept.")
    intensity: float | None = Field(None, description="How strongly felt, 0 to 1; none: read "
                                    "from new content, else kept.")


class RollbackIn(BaseModel):
    model_config = _STRICT
    version: int = Field(description="The version to say again (see history).")
    reason: str | None = None


class ConfirmIn(BaseModel):
    model_config = _STRICT
    content: str | None = Field(None, description="It holds in these words now: its content "
                                "is updated first.")


class WindowIn(BaseModel):
    model_config = _STRICT
    start: str | None = None
    end: str | None = None


class RecallIn(BaseModel):
    model_config = _STRICT
    query: str
    k: int = Field(5, description="How many hits, 1 to Config.http_max_k.")
    kinds: list[str] | None = None
    uri_prefix: str | None = Field(None, description="Only memories under this URI prefix "
                                   "(project://billing/).")
    preset: str | None = None
    track: bool = Field(True, description="Count the hits as used (write keys only; a read "
                        "key's recall never changes anything).")
    reveal: bool = Field(False, description="Admin keys only: the values the PII policy "
                         "masked in place of their placeholders.")
    keywords: list[str] | None = Field(None, description="More words to match lexically.")
    time_context: str | WindowIn | None = Field(
        None, description='When the answer happened: words ("last week", "上周", "2025-03") '
        'or {"start", "end"} (ISO 8601, either may be left out).')
    include_cold: bool = Field(False, description="Search the cold tier too (memories "
                               "archived for Config.cold_after); a strong cue brings what it "
                               "finds there back to core.")


class SleepIn(BaseModel):
    model_config = _STRICT
    phase: str | None = Field(None, description="sync, decay, tidy, lessons, consolidate or "
                              "govern; none: all.")
    full: bool = Field(False, description="Look at everything, not only what changed since "
                       "the last sleep.")


# ---------------------------------------------------------------- routes_more.py


class LinkIn(BaseModel):
    model_config = _STRICT
    source: str = Field(description="A memory id or URI.")
    target: str = Field(description="A memory id or URI.")
    relation: str = Field("related", description="related, caused, reminds, evolved, "
                          "contradicts, supersedes, gist_of, derived_from, associated.")
    weight: float = Field(0.5, description="0 to 1.")


class ContextIn(BaseModel):
    model_config = _STRICT
    query: str
    budget: int = Field(800, description="At most this many tokens.")
    session: str | None = Field(None, description="Add this session's summary and turns.")
    k: int = Field(8, description="Relevant memories to consider.")
    track: bool = Field(True, description="Count the memories used (write keys only).")
    encoding: str | None = Field(None, description="cl100k_base, o200k_base or estimate.")


class FocusIn(BaseModel):
    model_config = _STRICT
    query: str
    k: int = 5
    track: bool = Field(True, description="Count the memories used (write keys only).")


class MessageIn(BaseModel):
    model_config = _STRICT
    role: str = Field(description="user, assistant, system...")
    content: str
    at: Time | None = Field(None, description="ISO 8601; no zone: UTC.")
    speaker: str | None = None


class IngestIn(BaseModel):
    model_config = _STRICT
    messages: list[MessageIn]
    session: str | None = Field(None, description="The conversation's id; default a new one.")
    at: Time | None = Field(None, description="When turns without `at` happened.")
    extractor: str = Field("auto", description="auto, rules or llm.")
    keep_turns: bool = Field(True, description="Keep each turn as an event memory.")

    def turns(self) -> list[dict[str, Any]]:
        return [m.model_dump(exclude_none=True) for m in self.messages]


class GoalIn(BaseModel):
    model_config = _STRICT
    title: str
    constraints: list[str] | None = None
    open_loops: list[str] | None = None


class GoalNoteIn(BaseModel):
    """What a goal action adds: evidence (done, note), loops and constraints (note)."""

    model_config = _STRICT
    evidence: list[str] | None = None
    open_loops: list[str] | None = None
    close_loops: list[str] | None = None
    constraints: list[str] | None = None


class ProcedureIn(BaseModel):
    model_config = _STRICT
    title: str
    steps: list[str]
    triggers: list[str]
    confidence: float | None = None


class OutcomeIn(BaseModel):
    model_config = _STRICT
    success: bool


class QueryIn(BaseModel):
    model_config = _STRICT
    query: str


class LearnIn(BaseModel):
    model_config = _STRICT
    mistake: str
    rule: str


class TurnIn(BaseModel):
    model_config = _STRICT
    role: str
    content: str
    pin: bool = Field(False, description="Keep it in the window (and as a rule at the end).")

"""Request bodies of the HTTP API (pydantic lives here and nowhere else). Strict: a field of
the wrong type or an unknown field is refused (422), nothing is coerced. Each body turns into
the engine's own arguments; the engine checks the values (kinds, URIs, sizes, times)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..model import Draft

_STRICT = ConfigDict(extra="forbid", strict=True)


class RememberIn(BaseModel):
    """One memory to remember (the fields of ``Memory.remember``)."""

    model_config = _STRICT
    content: str = Field(description="What to remember (Chinese and English alike).")
    kind: str | None = Field(None, description="identity, preference, fact, event, lesson, "
                             "rule, procedure, pending, gist, emotion (default fact).")
    uri: str | None = Field(None, description="A slot such as core://user/name.")
    at: datetime | None = Field(None, description="When it happened (ISO 8601 with a zone).")
    importance: float | None = Field(None, description="0 to 1.")
    metadata: dict[str, Any] | None = Field(None, description="Kept unchanged on the memory.")
    people: list[str] | None = None
    places: list[str] | None = None
    topics: list[str] | None = None
    priority: str | None = Field(None, description="P0 to P3.")
    expires_at: datetime | None = None
    due_at: datetime | None = None
    session: str | None = None
    turn: str | None = None
    context: str | None = Field(None, description="Nearby text that helps find it.")

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
    at: datetime | None = None


class RollbackIn(BaseModel):
    model_config = _STRICT
    version: int = Field(description="The version to say again (see history).")
    reason: str | None = None


class RecallIn(BaseModel):
    model_config = _STRICT
    query: str
    k: int = Field(5, description="How many hits, 1 to Config.http_max_k.")
    kinds: list[str] | None = None
    preset: str | None = None
    track: bool = Field(True, description="Count the hits as used (write keys only; a read "
                        "key's recall never changes anything).")


class SleepIn(BaseModel):
    model_config = _STRICT
    phase: str | None = Field(None, description="sync, decay, tidy or govern; none: all.")

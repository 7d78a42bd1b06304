"""What a working-memory session keeps in the store: its settings and summary, its turns, and
the blobs its heavy turns were offloaded to. Domain types, typed; the store knows no more."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Settings:
    """How a session's window is kept (defaults from Config: session_budget, session_keep,
    offload_tokens, encoding, summarizer)."""

    budget: int                 # tokens the window may hold
    keep: int                   # the newest turns, always kept verbatim
    offload_tokens: int         # a turn longer than this goes to a blob
    encoding: str               # token counting (text/tokens.py)
    summarizer: str             # extractive | llm

    def to_dict(self) -> dict[str, Any]:
        return {"budget": self.budget, "keep": self.keep, "offload_tokens": self.offload_tokens,
                "encoding": self.encoding, "summarizer": self.summarizer}


@dataclass(frozen=True)
class SessionInfo:
    id: str
    settings: Settings
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None = None
    summary: str = ""                               # the running summary, one point a line
    notes: list[str] = field(default_factory=list)  # what went differently (an LLM that failed)

    def replace(self, **changes: Any) -> SessionInfo:
        return replace(self, **changes)


@dataclass(frozen=True)
class Turn:
    """One message of a session. ``content`` is what stands in the window: for an offloaded
    turn, a one-line reference to its blob (``ref``). ``folded``: compressed into the summary,
    out of the window (the row stays, for the hand-over)."""

    seq: int
    role: str
    content: str
    at: datetime
    tokens: int
    pinned: bool = False
    ref: str | None = None
    folded: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "role": self.role, "content": self.content,
                "at": self.at.isoformat(), "tokens": self.tokens, "pinned": self.pinned,
                "ref": self.ref, "folded": self.folded}


@dataclass(frozen=True)
class Blob:
    ref: str
    session_id: str
    content: str
    tokens: int
    at: datetime

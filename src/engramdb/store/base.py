"""The Store protocol: where memories live. Typed in domain objects; it knows nothing of scoring."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np

from ..model import Layer, Record, Scope


@dataclass(frozen=True)
class IndexText:
    """Pre-tokenised text for full-text search: the body and the anchors (people, places...)."""

    body: str
    anchors: str
    context: str = ""


@dataclass(frozen=True)
class ListFilter:
    kinds: tuple[str, ...] = ()
    uri_prefix: str | None = None
    since: datetime | None = None        # on ``at``, inclusive
    until: datetime | None = None        # on ``at``, exclusive
    layers: tuple[Layer, ...] = (Layer.CORE,)
    current_only: bool = False           # hide superseded facts
    limit: int | None = None
    offset: int = 0
    newest_first: bool = False


@dataclass(frozen=True)
class Event:
    seq: int
    memory_id: str
    op: str
    version: int
    at: datetime
    snapshot: Record | None


class Store(Protocol):
    """Every method is scoped: no call can read or change another scope's memories."""

    location: str

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]:
        """One atomic unit of writes (re-entrant: nested calls join the outer one)."""
        ...

    def bind_embedder(self, model_id: str, dimensions: int) -> None:
        """Record the embedder on first use; refuse a different one with a clear error."""
        ...

    def embedder_info(self) -> tuple[str, int] | None: ...

    def insert(self, record: Record, text: IndexText, vector: np.ndarray | None) -> None: ...

    def import_record(
        self, record: Record, text: IndexText, vector: np.ndarray | None, events: Sequence[Event]
    ) -> None:
        """Insert a record together with its exported event log."""
        ...

    def save(
        self, record: Record, op: str, text: IndexText | None = None,
        vector: np.ndarray | None = None,
    ) -> None:
        """Write the new state of an existing record and log ``op``; text/vector when changed."""
        ...

    def get(self, scope: Scope, memory_id: str) -> Record | None: ...

    def get_many(self, scope: Scope, ids: Sequence[str]) -> dict[str, Record]: ...

    def get_by_uri(self, scope: Scope, uri: str) -> Record | None: ...

    def find_by_hash(self, scope: Scope, kind: str, content_hash: str) -> list[Record]: ...

    def list(self, scope: Scope, flt: ListFilter) -> Iterator[Record]: ...

    def count(self, scope: Scope, flt: ListFilter) -> int: ...

    def search_text(
        self, scope: Scope, tokens: Sequence[str], fields: Mapping[str, float], limit: int,
        layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """(id, BM25 score) best first over the weighted fields ("body", "anchors",
        "context"); tokens are plain words, never query syntax."""
        ...

    def search_vector(
        self, scope: Scope, vector: np.ndarray, limit: int, layers: Sequence[Layer],
    ) -> list[tuple[str, float]]:
        """(id, cosine) best first."""
        ...

    def vectors(self, scope: Scope, ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def record_uses(self, scope: Scope, ids: Sequence[str], at: datetime, debounce_s: float) -> int:
        """Record one use of each memory, skipping those used within ``debounce_s``."""
        ...

    def events(self, scope: Scope, memory_id: str) -> list[Event]: ...

    def event_count(self, scope: Scope) -> int: ...

    def scopes(self) -> list[Scope]: ...

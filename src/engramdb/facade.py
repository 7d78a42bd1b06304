"""What the modules below the engine may ask of it: the shape of the ``Memory`` facade as a
``typing.Protocol``. They type their parameter with ``Facade`` instead of importing
``engramdb.engine`` (which imports them), so the imports run one way: engine -> the rest."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from .clock import Clock
from .config import Config
from .embed.base import Embedder
from .model import Hits, Scope, WriteResult
from .store.protocol import Store


class Facade(Protocol):
    """The attributes and verbs of ``engramdb.engine.Memory`` that attention/, io/, working/,
    context and keys use."""

    store: Store
    embedder: Embedder
    config: Config
    clock: Clock

    def _scope(self, user: str | None, agent: str | None) -> Scope: ...
    def _now(self) -> datetime: ...
    def _embed_many(self, texts: Any, batch: int = 64, progress: Any = None) -> Any: ...
    def scope(self, user: str | None = None, agent: str | None = None) -> Any: ...
    def remember(self, content: str, **kw: Any) -> WriteResult: ...
    def remember_many(self, drafts: Any, **kw: Any) -> list[WriteResult]: ...
    def recall(self, query: str, k: int = 5, **kw: Any) -> Hits: ...
    def snapshot(self, target: Any, **kw: Any) -> int: ...
    def restore_snapshot(self, source: Any, **kw: Any) -> dict[str, int]: ...
    def list(self, **kw: Any) -> Any: ...

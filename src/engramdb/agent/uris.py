"""Where the agent keeps what it writes about itself: memories of the scope under
``system://agent/`` (each module names its own folder under it). Traces are kept apart from the
user's words by this prefix (``experience.is_trace``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import Memory
    from ..model import Record, Scope

PREFIX = "system://agent/"


def put(memory: Memory, scope: Scope, uri: str, content: str, metadata: dict[str, Any],
        **first: Any) -> Record:
    """The memory at ``uri`` made to say ``content``: a new version of it while it holds, else
    a new memory there (``first``: its kind, priority, importance)."""
    old = memory.store.get_by_uri(scope, uri)
    if old is not None and old.current:
        return memory.update(old.id, content=content, metadata=metadata, user=scope.user,
                             agent=scope.agent)
    return memory.remember(content, uri=uri, metadata=metadata, user=scope.user,
                           agent=scope.agent, **first).memory

"""``ScopedMemory``: a Memory bound to one user and agent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import Invalid
from ..model import Record, Scope

if TYPE_CHECKING:
    from ..facade import Facade


class ScopedMemory:
    """A view of a Memory bound to one user and agent: the same verbs, no scope arguments."""

    _VERBS = ("remember", "remember_many", "recall", "get", "abbreviate", "update", "forget",
              "restore",
              "history", "list", "count", "stats", "export", "rollback", "forget_scope",
              "boot", "snapshot", "restore_snapshot", "explain", "sleep", "decay", "reflect",
              "due_for_review", "profile_check",
              # the "still true?" queue (dynamics/stilltrue.py)
              "review_queue", "confirm",
              # attention (engine/goals.py)
              "goal_start", "goal_pause", "goal_resume", "goal_done", "goal_note", "goals",
              "active_goal", "add_procedure", "procedures", "procedure_outcome",
              "triggered_procedures", "focus", "learn_from_mistake", "agents_md",
              "export_memory_md", "migrate",
              # working memory and context (working/, attention/context.py)
              "session", "sessions", "context",
              # association (recall/graph.py)
              "link", "unlink", "links", "related", "recall_path",
              # conversations (write/ingest.py)
              "ingest", "sources",
              # what a recall was worth (dynamics/feedback.py)
              "feedback",
              # pictures of memory over time (engine/views.py)
              "timeline", "strength_curve", "lineage", "neighbourhood", "sleep_log",
              # what is known about one person, place or topic (recall/entity.py), and which
              # ones the memories name (recall/entities.py)
              "entity", "entities",
              # subject-predicate-object triples of the facts (recall/triples.py)
              "triples")

    def __init__(self, memory: Facade, scope: Scope) -> None:
        self.memory = memory
        self.user = scope.user
        self.agent = scope.agent

    def __getattr__(self, name: str) -> Any:
        if name not in self._VERBS:
            raise AttributeError(name)
        verb = getattr(self.memory, name)

        def bound(*args: Any, **kwargs: Any) -> Any:
            for key in ("user", "agent"):
                if kwargs.get(key) is None:
                    kwargs[key] = getattr(self, key)
                elif kwargs[key] != getattr(self, key):
                    raise Invalid(f"this view is bound to user={self.user!r} "
                                  f"agent={self.agent!r}: use Memory.scope() for another")
            if kwargs.get("all_scopes"):
                raise Invalid(f"this view is bound to user={self.user!r} agent={self.agent!r}: "
                              "export all scopes from the Memory itself")
            return verb(*args, **kwargs)

        bound.__name__ = name
        bound.__doc__ = verb.__doc__
        return bound

    def __iter__(self) -> Iterator[Record]:
        return self.memory.list(user=self.user, agent=self.agent)

    def __repr__(self) -> str:
        return f"ScopedMemory(user={self.user!r}, agent={self.agent!r})"

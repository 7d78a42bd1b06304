"""The built-in tools, bound to one Memory and scope: recall, remember, the goal stack,
introspect, believe, and the control tools ``plan`` and ``finish`` (the runtime acts on those
two itself; their functions only echo)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model import Scope
from . import state as cog
from .experience import is_trace
from .tools import FINISH, PLAN, Read, ToolRegistry

if TYPE_CHECKING:
    from ..engine import Memory

MAX_RECALL = 20


def install(reg: ToolRegistry, memory: Memory, scope: Scope,
            introspect: Callable[[], dict[str, Any]]) -> None:
    """Register the built-ins on ``reg``."""
    kw = {"user": scope.user, "agent": scope.agent}

    def recall(query: str, k: int = 5) -> Read:
        """Search long-term memory for what is relevant to a query; best first, with dates.

        query: what to look for, in the user's words (English or Chinese)
        k: how many memories at most (1-20)
        """
        k = max(1, min(MAX_RECALL, k))
        hits = [h for h in memory.recall(query, k + 5, relevance_floor=memory.config.answer_floor,
                                         **kw) if not is_trace(h.memory)][:k]
        return Read([{"id": h.memory.id, "date": str(h.memory.at.date()),
                      "kind": h.memory.kind.value, "content": h.memory.content}
                     for h in hits], [h.memory.id for h in hits])

    def remember(content: str, kind: str = "") -> Read:
        """Store a new memory (a fact, preference, event, lesson...) for later.

        content: the memory, one self-contained sentence
        kind: fact, preference, event, lesson, pending, ... (empty: inferred)
        """
        result = memory.remember(content, kind=kind or None, **kw)
        return Read({"id": result.memory.id, "action": result.action.value},
                    [result.memory.id])

    def goal_start(title: str) -> dict[str, Any]:
        """Start a goal and focus on it (the current goal is paused under it).

        title: what the goal is
        """
        g = memory.goal_start(title, **kw)
        return {"id": g.id, "title": g.title, "status": g.status.value}

    def goal_done(evidence: str = "") -> dict[str, Any]:
        """Mark the active goal done (its parent goal resumes).

        evidence: what shows it is done
        """
        g = memory.goal_done(evidence=[evidence] if evidence else None, **kw)
        return {"id": g.id, "title": g.title, "status": g.status.value}

    def goals() -> list[dict[str, Any]]:
        """The goals that are active or paused."""
        return [{"id": g.id, "title": g.title, "status": g.status.value}
                for g in memory.goals(["active", "paused"], **kw)]

    def introspect_tool() -> dict[str, Any]:
        """Your cognitive state: who you are, your tools, beliefs with confidence, goals,
        open questions, reflections."""
        return introspect()

    def believe(key: str, value: str, confidence: float = 0.8) -> dict[str, Any]:
        """Hold a belief about the world that later tool results may confirm or contradict.

        key: a short dotted name, e.g. weather.paris
        value: what you believe it is
        confidence: from 0 to 1
        """
        return cog.believe(memory, scope, key, value, confidence, "agent").to_dict()

    def plan(requires: list[str], note: str = "") -> str:
        """Declare the tools this task requires; finish is refused until they have run.

        requires: names of the tools that must run before finishing
        note: the plan in a few words
        """
        return "ok: finish needs " + (", ".join(requires) or "nothing")

    def finish(answer: str) -> str:
        """End the task and give the final answer to the user.

        answer: the final answer, in the user's language
        """
        return answer

    for fn, pure in ((recall, True), (remember, False), (goal_start, False),
                     (goal_done, False), (goals, True), (believe, False)):
        reg.register(fn, pure=pure)
    reg.register(introspect_tool, name="introspect", pure=True)
    reg.register(plan, name=PLAN, pure=True)
    reg.register(finish, name=FINISH, pure=True)

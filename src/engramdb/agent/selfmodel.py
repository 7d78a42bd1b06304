"""The self model's mission and limits, set by the agent's owner and kept in the scope.

The mission is one text (what the agent is for); the limits a list of texts (what it must not
or cannot do). Each is an identity memory: ``system://agent/self/mission`` and
``system://agent/self/limits`` (the list in metadata ``limits``), updated in place when set
again (a version each) and forgotten when cleared (``None`` / an empty list). The cognitive state
shows both to the planner, in the turn's language for the titles and as written for the texts.
The other identity memories (the user's words) stay the state's "I am" line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import Invalid
from ..model import Kind, Scope
from .uris import PREFIX, put

if TYPE_CHECKING:
    from ..engine import Memory

SELF = PREFIX + "self/"
MISSION, LIMITS = SELF + "mission", SELF + "limits"
MAX_CHARS, MAX_LIMITS = 2000, 20


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"{what} must be non-empty text, got {value!r}")
    if len(value) > MAX_CHARS:
        raise Invalid(f"{what} is longer than {MAX_CHARS} characters")
    return " ".join(value.split())


def check_limits(limits: object) -> list[str]:
    if isinstance(limits, str) or not isinstance(limits, Sequence):
        raise Invalid(f"limits must be a list of texts, got {type(limits).__name__}")
    if len(limits) > MAX_LIMITS:
        raise Invalid(f"at most {MAX_LIMITS} limits, got {len(limits)}")
    return list(dict.fromkeys(_text(x, "each limit") for x in limits))


def _put(memory: Memory, scope: Scope, uri: str, content: str | None,
         meta: dict[str, object]) -> None:
    if content is not None:
        put(memory, scope, uri, content, meta, kind=Kind.IDENTITY)
        return
    old = memory.store.get_by_uri(scope, uri)
    if old is not None and old.current:
        memory.forget(old.id, user=scope.user, agent=scope.agent)


def set_mission(memory: Memory, scope: Scope, mission: str | None) -> str | None:
    text = None if mission is None else _text(mission, "the mission")
    _put(memory, scope, MISSION, text, {"agent_trace": "mission"})
    return text


def set_limits(memory: Memory, scope: Scope, limits: Sequence[str]) -> list[str]:
    found = check_limits(limits)
    _put(memory, scope, LIMITS, "; ".join(found) or None,
         {"agent_trace": "limits", "limits": found})
    return found


def mission(memory: Memory, scope: Scope) -> str:
    rec = memory.store.get_by_uri(scope, MISSION)
    return rec.content if rec is not None and rec.current else ""


def limits(memory: Memory, scope: Scope) -> list[str]:
    rec = memory.store.get_by_uri(scope, LIMITS)
    if rec is None or not rec.current:
        return []
    return [str(x) for x in rec.metadata.get("limits") or []]

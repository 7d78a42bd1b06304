"""The OpenAI Agents SDK's ``Session`` over engramdb's working memory:
``Runner.run(agent, text, session=EngramSession("chat-42", mem))``.

Each input item the SDK saves is one turn of the engramdb session (working/session.py): a
message keeps its role and text, a tool call and its output become "[tool call name] args"
and "[tool result] output" turns, reasoning items are left out. ``get_items`` returns the
session's window: a system message with the running summary and the pinned turns, then the
recent turns, so a long session stays within its token budget (heavy tool output is
offloaded, older turns folded). ``pop_item`` and ``clear_session`` start the session's next
generation (working/rewind.py). ``end()`` closes the session and hands it to long-term
memory (turn events, extracted facts, pinned turns as rules). Bad items raise
``engramdb.Invalid`` before anything is written."""

from __future__ import annotations

import json
from typing import Any

from ..engine import Memory as Engine
from ..errors import Invalid
from ..working.rewind import current, rewind
from ..working.session import Handover, WorkingMemory

ROLES = ("user", "assistant", "system", "developer")
SKIPPED = frozenset({"reasoning"})


class EngramSession:
    """An Agents SDK session whose history is an engramdb working-memory session."""

    session_settings: Any = None

    def __init__(self, session_id: str, memory: Engine, *, user: str | None = None,
                 agent: str | None = None, budget: int | None = None, keep: int | None = None,
                 offload_tokens: int | None = None) -> None:
        self.session_id = session_id
        self.engine = memory
        scope = memory._scope(user, agent)
        self._wm: WorkingMemory = memory.session(
            current(memory, scope, session_id), budget=budget, keep=keep,
            offload_tokens=offload_tokens, user=scope.user, agent=scope.agent)

    @property
    def working_memory(self) -> WorkingMemory:
        return self._wm

    async def get_items(self, limit: int | None = None) -> list[dict[str, Any]]:
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise Invalid(f"limit must be a non-negative integer, got {limit!r}")
        items = self._wm.messages()  # fresh dicts of role and content: input items already
        for m in items:
            if m["role"] not in ROLES:  # a tool turn reads as the assistant's
                m["role"] = "assistant"
        return items if limit is None else items[len(items) - limit:] if limit else []

    async def add_items(self, items: list[Any]) -> None:
        if not isinstance(items, list):
            raise Invalid("items must be a list of input items")
        turns = [t for i, item in enumerate(items) if (t := _turn(i, item)) is not None]
        if len(turns) == 1:  # one turn is one transaction already
            self._wm.add(*turns[0])
            return
        with self.engine.store.transaction():
            for role, text in turns:
                self._wm.add(role, text)

    async def pop_item(self) -> dict[str, Any] | None:
        if not self._wm.turns():
            return None
        self._wm, gone = rewind(self.engine, self._wm, self.session_id,
                                len(self._wm.turns()) - 1)
        return _as_input({"role": gone[0].role, "content": gone[0].content})

    async def clear_session(self) -> None:
        self._wm, _ = rewind(self.engine, self._wm, self.session_id, 0)

    def end(self) -> Handover:
        """Close the session and hand its turns to long-term memory."""
        return self._wm.end()


def _as_input(message: dict[str, str]) -> dict[str, Any]:
    """A window message as a Responses input item (a tool turn reads as the assistant's)."""
    role = message["role"] if message["role"] in ROLES else "assistant"
    return {"role": role, "content": message["content"]}


def _turn(i: int, item: Any) -> tuple[str, str] | None:
    """(role, text) of one input item; None for the items the window does not keep."""
    if not isinstance(item, dict):
        raise Invalid(f"item {i}: an input item is a dict, got {type(item).__name__}")
    kind = item.get("type", "message")
    if kind in SKIPPED:
        return None
    if kind == "function_call":
        return "assistant", f"[tool call {item.get('name')}] {item.get('arguments', '')}"
    if kind == "function_call_output":
        return "tool", f"[tool result] {_text(item.get('output'))}"
    if kind != "message" or "role" not in item:
        return "assistant", f"[{kind}] {json.dumps(item, ensure_ascii=False, default=str)}"
    role = item["role"]
    if role not in ROLES:
        raise Invalid(f"item {i}: role must be one of {', '.join(ROLES)}, got {role!r}")
    text = _text(item.get("content"))
    if not text.strip():
        raise Invalid(f"item {i}: a message has text content")
    return role, text


def _text(content: Any) -> str:
    """The text of a content field: a string, or the text of its parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict):
                parts.append(part.get("text") or part.get("refusal") or f"[{part.get('type')}]")
            else:
                parts.append(str(part))
        return "\n".join(p for p in parts if p)
    return "" if content is None else json.dumps(content, ensure_ascii=False, default=str)

"""Reading a conversation file for ``engramdb ingest``: a JSON list of messages, a JSON object
``{"session": ..., "messages": [...]}``, or JSON lines (one message per line). A message is
``{"role", "content", "at"?, "speaker"?}``; the engine checks each one.

``read_conversations`` also reads the sample format (examples/sample_conversation.json):
``{"user"?, "agent"?, "sessions": [{"date"?, "session"?, "turns": [{"speaker", "text"}]}]}``,
one conversation per session (multisession.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import Invalid


@dataclass
class Conversation:
    messages: list[Any]
    session: str | None = None


def read_conversations(text: str, name: str = "the file") -> list[Conversation]:
    """Every conversation of a file: one, or one per session in the sample format."""
    from .multisession import is_sessions, sessions

    if text.strip():
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if is_sessions(data):
            return [Conversation(messages, session) for messages, session in sessions(data, name)]
    return [read_conversation(text, name)]


def read_conversation(text: str, name: str = "the file") -> Conversation:
    if not text.strip():
        raise Invalid(f"{name} is empty: no messages to ingest")
    try:
        data = json.loads(text)
    except ValueError:
        return Conversation(_lines(text, name))
    if isinstance(data, list):
        return Conversation(data)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        session = data.get("session")
        if session is not None and not isinstance(session, str):
            raise Invalid(f"{name}: session must be text")
        return Conversation(data["messages"], session)
    if isinstance(data, dict) and "role" in data:
        return Conversation([data])  # JSON lines holding one message
    raise Invalid(f"{name}: expected a JSON list of messages, an object with \"messages\", "
                  "or one message per line")


def _lines(text: str, name: str) -> list[Any]:
    messages = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            messages.append(json.loads(line))
        except ValueError as exc:
            raise Invalid(f"{name}: line {number} is not JSON: {exc.msg}") from None
    return messages

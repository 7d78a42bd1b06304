"""The sample conversation format (examples/sample_conversation.json), read as the messages
``engramdb ingest`` takes: one list per session (io/messages.py makes them conversations).

    {"user": "maya", "agent": "noah",
     "sessions": [{"date": "2026-01-10T19:30:00+00:00",
                   "turns": [{"speaker": "Maya", "text": "I'm vegetarian."}, ...]}, ...]}

A session may name its id (``"session"`` or ``"id"``) and holds ``"turns"`` (or
``"messages"``); its ``"date"`` (or ``"at"``) is when each turn without its own ``"at"`` was
said. A turn is ``{"speaker", "text"}`` (or ``"content"``), other keys are ignored. Its role
is its own ``"role"`` when it has one; else the speaker named like the file's ``"user"`` is
the user and the one named like its ``"agent"`` the assistant (case and spaces ignored); with
only one of the two named, every other speaker is the other role. A speaker that neither
names is refused: the extractor keeps only what the user says, so a guess would file the
assistant's words as the user's facts. Keys other than these (the sample's ``"questions"``)
are not part of the conversation."""

from __future__ import annotations

from typing import Any

from ..errors import Invalid

Session = tuple[list[dict[str, Any]], str | None]  # (messages, session id)


def is_sessions(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("sessions"), list)


def sessions(data: dict[str, Any], name: str) -> list[Session]:
    user, agent = _name(data, "user", name), _name(data, "agent", name)
    if not data["sessions"]:
        raise Invalid(f"{name}: sessions is empty: no messages to ingest")
    return [_session(raw, n, user, agent, name)
            for n, raw in enumerate(data["sessions"], start=1)]


def _name(data: dict[str, Any], key: str, name: str) -> str | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise Invalid(f"{name}: {key} must be a name (text)")
    return _key(value) if value else None


def _key(speaker: str) -> str:
    return "".join(speaker.split()).casefold()


def _session(raw: object, n: int, user: str | None, agent: str | None,
             name: str) -> Session:
    where = f"{name}: session {n}"
    if not isinstance(raw, dict):
        raise Invalid(f"{where}: expected an object with \"turns\"")
    turns = raw.get("turns", raw.get("messages"))
    if not isinstance(turns, list) or not turns:
        raise Invalid(f"{where}: expected a non-empty list of \"turns\"")
    date = raw.get("date", raw.get("at"))
    if date is not None and not isinstance(date, str):
        raise Invalid(f"{where}: date must be ISO 8601 text")
    session = raw.get("session", raw.get("id"))
    if session is not None and (not isinstance(session, str) or not session.strip()):
        raise Invalid(f"{where}: its id must be text")
    messages = [_message(turn, date, user, agent, f"{where} turn {i}")
                for i, turn in enumerate(turns, start=1)]
    return messages, session


def _message(turn: object, date: str | None, user: str | None, agent: str | None,
             where: str) -> dict[str, Any]:
    if not isinstance(turn, dict):
        raise Invalid(f"{where}: expected an object with \"speaker\" and \"text\"")
    text = turn.get("text", turn.get("content"))
    if not isinstance(text, str):
        raise Invalid(f"{where}: missing \"text\"")
    speaker = turn.get("speaker")
    if speaker is not None and not isinstance(speaker, str):
        raise Invalid(f"{where}: speaker must be text")
    message: dict[str, Any] = {"role": turn.get("role") or _role(speaker, user, agent, where),
                               "content": text}
    if speaker:
        message["speaker"] = speaker
    at = turn.get("at", date)
    if at is not None:
        message["at"] = at
    return message


def _role(speaker: str | None, user: str | None, agent: str | None, where: str) -> str:
    key = _key(speaker) if speaker else None
    if key is not None and key == user:
        return "user"
    if key is not None and key == agent:
        return "assistant"
    if user is not None and agent is None:
        return "assistant"
    if agent is not None and user is None:
        return "user"
    said = f"speaker {speaker!r}" if speaker else "a turn without a speaker"
    raise Invalid(f"{where}: {said} is neither the file's \"user\" nor its \"agent\"; name "
                  "them at the top of the file or give the turn a \"role\"")

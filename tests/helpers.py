"""Helpers shared by the tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from engramdb import Invalid


def dump(path: str) -> dict[str, list[str]]:
    """Every row of every table (memories, events, FTS, vectors...), read with plain sqlite3."""
    db = sqlite3.connect(path)
    try:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {n: sorted(repr(row) for row in db.execute(f'SELECT * FROM "{n}"'))
                for n in names}
    finally:
        db.close()


def not_rejected(call: Callable[[Any], object], values: list[Any], match: str = "") -> list[Any]:
    """The values for which ``call`` did not raise Invalid (with ``match`` in its message)."""
    missed = []
    for value in values:
        try:
            call(value)
        except Invalid as exc:
            if match in str(exc):
                continue
        missed.append(value)
    return missed


def lexical_ids(me: Any, query: str) -> list[str]:
    """Ids found by the word legs only (the dense leg returns every memory in scope)."""
    return [h.memory.id for h in me.recall(query, k=10, track=False, preset="lexical")]


VALIDATOR_TEXT = ("Input should", "type=", "pydantic", "validation error", "For further "
                  "information", "https://", "Field required", "Traceback")


def plain(message: str) -> str:
    """``message`` says what was wrong in words: no validator text, no link, one line."""
    assert message.strip(), "an empty error message"
    for text in VALIDATOR_TEXT:
        assert text not in message, f"{text!r} in {message!r}"
    assert "\n" not in message, message
    return message

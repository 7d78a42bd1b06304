"""Does a trigger word occur in a text? English triggers match on word boundaries, or by
their stems ("failing test" fires on "the tests fail"); Chinese triggers match as substrings
(Chinese has no spaces between words)."""

from __future__ import annotations

import re
import unicodedata

from ..text.tokenize import is_cjk, tokenize


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def fires(trigger: str, text: str) -> bool:
    trig, body = fold(trigger), fold(text)
    if not trig or not body:
        return False
    if is_cjk(trig):
        return trig in body
    if re.search(rf"(?<![\w]){re.escape(trig)}(?![\w])", body):
        return True
    stems = set(tokenize(trig))
    return bool(stems) and stems <= set(tokenize(body))


def fired(triggers: list[str], text: str) -> list[str]:
    """The triggers of the list that fire on ``text``, in list order."""
    return [t for t in triggers if fires(t, text)]

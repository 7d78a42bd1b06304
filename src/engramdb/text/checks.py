"""Checks on text that reads and writes share: valid Unicode (``storable``), a memory's content
(``check_content``: text, not empty, not only symbols, within the size limit) and the content
hash that exact-duplicate detection uses."""

from __future__ import annotations

import hashlib
import re

from ..errors import Invalid
from .tokenize import normalize

_JUNK = re.compile(r"^[\W_]+$", re.UNICODE)


def storable(text: str) -> bool:
    """False for text with lone surrogates (e.g. from a bad JSON escape): no UTF-8 for them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def content_hash(content: str) -> str:
    return hashlib.sha256(normalize(content).encode()).hexdigest()[:32]


def check_content(content: object, max_bytes: int) -> str:
    if not isinstance(content, str):
        raise Invalid(f"content must be text, got {type(content).__name__}")
    text = content.strip()
    if not text:
        raise Invalid("content is empty")
    if not storable(text):
        raise Invalid("content is not valid Unicode text (it holds a lone surrogate)")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise Invalid(f"content is {size} bytes, over the limit of {max_bytes} bytes")
    if _JUNK.match(text):
        raise Invalid("content has no words (only punctuation or symbols)")
    return text

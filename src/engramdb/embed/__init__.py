"""Embedders turn text into unit vectors. See base.Embedder for the protocol.

The names load on first use: ``engramdb.embed.base`` (the protocol) imports no numpy, so a
command that reads no vector does not load it."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"Embedder": ".base", "normalize_rows": ".base", "HashingEmbedder": ".hashing"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'engramdb.embed' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = ["Embedder", "HashingEmbedder", "normalize_rows"]

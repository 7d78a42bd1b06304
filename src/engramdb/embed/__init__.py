"""Embedders turn text into unit vectors. See base.Embedder for the protocol.

The names load on first use: ``engramdb.embed.base`` (the protocol) imports no numpy, so a
command that reads no vector does not load it."""

from __future__ import annotations

from ..lazy import lazy_names

__getattr__ = lazy_names(__name__, {"Embedder": ".base", "normalize_rows": ".base",
                                    "HashingEmbedder": ".hashing"})


__all__ = ["Embedder", "HashingEmbedder", "normalize_rows"]

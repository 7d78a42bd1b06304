"""Embedders turn text into unit vectors. See base.Embedder for the protocol."""

from .base import Embedder, normalize_rows
from .hashing import HashingEmbedder

__all__ = ["Embedder", "HashingEmbedder", "normalize_rows"]

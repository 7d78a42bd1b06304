"""Language: tokenizing for search (Chinese + English) and light anchor extraction."""

from .tokenize import is_cjk, normalize, tokenize

__all__ = ["is_cjk", "normalize", "tokenize"]

"""The few exceptions engramdb raises. Every one is an EngramError."""

from __future__ import annotations


class EngramError(Exception):
    """Base class: catch this to catch anything engramdb raises on purpose."""

    code = "error"


class NotFound(EngramError):
    """No memory with that id or URI in this scope."""

    code = "not_found"


class Invalid(EngramError):
    """Bad input: empty content, unknown kind, bad URI, a time that is not one, k out of range..."""

    code = "invalid"


class Conflict(EngramError):
    """The write clashes with what is stored (e.g. a URI already taken)."""

    code = "conflict"


class StoreError(EngramError):
    """The store cannot be used: not an engramdb file, unwritable directory, wrong embedder."""

    code = "store_error"


class ConfigError(EngramError):
    """A setting is wrong or a backend is not available."""

    code = "config_error"

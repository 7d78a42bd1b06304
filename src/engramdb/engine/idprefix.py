"""Ids given shortened, as a person copies them from a table. The CLI shows each memory id as
its shortest prefix that no other memory of the scope starts with (at least ``SHOWN``
characters, as git shortens commit ids: ``abbreviate``), and every verb that takes a memory id
takes such a prefix back (``full_id``): a prefix that several memories share is refused with
them named, one that none has finds nothing."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import Invalid
from ..model import Scope
from ..store.protocol import Store

ID_LENGTH = 26     # a memory id: 26 Crockford base32 characters (ids.py)
MIN_PREFIX = 4     # the fewest characters read back as an id's prefix
SHOWN = 8          # the fewest characters an abbreviated id shows
NAMED = 3          # the memories an ambiguous prefix names
_ID_CHARS = frozenset("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def full_id(store: Store, scope: Scope, given: str) -> str | None:
    """The one id of the scope that starts with ``given`` (any case, at least MIN_PREFIX
    characters), or None when none does or ``given`` cannot be a prefix of an id. Several:
    Invalid, naming them (each shortened) and asking for more characters."""
    prefix = given.strip().upper()
    if not MIN_PREFIX <= len(prefix) < ID_LENGTH or not set(prefix) <= _ID_CHARS:
        return None
    found = store.ids_with_prefix(scope, prefix, NAMED + 1)
    if len(found) > 1:
        names = list(abbreviate(store, scope, found[:NAMED], len(prefix) + 1).values())
        more = ", ..." if len(found) > NAMED else ""
        raise Invalid(f"id prefix {given!r} is ambiguous: more than one memory starts with it "
                      f"({', '.join(names)}{more}); give more of the id")
    return found[0] if found else None


def abbreviate(store: Store, scope: Scope, ids: Iterable[str],
               min_length: int = SHOWN) -> dict[str, str]:
    """Each id's shortest prefix of at least ``min_length`` characters that no other memory of
    the scope starts with; an id the scope does not hold stays whole. A few indexed reads per
    id (a binary search over the length)."""

    def unique(memory_id: str, n: int) -> bool:
        return store.ids_with_prefix(scope, memory_id[:n], 2) == [memory_id]

    shown: dict[str, str] = {}
    for memory_id in dict.fromkeys(ids):
        first = min(min_length, len(memory_id))
        bad, good = (first - 1, first) if unique(memory_id, first) else (first, len(memory_id))
        while good - bad > 1:   # the prefix of length ``bad`` is shared, of ``good`` is not
            mid = (bad + good) // 2
            bad, good = (bad, mid) if unique(memory_id, mid) else (mid, good)
        shown[memory_id] = memory_id[:good]
    return shown

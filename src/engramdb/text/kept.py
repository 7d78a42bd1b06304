"""A cache of a pure function's results on texts that the garbage collector never walks.

An ``lru_cache`` is one object to the collector, and at each full collection it visits every
entry's key and result: the tokenizer's 65,536 pieces cost ~30 ms a full collection once a
scope holds 40k memories (one or two a call of 1,000 writes), and the entries fill up as the
scope grows. A dict of strings alone is never tracked, so here each result is kept as one
string: a word as it is, a tuple of words joined by a separator no word holds (a tuple with
one is not kept: it is computed again at each call). A hit makes the tuple again (0.36 us
against an lru_cache's 0.07 for six words): where hits are the hot path (a recall's texts,
tokenize.py ``_tokens``) the lru_cache stays.

Two generations bound the size: what is put, or found in the older one, goes in the newer one;
when the newer one holds ``size`` entries it becomes the older one and the one before is
dropped. The result is the function's own every time; only its cost changes."""

from __future__ import annotations

from collections.abc import Callable

SEP = "\x1f"   # the unit separator: no token holds a control character


class Kept:
    """``key -> str``, the ``size`` most recently used at least, in dicts of strings."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._new: dict[str, str] = {}
        self._old: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        found = self._new.get(key)
        if found is None:
            found = self._old.get(key)
            if found is not None:
                self.put(key, found)
        return found

    def put(self, key: str, value: str) -> None:
        if len(self._new) >= self._size:
            self._old, self._new = self._new, {}
        self._new[key] = value

    def clear(self) -> None:
        self._new, self._old = {}, {}


def kept_words(size: int, fn: Callable[[str], str]) -> Callable[[str], str]:
    """``fn`` (text -> word), kept."""
    kept = Kept(size)

    def cached(text: str) -> str:
        found = kept.get(text)
        if found is None:
            found = fn(text)
            kept.put(text, found)
        return found

    cached.__wrapped__ = fn  # type: ignore[attr-defined]
    cached.__doc__ = fn.__doc__
    return cached


def pack(words: tuple[str, ...]) -> str | None:
    """``words`` as one string (None where one of them holds the separator)."""
    joined = SEP + SEP.join(words) if words else ""
    return joined if joined.count(SEP) == len(words) else None


def unpack(joined: str) -> tuple[str, ...]:
    return tuple(joined[1:].split(SEP)) if joined else ()

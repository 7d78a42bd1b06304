"""Time-sortable ids (ULID layout: 48-bit milliseconds + 80 random bits, Crockford base32)."""

from __future__ import annotations

import os
import threading
from datetime import datetime

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last = (0, 0)
# ids made in one millisecond step their random part by this much (not by 1): each differs
# from the one before within its first 12 characters (10 of time, 2 of the random part), so a
# table shows the ids of a batch (a conversation's turns, an import) as 12-character prefixes,
# not whole (engine/idprefix.py). A millisecond holds at least 512 such steps; past them the id
# takes the next millisecond, so ids still sort in the order they were made.
STEP = 1 << 70
_TOP = 1 << 80


def new_id(now: datetime) -> str:
    """A 26-character id that sorts by creation time; ids made in the same millisecond
    stay ordered (the random part steps by ``STEP``)."""
    global _last
    ms = int(now.timestamp() * 1000)
    with _lock:
        last_ms, last_rand = _last
        if ms <= last_ms:
            ms, rand = last_ms, last_rand + STEP
            if rand >= _TOP:   # this millisecond is full: the next one, with a fresh start
                ms, rand = last_ms + 1, _fresh()
        else:
            rand = _fresh()
        _last = (ms, rand)
    value = (ms << 80) | rand
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def _fresh() -> int:
    """A random start under half the range, so a millisecond has room for 512 steps."""
    return int.from_bytes(os.urandom(10), "big") >> 1

"""Time-sortable ids (ULID layout: 48-bit milliseconds + 80 random bits, Crockford base32)."""

from __future__ import annotations

import os
import threading
from datetime import datetime

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last = (0, 0)


def new_id(now: datetime) -> str:
    """A 26-character id that sorts by creation time; ids made in the same millisecond
    stay ordered (the random part is incremented)."""
    global _last
    ms = int(now.timestamp() * 1000)
    with _lock:
        last_ms, last_rand = _last
        if ms <= last_ms:
            ms, rand = last_ms, last_rand + 1
        else:
            rand = int.from_bytes(os.urandom(10), "big") >> 1
        _last = (ms, rand)
    value = (ms << 80) | (rand & ((1 << 80) - 1))
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))

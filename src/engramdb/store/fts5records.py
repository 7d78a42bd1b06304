"""Reading FTS5's own records: SQLite varints, and a ``docsize`` record's token counts per
column (what store/textindex.py checks its documents against)."""

from __future__ import annotations


def varints(blob: bytes) -> list[int]:
    """SQLite's varints (big-endian 7-bit groups; the ninth byte carries 8 bits)."""
    out, i, n = [], 0, len(blob)
    while i < n:
        value = 0
        for j in range(9):
            byte = blob[i]
            i += 1
            if j == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(value)
    return out


def sizes(blob: bytes) -> list[int]:
    """A docsize record: each column's token count (one byte each, unless 128 or more)."""
    return list(blob) if blob and max(blob) < 0x80 else varints(blob)

"""Lines of a table cell broken as English and Chinese break: at spaces, and between two
characters where either is Chinese, Japanese or Korean (that writing breaks between any two
characters). Rich breaks at spaces only, so `Maya: 周末我喜欢去吃火锅…` would leave `Maya:` alone
on a line and fold the Chinese below it. Styles are kept."""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len
from rich.text import Text

NO_LINE_START = set("，。、；：？！）》」』】,.;:?!)")   # punctuation kept with what it follows


def wide(ch: str) -> bool:
    """A character of CJK writing (two cells wide)."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def wrap(text: Text, width: int) -> Text:
    """``text`` with a line break wherever a line would pass ``width`` cells."""
    if width < 2:
        return text
    lines = []
    for line in text.split("\n"):
        lines.extend(_wrap_line(line, width))
    return Text("\n").join(lines)


def _wrap_line(line: Text, width: int) -> list[Text]:
    plain, out, start = line.plain, [], 0
    while cell_len(plain[start:]) > width:
        cut, used, i = 0, 0, start
        while i < len(plain) and used + cell_len(plain[i]) <= width:
            used += cell_len(plain[i])
            i += 1
            if i < len(plain) and _breaks(plain[i - 1], plain[i]):
                cut = i
        cut = cut if cut > start else max(i, start + 1)   # no break: cut the word
        piece = line[start:cut]
        piece.rstrip()
        out.append(piece)
        start = cut
        while start < len(plain) and plain[start] == " ":
            start += 1
    out.append(line[start:])
    return out


def _breaks(before: str, after: str) -> bool:
    """May a line end between ``before`` and ``after``?"""
    if after in NO_LINE_START:
        return False
    return after == " " or before == " " or wide(before) or wide(after)

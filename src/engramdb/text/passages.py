"""A long text cut into passages for the embedder: each passage at most ``LIMIT`` units, cut on
sentence ends in English and Chinese, else on line ends (a pasted log, a code block), else on
spaces or commas, else at a hard character count.

A text of at most ``LIMIT`` units is one passage, itself, unchanged (nearly every memory).

The unit: a CJK character counts ``CJK_UNITS``, any other character 1, so a limit holds about
as many model tokens in either language (multilingual-e5 reads ~0.25 tokens per English
character of prose, logs and code, and ~0.6 per Chinese character). The limit was measured
(bench/long_turns.py, bench/results/long_turns.md): the default model's cost per character
grows with the length it reads at once (attention is quadratic within its 512-token window),
and is flat for passages of up to ~150 tokens."""

from __future__ import annotations

import re

LIMIT = 500        # units per passage: ~500 English or ~250 Chinese characters (~120-190 tokens)
CJK_UNITS = 2

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
# a sentence ends after a CJK stop (。！？；…) or after . ! ? ; followed by a space
_SENTENCE_END = re.compile(r"(?<=[。！？；…])|(?<=[.!?;])(?=\s)|(?<=[.!?;][\"')\]」』”’])(?=\s)")
_SOFT_BREAK = re.compile(r"(?<=[，、,：:])|(?=\s)")


def units(text: str) -> int:
    """The text's length in passage units."""
    return len(text) + (CJK_UNITS - 1) * len(_CJK.findall(text))


def passages(text: str, limit: int = LIMIT) -> list[str]:
    """``text`` as a list of passages of at most ``limit`` units each, in order, none empty
    (a text of only spaces gives itself). A text within the limit is ``[text]``."""
    if limit < 2:
        raise ValueError("a passage limit is at least 2 units")
    if units(text) <= limit:
        return [text]
    pieces = [p for line in text.splitlines(keepends=True) for p in _sentences(line)]
    fitted = [f for piece in pieces for f in _fit(piece, limit)]
    out = [p.strip() for p in _pack(fitted, limit)]
    return [p for p in out if p] or [text]


def _sentences(line: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(line) if s]


def _fit(piece: str, limit: int) -> list[str]:
    """A piece over the limit cut at spaces or commas, and a run with none at hard counts."""
    if units(piece) <= limit:
        return [piece]
    parts = [p for p in _SOFT_BREAK.split(piece) if p]
    if len(parts) > 1:
        return [f for part in _pack(parts, limit) for f in _fit(part, limit)]
    return _hard(piece, limit)


def _hard(piece: str, limit: int) -> list[str]:
    out, start, size = [], 0, 0
    for i, ch in enumerate(piece):
        width = CJK_UNITS if _CJK.match(ch) else 1
        if size + width > limit:
            out.append(piece[start:i])
            start, size = i, 0
        size += width
    out.append(piece[start:])
    return out


def _pack(pieces: list[str], limit: int) -> list[str]:
    """Consecutive pieces joined greedily while the joined text stays within the limit."""
    out: list[str] = []
    current, size = "", 0
    for piece in pieces:
        width = units(piece)
        if current and size + width > limit:
            out.append(current)
            current, size = "", 0
        current += piece
        size += width
    if current:
        out.append(current)
    return out

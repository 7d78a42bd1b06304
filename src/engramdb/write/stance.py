"""What the write decision reads of a stored neighbour's statement (write/tripledecide.py
``split_apart``): its subject and its moods, kept with the memory at its own write.

Reading a statement (write/reading.py ``read``: tokens, POS tags, clauses) costs ~0.3 ms. A
write read every current neighbour of its kinds again, and the larger the scope, the more of
them fell out of the in-process cache of readings: at 40k memories that was most of a write's
growth past the vector scans. So the store keeps each statement's stance next to its triples
(``IndexText.stance``, written and dropped with them, never in the memory's data or its
snapshots), and the guard reads it with the neighbours.

A stored stance names the content hash and the reading's ``VERSION``: one that does not match
the record it comes with (text changed where the index was not rewritten, a stance from an
older reading) is read afresh from the text."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..model import Kind, Record
from .reading import Subject, read

VERSION = 8   # bump when reading.py changes what a subject or a mood is (4: a mood word inside a
#               code or a path, "hotfix/next", is no mood; 5: a numeral word such as 一起 counts
#               among a clause's values, which choose the clause whose subject is read; 6: a
#               numeral and its unit in one word, 半小时, is a value whatever jieba tags it; 7:
#               "I'm" is "I" and "am", write/align.py CLITICS, and a hyphenated word in
#               lower case a plain word; 8: that hyphenated word a code again, as before 7)
KINDS = frozenset({Kind.IDENTITY, Kind.PREFERENCE, Kind.FACT, Kind.PROCEDURE})  # split_apart's


@dataclass(frozen=True)
class Stance:
    subject: Subject
    moods: frozenset[str]


def stance_of(text: str) -> Stance:
    r = read(text)
    return Stance(r.subject, r.moods)


def encoded(record: Record) -> str:
    """The stance the store keeps for ``record``: "" for a kind the decision does not read."""
    if record.kind not in KINDS or not record.content:
        return ""
    s = stance_of(record.content)
    return json.dumps([VERSION, record.content_hash, s.subject.kind, list(s.subject.words),
                       sorted(s.subject.names), sorted(s.moods)],
                      ensure_ascii=False, separators=(",", ":"))


def decoded(text: str | None, record: Record) -> Stance | None:
    """The stance kept for ``record``, or None when there is none for its text now."""
    if not text:
        return None
    try:
        version, digest, kind, words, names, moods = json.loads(text)
    except (ValueError, TypeError):
        return None
    if version != VERSION or digest != record.content_hash:
        return None
    return Stance(Subject(kind, tuple(words), frozenset(names)), frozenset(moods))

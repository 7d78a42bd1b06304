"""Near ties among the top hits, told apart by what the question asks of: its person and its
mood (write/reading.py reads both, as the write path does to keep such memories apart).

Two statements of one frame about two people ("I am allergic to penicillin" / "My daughter is
allergic to mango"), or in two moods ("Our Postgres is version 14" / "We're considering
upgrading Postgres to 16"), often score alike for either question: their words are nearly the
same. Among the top TOP hits, a hit that fits the question comes above one that does not when
its score is within TIE of it (a clearer lead is relevance's to keep):
- **person**: when the question is about the user or a person ("我对什么过敏？", "Where do my
  parents live?") and the hit's statement is about the user or a person, they are one
  (write/reading.py ``Subject.differs``); a thing or no subject said fits any question (a
  question's word order hides its subject: "What tea does Sam drink?");
- **mood**: the hit is in the question's mood, of a plan, a past story or a passing exception
  ("Which version are we considering?" asks of a plan; "孩子平时几点睡？" of no exception).
Only memories that state how things are (recall/conflicts.py ``stating``) are moved. The plan
lists what moved (``stages["asked"]``)."""

from __future__ import annotations

from ..model import Hit
from ..write.reading import Reading, read
from .conflicts import TOP, stating

TIE = 0.8            # a hit within this share of the one above it is a near tie
ASKED = True         # a switch to measure what this buys
MOODS = frozenset({"plan", "past"})
PEOPLE = frozenset({"user", "person"})


def fits(question: Reading, text: str) -> int:
    """How many of the question's person and mood the statement fits (0, 1 or 2)."""
    said = read(text)
    one = not (question.subject.kind in PEOPLE and said.subject.kind in PEOPLE
               and said.subject.differs(question.subject))
    return int(one) + int(said.moods & MOODS == question.moods & MOODS)


def order_by_question(hits: list[Hit], query: str) -> list[str]:
    """Move a hit that fits the question above a near tie that does not, among the top TOP;
    returns the ids moved up."""
    question = read(query)
    top = hits[:TOP]
    fit = {h.memory.id: fits(question, h.memory.content) for h in top if stating(h.memory)}
    moved: list[str] = []
    for _ in range(len(top)):
        swapped = False
        for i in range(len(top) - 1):
            upper, lower = top[i], top[i + 1]
            if upper.memory.id not in fit or lower.memory.id not in fit:
                continue
            close = lower.score >= TIE * upper.score
            if close and fit[lower.memory.id] > fit[upper.memory.id]:
                top[i], top[i + 1] = lower, upper
                if lower.memory.id not in moved:
                    moved.append(lower.memory.id)
                    lower.explanation.notes.append(
                        f"fits the question's person and mood better than [{upper.memory.id}]"
                        f", a near tie: placed above it")
                swapped = True
        if not swapped:
            break
    hits[:TOP] = top
    return moved

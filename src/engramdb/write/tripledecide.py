"""What a statement's structure (write/reading.py, write/triples.py) says about the write
decision, before the slot and shape rules (write/supersede.py) act:

- ``split_apart``: a stored memory about another subject ("I live in Hangzhou" / "My parents
  live in Shaoxing", 我住在杭州 / 我爸妈住在绍兴) is kept out of every rule's reach, and so is
  one that the new statement says in another mood (a plan, a past story, a passing exception,
  one more item, a question: "我明年可能搬去深圳" is no new residence). The evidence of an ADD
  names the memories kept apart and why.
- "triple_former_value": the new statement marks a value as former by its structure ("it's
  Kilimanjaro, not Everest", "from Jira to Linear", "8点40，不是6点40") and gives another, and
  the nearest current fact of a subject not apart holds that former value -> SUPERSEDE.

A rule "same subject and predicate, another object" was tried and removed: it changed nothing
on the behaviour data (bench/behaviours_half.py, both halves) and it superseded each of a batch
of notes by the next ("Note number 1 about topic1" over "Note number 0 about topic0": subject
"note", predicate "number X topic"): a predicate compared as exact text says too little.

The evidence names the subjects, the predicate and the values that went and came."""

from __future__ import annotations

from typing import Any, Protocol

from ..model import Action, Kind, Record
from .reading import read, same_value
from .stance import stance_of
from .triples import TRIPLE_KINDS

DECIDED_KINDS = TRIPLE_KINDS | {Kind.PROCEDURE}
OTHER_MOODS = frozenset({"plan", "past", "passing", "more", "question"})


class Candidate(Protocol):
    record: Record
    cosine: float   # and maybe its stored stance (write/stance.py), as supersede.Neighbour


def split_apart(rec: Record, current: list[Any]
                ) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """``current`` (Candidate items) without those of another subject or mood than ``rec``;
    those of another subject only (a subject swapped: an LLM judge of the shape rules may
    still be asked about them); the evidence naming both."""
    if rec.kind not in DECIDED_KINDS or rec.uri is not None:
        return current, [], {}
    mine = read(rec.content)
    kept: list[Any] = []
    others: list[Any] = []
    apart: list[dict[str, str]] = []
    for n in current:
        old = n.record
        if old.kind not in DECIDED_KINDS:
            kept.append(n)
            continue
        theirs = getattr(n, "stance", None) or stance_of(old.content)
        if mine.subject.differs(theirs.subject):
            others.append(n)
            apart.append({"id": old.id, "why": "subject", "old_subject":
                          theirs.subject.describe(), "new_subject": mine.subject.describe()})
        elif (mine.moods ^ theirs.moods) & OTHER_MOODS:
            apart.append({"id": old.id, "why": "mood",
                          "moods": ",".join(sorted((mine.moods ^ theirs.moods) & OTHER_MOODS))})
        else:
            kept.append(n)
    return kept, others, ({"kept_apart": apart} if apart else {})


def former_values(text: str) -> frozenset[str]:
    """The values ``text`` marks as former, when it also gives a value that holds."""
    found = read(text)
    return found.former if found.values else frozenset()


def triple_decision(rec: Record, current: list[Any]
                    ) -> tuple[Action, str, Record, dict[str, Any]] | None:
    if rec.kind not in DECIDED_KINDS:
        return None
    nearest = sorted((n for n in current if n.record.kind in DECIDED_KINDS),
                     key=lambda n: (-n.cosine, n.record.id))
    return _former(rec, nearest)


def _former(rec: Record, nearest: list[Any]) -> tuple[Action, str, Record, dict[str, Any]] | None:
    mine = read(rec.content)
    if not mine.former or not mine.values:
        return None
    for n in nearest:
        old = n.record
        if old.at > rec.at:
            continue
        theirs = read(old.content).values
        went = sorted(f for f in mine.former if any(same_value(f, v) for v in theirs))
        if went:
            return (Action.SUPERSEDE, "triple_former_value", old,
                    {"old_id": old.id, "subject": mine.subject.describe(), "former": went,
                     "new_values": sorted(mine.values), "cosine": round(n.cosine, 4)})
    return None

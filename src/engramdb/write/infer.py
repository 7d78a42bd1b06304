"""The kind of one memory, read from its text with the rule extractor's patterns.

``infer_kind`` is what the CLI's ``remember`` calls when no ``--kind`` is given: the text is cut
into sentences as a conversation turn would be (write/extract.py) and the first sentence the
extractor would keep decides: pending ("remind me to ..."), lesson, rule ("never ...",
"不要..."), preference ("I love ...", "我喜欢..."), fact ("I am allergic to ...", the slot
rules), or event (a first-person sentence naming a past time, "yesterday I went to ...").
A text no rule recognises is a fact, the library's default kind.

The library's ``Memory.remember(kind=None)`` does not call this: a kind left out there stays a
fact (or, for a URI already in memory, keeps that memory's kind), so a program's writes do not
change kind with the wording."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from ..model import Kind, Message
from .extract import Turn, draft_of, sentences

DEFAULT_RULE = "default"


@dataclass(frozen=True)
class Inference:
    """The kind chosen, the extractor rule that chose it ("default": none matched) and the
    sentence it matched (as the extractor keeps it: fillers such as "oh, and" cut)."""

    kind: Kind
    rule: str
    sentence: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind.value, "rule": self.rule, "sentence": self.sentence}


def infer_kind(text: str, at: datetime | None = None) -> Inference:
    """The kind of TEXT by the extractor's rules; ``at`` is when it was said (a past time the
    text names, "yesterday", is read against it; default now)."""
    when = at if at is not None else datetime.now(UTC)
    turn = Turn(0, Message("user", text), when)
    for sentence in sentences(text) or [text.strip()]:
        if not sentence:
            continue
        draft = draft_of(sentence, turn, None)
        if draft is not None and draft.kind is not None:
            rule = str((draft.metadata or {}).get("rule", DEFAULT_RULE))
            return Inference(Kind(draft.kind), rule, draft.content)
    return Inference(Kind.FACT, DEFAULT_RULE)

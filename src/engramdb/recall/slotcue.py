"""Which attribute a question asks about ("which company does Li work at" -> the employer,
"李现在住在哪里" -> the residence), so that recall puts the fact filling that slot above the
same subject's other facts ("Li works in Berlin" is where, not for whom). A fact or preference
whose slot (write/slots.py) has an asked attribute, and whose subject the question names (or
is the user), gets its fused score multiplied by ``SLOT_BOOST``; nothing else changes. A
question asked in the past tense (English "did") asks no slot, a slot being read in the
present, unless it asks for an earlier value ("before")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Record
from ..write.slots import USER, slot_of

SLOT_BOOST = 1.5
_WORK = ("workplace", "work location")
QUESTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    # (attributes, pattern on the lower-cased question), first match wins
    (("work location",), r"\b(?:which|what)\s+(?:city|town|country|place)\b.*\bwork"
                         r"|在哪个(?:城市|地方|国家)(?:工作|上班)"),
    (("workplace",), r"\b(?:which|what)\s+(?:company|employer|firm|organi[sz]ation|business)\b"
                     r"|\bemployer\b|\bwho\b.*\bwork(?:s|ing)?\s+for\b|\bwork(?:s|ing)?\s+for\b"
                     r"|哪家公司|什么公司|哪个公司|哪家单位|雇主|就职于"),
    (_WORK, r"\bwhere\b.*\bwork|在哪(?:里|儿)?(?:工作|上班)|在什么地方(?:工作|上班)"),
    (("residence",), r"\bwhere\b.*\b(?:live|lives|living|lived|reside|resides|based|moved|move)\b"
                     r"|\b(?:which|what)\s+(?:city|town|country)\b.*\blive|\bhome\s+(?:city|town)\b"
                     r"|住在哪|住哪|住在什么地方|家在哪|在哪(?:个城市)?住|搬到哪"),
    (("port",), r"\bport\b|端口"),
    (("version",), r"\b(?:version|release)\b|版本"),
    (("editor",), r"\b(?:editor|ide)\b|编辑器"),
    (("tech stack",), r"\b(?:stack|programming language|framework)\b|技术栈|编程语言"),
    (("operating system",), r"\b(?:operating system|os)\b|操作系统"),
    (("browser",), r"\bbrowser\b|浏览器"),
    (("database",), r"\bdatabase\b|数据库"),
)
_COMPILED = tuple((attrs, re.compile(p)) for attrs, p in QUESTIONS)
# a question asked in the past tense ("Where did my aunt live in the nineties?") asks what held
# then, not the slot's value now: write/slots.py reads a statement's slot in the present tense
# alone ("I lived in Perth" fills none); one that asks for an earlier value ("before": the
# routing's past, recall/temporal.py) still asks the slot, whose values all fill it
_PAST = re.compile(r"\bdid\b")


@dataclass(frozen=True)
class AskedSlot:
    attributes: tuple[str, ...]
    question: str  # lower-cased, to look the subject up in

    def to_dict(self) -> dict[str, object]:
        return {"attributes": list(self.attributes)}


def asked_slot(query: str, earlier: bool = False) -> AskedSlot | None:
    """The slot ``query`` asks about; ``earlier``: it asks for an earlier value."""
    text = query.lower()
    if not earlier and _PAST.search(text):
        return None
    for attrs, pattern in _COMPILED:
        if pattern.search(text):
            return AskedSlot(attrs, text)
    return None


def slot_factor(record: Record, asked: AskedSlot | None) -> float:
    """SLOT_BOOST when the record fills an asked attribute of a subject the question names."""
    if asked is None:
        return 1.0
    key = _slot_key(record.content, record.kind.value)
    if key is None or key[1] not in asked.attributes:
        return 1.0
    subject = key[0]
    named = subject in asked.question or subject in asked.question.replace("的", "")
    return SLOT_BOOST if subject == USER or named else 1.0


@lru_cache(maxsize=65536)
def _slot_key(content: str, kind: str) -> tuple[str, str] | None:
    from ..model import Kind

    slot = slot_of(content, Kind(kind))
    return slot.key if slot is not None else None

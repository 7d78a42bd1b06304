"""Is a query uncertain (a question, a doubt)? Cues are matched on word boundaries in English
("what" is a cue, "whatever" is not) and as particles in Chinese ("吗" before a question mark
or at the end, not inside "吗啡"). A question mark at the end counts in both languages."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

_EN_CUES = (
    "why", "how", "what", "which", "when", "where", "who", "whom", "whose", "whether",
    "maybe", "perhaps", "unsure", "not sure", "unclear", "no idea", "wonder", "confused",
    "should i", "could it", "is it", "are they", "does it", "do i", "did it", "can i",
)
_EN = re.compile(r"\b(" + "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in _EN_CUES)
                 + r")\b", re.IGNORECASE)
_ZH_CUES = ("怎么办", "怎么", "怎样", "如何", "为什么", "为何", "是否", "是不是", "能不能",
            "会不会", "要不要", "有没有", "不确定", "不知道", "不清楚", "不明白", "搞不懂",
            "也许", "或许", "难道", "哪里", "哪个", "哪些", "多少", "几时", "什么")
# "不管/无论 + cue" means "whatever/however", not a question
_ZH = re.compile(r"(?<!不管)(?<!无论)(" + "|".join(_ZH_CUES) + ")")
_ZH_PARTICLE = re.compile(r"[吗呢嘛](?=\s*(?:[？?!！。，,]|$))")
_END_QUESTION = re.compile(r"[?？]\s*$")


@dataclass(frozen=True)
class Uncertainty:
    """Whether the text is uncertain, and the cues that said so."""

    uncertain: bool
    cues: list[str] = field(default_factory=list)


def detect(text: str) -> Uncertainty:
    norm = unicodedata.normalize("NFKC", text).strip()
    cues = [m.group(1).lower() for m in _EN.finditer(norm)]
    cues += [m.group(1) for m in _ZH.finditer(norm)]
    cues += [m.group(0) + "(particle)" for m in _ZH_PARTICLE.finditer(norm)]
    if _END_QUESTION.search(norm):
        cues.append("?")
    return Uncertainty(bool(cues), list(dict.fromkeys(cues)))

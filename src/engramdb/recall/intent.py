"""What a query asks for: a fact, a time, a cause, or a wide look around (English and Chinese).

- causal: "why did the build fail", "what caused ...", "为什么", "原因", "导致";
- temporal: "when did we last talk", "how long ago", "what happened yesterday", "什么时候",
  "昨天发生了什么", "哪天";
- exploratory: "tell me about the memory architecture", "what do you know about", "what kinds
  of ... has X done", "聊聊记忆系统", "介绍一下", "有哪些";
- factual: everything else ("what is the config", "小新叫什么名字"), and any short query with no
  signal.

The first family that matches, in that order, wins (a "why" question about yesterday is causal).
Each intent names the preset that serves it (``PRESET_BY_INTENT``, recall/presets.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

FACTUAL, TEMPORAL, CAUSAL, EXPLORATORY = "factual", "temporal", "causal", "exploratory"
INTENTS = (FACTUAL, TEMPORAL, CAUSAL, EXPLORATORY)

_I = re.IGNORECASE
_PATTERNS = (
    (CAUSAL, re.compile(
        r"\bwhy\b|\bhow\s+come\b|\bwhat\s+(?:caused|causes|led\s+to|made)\b|\bcaus(?:e|ed|es)\b"
        r"|\breasons?\b|\bbecause\b|\bdue\s+to\b|\broot\s+cause\b"
        r"|为什么|为何|怎么会|原因|导致|因为|由于|起因|为啥", _I)),
    (TEMPORAL, re.compile(
        r"\bwhen\b|\bwhat\s+(?:time|date|day|year|month)\b|\bhow\s+long\s+(?:ago|since)\b"
        r"|\bsince\s+when\b|\b(?:yesterday|today|tonight|last\s+(?:week|month|year|night|time)"
        r"|this\s+(?:week|month|morning)|recently|lately)\b|\b\d+\s+(?:days?|weeks?|months?|years?)"
        r"\s+ago\b|\bwhat\s+happened\b"
        r"|什么时候|何时|哪天|哪一天|哪年|几号|几点|多久|多长时间|昨天|前天|今天|上周|上个月|去年"
        r"|最近|刚才|发生了什么", _I)),
    (EXPLORATORY, re.compile(
        r"\btell\s+me\s+(?:about|more)\b|\btalk\s+about\b|\bwhat\s+do\s+(?:you|we|i)\s+know\s+"
        r"about\b|\b(?:describe|overview|summar(?:y|ize|ise)|explore|brainstorm)\b"
        r"|\bwhat\s+(?:kinds?|sorts?|types?)\s+of\b|\bwhat\s+are\s+(?:some|all)\b"
        r"|\beverything\s+about\b|\bany\s+ideas?\b"
        r"|聊聊|谈谈|讲讲|说说|介绍|概述|总结|有哪些|哪些|都有什么|关于.{0,12}的一切", _I)),
)


@dataclass(frozen=True)
class Intent:
    name: str      # factual | temporal | causal | exploratory
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "reason": self.reason}


def classify(query: str) -> Intent:
    for name, pattern in _PATTERNS:
        found = pattern.search(query)
        if found:
            return Intent(name, f"{name}: the query says {found.group(0)!r}")
    return Intent(FACTUAL, "factual: no temporal, causal or exploratory signal")

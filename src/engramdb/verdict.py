"""A recall hit's verdict: does what it says still hold? The type and how it is said in
English and Chinese; recall/judge.py decides it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EN, ZH = "en", "zh"
APPROVED, QUESTIONABLE = "approved", "questionable"
_TEXT = {
    EN: {APPROVED: "approved", QUESTIONABLE: "questionable",
         "superseded": "superseded by a newer value", "newer_value": "a newer memory states "
         "another value", "contradicted": "another memory states another value",
         "unconfirmed": "unconfirmed for {days} days", "weak": "weak (faded toward the "
         "archive)", "by_model": "worded by a model", "summary": "a summary of other "
         "memories", "by_assistant": "said by the assistant"},
    ZH: {APPROVED: "可信", QUESTIONABLE: "存疑", "superseded": "已被更新的值取代",
         "newer_value": "较新的记忆给出了另一个值", "contradicted": "另一条记忆给出了不同的值",
         "unconfirmed": "{days} 天未确认", "weak": "记忆已弱（接近归档）",
         "by_model": "由模型转述", "summary": "其他记忆的摘要", "by_assistant": "助手所说"},
}


@dataclass(frozen=True)
class Reason:
    code: str      # superseded | newer_value | contradicted | unconfirmed | weak | by_model |
    #                summary | by_assistant
    weight: float  # the chance, from this signal alone, that the memory no longer holds
    detail: str = ""   # the other memory's id, or the days unconfirmed

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "weight": round(self.weight, 4), "detail": self.detail}


@dataclass(frozen=True)
class Verdict:
    """Whether a hit still holds: ``label`` approved or questionable, ``confidence`` in the
    label (0.5 to 1), ``doubt`` (the chance it no longer holds) and the reasons."""

    label: str
    confidence: float
    doubt: float
    reasons: list[Reason] = field(default_factory=list)
    lang: str = EN    # the question's: the language ``text()`` says it in by default

    def text(self, lang: str | None = None) -> str:
        words = _TEXT.get(lang or self.lang, _TEXT[EN])
        said = [words[r.code].format(days=r.detail) for r in self.reasons if r.weight >= 0.05]
        head = f"{words[self.label]} ({self.confidence:.2f})"
        zh = (lang or self.lang) == ZH
        sep, joiner = ("：", "；") if zh else (": ", "; ")
        return head + (sep + joiner.join(said) if said else "")

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "confidence": round(self.confidence, 4),
                "doubt": round(self.doubt, 4), "reasons": [r.to_dict() for r in self.reasons],
                "lang": self.lang, "text": self.text()}

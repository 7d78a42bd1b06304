"""The extractive summary of a session's older turns: no LLM, pure functions.

Each folded turn is cut into sentences (English and Chinese punctuation, line breaks), and a
sentence is kept when it carries something a later turn may need: a decision or constraint
("we decided", "must", "never", 决定, 必须, 不要...), a date ("2026-03-05", "May 3", "3月5日",
"明天", "next Friday"...), a number, or a name (a capitalised word inside an English
sentence; a person, place or organisation for jieba in a Chinese one). Chatter ("ok, thanks",
"好的") is dropped. A kept sentence becomes one line, ``role: sentence``, at most
``MAX_LINE_CHARS`` characters. A tool turn keeps its first line and its number-bearing lines.

The summary is bounded: when its lines pass their token cap, the lowest-value lines go first
(value: decision 4, date 2, name 1, number 1, summed), the oldest first among equals, so the
latest decisions are the last to go."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import islice

from ..text.tokens import count_tokens
from .state import Turn

MAX_LINE_CHARS = 240
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
_DECISION = re.compile(
    r"\b(?:decid\w*|decision|agree[ds]?|agreed|approved?|confirm(?:ed|s)?|chose|choose|"
    r"going\s+with|switch(?:ed)?\s+to|settled\s+on|will\s+use|we'll|let's|must|never|always|"
    r"don't|do\s+not|required?|deadline|plan(?:ned)?\s+to|final)\b"
    r"|决定|确定|同意|必须|不要|不能|不准|禁止|千万|一定要|计划|选择|选用|改用|改为|定了|就用|"
    r"截止|批准|确认|约定|务必", re.IGNORECASE)
_DATE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|"
    r"yesterday|tonight|next\s+(?:week|month|year))\b"
    r"|\d{1,4}\s*年|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|[周星期礼拜][一二三四五六日天]"
    r"|今天|明天|后天|昨天|下周|下个月|月底|年底", re.IGNORECASE)
_NUMBER = re.compile(r"\d|[一二三四五六七八九十百千万亿两]+(?:个|次|人|天|元|块|小时|分钟|%)")
_CAPITAL = re.compile(r"(?<=[a-z,;:]\s)[A-Z][\w-]+|(?<=\s)[A-Z]{2,}\b")
_CJK = re.compile("[\u4e00-\u9fff]")
_NAME_FLAGS = ("nr", "ns", "nt", "nz")
_NOT_NAMES = frozenset({"谢谢", "哈哈", "呵呵", "嘿嘿", "拜拜"})  # jieba tags these as names
WEIGHTS = {"decision": 4, "date": 2, "name": 1, "number": 1}


def marks(sentence: str) -> set[str]:
    """What makes a sentence worth keeping: decision, date, name, number (empty: chatter)."""
    found = set()
    if _DECISION.search(sentence):
        found.add("decision")
    if _DATE.search(sentence):
        found.add("date")
    if _NUMBER.search(sentence):
        found.add("number")
    if _CAPITAL.search(sentence) or (_CJK.search(sentence) and _zh_names(sentence)):
        found.add("name")
    return found


def value(line: str) -> int:
    return sum(WEIGHTS[m] for m in marks(line))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def summarize_turn(turn: Turn) -> list[str]:
    """The lines one folded turn adds to the summary (none for chatter)."""
    parts = sentences(turn.content)
    if turn.role == "tool" and parts:
        numbered = (p for p in parts[1:] if _NUMBER.search(p))
        kept = [parts[0], *islice(numbered, 3)]
    else:
        kept = [p for p in parts if marks(p)]
    return [_line(turn.role, p) for p in dict.fromkeys(kept)]


def fold(lines: Sequence[str], turns: Iterable[Turn]) -> list[str]:
    """The summary lines after folding ``turns`` (oldest first) into ``lines``."""
    out = list(lines)
    for turn in turns:
        out.extend(line for line in summarize_turn(turn) if line not in out)
    return out


def trim(lines: Sequence[str], cap: int, encoding: str) -> list[str]:
    """Drop the lowest-value lines, oldest first, until the lines fit in ``cap`` tokens."""
    kept = list(lines)
    order = sorted(range(len(kept)), key=lambda i: (value(kept[i]), i))
    while kept and count_tokens("\n".join(kept), encoding) > cap:
        total = count_tokens("\n".join(kept), encoding)
        costs = {i: count_tokens(kept[i], encoding) + 1 for i in range(len(kept))}
        gone: set[int] = set()
        for i in order:  # remove by the per-line costs, then check the joined text again
            if total <= cap or len(gone) == len(kept):
                break
            gone.add(i)
            total -= costs[i]
        gone = gone or {order[0]}
        kept = [line for j, line in enumerate(kept) if j not in gone]
        order = sorted(range(len(kept)), key=lambda i: (value(kept[i]), i))
    return kept


def _line(role: str, sentence: str) -> str:
    text = " ".join(sentence.split())
    if len(text) > MAX_LINE_CHARS:
        text = text[: MAX_LINE_CHARS - 1] + "…"
    return f"- {role}: {text}"


def _zh_names(sentence: str) -> bool:
    from ..text.tokenize import tagged

    return any(len(word) > 1 and flag.startswith(_NAME_FLAGS) and word not in _NOT_NAMES
               for word, flag in tagged(sentence))

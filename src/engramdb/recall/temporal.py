"""Reading with time: which memories a query about a time, the present or the past may return.

Routing (one per query, shown in the plan):
- ``window``: the query names a time (text/timewindow.py) and the window is applied: it
  narrows, it does not erase. What falls inside it is ranked first; the best matches outside
  it follow, each explained as outside the asked window, so a question whose answer was told
  on another day than the one it names still finds it (``window_first``). An event or emotion
  is in the window when its ``at`` is; any other kind (a fact, a preference...) holds from
  its ``at`` until it was superseded (``invalid_at``, open while current), and is in the window
  when that span meets it: "where did Li live in 2024" finds the fact that held in 2024 first,
  superseded or not. A fact's ``at`` is when it was written unless the writer said otherwise,
  so a fact written today is not inside a window in the past.
- ``past``: no applied window, and the query asks about the past ("before", "used to",
  "previously", 以前, 之前, 原来, 曾经, 上一台...): superseded memories are kept and each is
  placed just above the current value that replaced it (the newest former value first). A
  memory's standing for such a question is also read without those words (``untensed``): they say
  when, not what, and lean the question's meaning away from what the store holds.
- ``current``: present-tense and neutral questions: superseded memories are not returned.
- ``history``: a question said in none of the past's words whose meaning leans to an earlier
  value ("Which dentist did the kids go to at first?": recall/earlier.py, set by the recall
  pipeline once the question is embedded): superseded memories are kept, each just below the
  value that replaced it, as the meaning is less sure than the words.

A window is applied when it names its year ("in May 2023", "2023年5月", "on 8 May 2023",
"before 2024") or is read from the clock in a way that is right for a live agent ("yesterday",
"last week", "去年", "三天前"). A month or day without a year ("in March", "5月8日") is loose:
the latest one is only a guess, so it is shown in the plan and not applied."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from ..model import Hit, Kind, Record
from ..text.timespan import span_end
from ..text.timewindow import TimeWindow
from ..text.tokenize import words
from ..write.align import COPULAS

POINT_KINDS = frozenset({Kind.EVENT, Kind.EMOTION})
_PAST = re.compile(
    r"\bdid\b[^?.!]*\buse\s+to\b"
    r"|\b(?:before|used\s+to|previous(?:ly)?|formerly|former|earlier|originally|"
    r"no\s+longer|anymore|in\s+the\s+past)\b|以前|之前|原来|原先|曾经|过去|从前|先前"
    # "my old number", 旧护照: the former one ("How old ..." is an age; 依旧/仍旧 is "still";
    # 旧金山 is San Francisco)
    r"|\b(?:my|our|your|his|her|their|the)\s+old\b|(?<![依仍])旧(?!金山)",
    re.IGNORECASE)
# the auxiliaries of the past tense ("What did I drive before the Tesla?"); where a
# question's first auxiliary is in the present instead, a "before" with words after it
# places a step or a routine, not an earlier value ("Which drops do I put in before I
# sleep?", "What do I check before I start?"): ``_a_step``
_PAST_AUX = frozenset("was were did had used been".split())
_AUX_WORDS = re.compile(r"[a-z]+|'s", re.IGNORECASE)
HISTORY = "history"
_NOW = re.compile(r"\b(?:now|currently|current|these\s+days|at\s+present|today)\b"
                  r"|现在|目前|如今|当前|最近", re.IGNORECASE)


@dataclass(frozen=True)
class Routing:
    mode: str     # window | past | current | history
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"mode": self.mode, "reason": self.reason}


def route(query: str, window: TimeWindow | None) -> Routing:
    if window is not None and not window.loose:
        how = "names its year" if window.anchored else "read from the clock"
        return Routing("window", f"the query names a time ({window.expr!r}, {how}): "
                                 f"memories {window.label()} first, the best matches "
                                 "outside it after")
    past = next((m for m in _PAST.finditer(query) if not _a_step(query, m)), None)
    said = past.group(0) if past else previous_one(query)
    if said:
        return Routing("past", f"the query asks about the past ({said!r}): former "
                               "values first, each above the value that replaced it")
    now = _NOW.search(query)
    why = f"present tense ({now.group(0)!r})" if now else "no past marker (neutral)"
    return Routing("current", f"{why}: only current values, superseded ones left out")


def _a_step(query: str, match: re.Match[str]) -> bool:
    """Is the past marker ``match`` a "before" that places a step or a routine: words follow
    it, and the question's first auxiliary (write/align.py ``COPULAS``) is in the present?"""
    if match.group(0).lower() != "before" or not query[match.end():].strip(" ?!.,"):
        return False
    aux = next((w.lower() for w in _AUX_WORDS.findall(query)
                if w.lower() in COPULAS), None)
    return aux is not None and aux not in _PAST_AUX


def previous_one(query: str) -> str | None:
    """The words of "the previous one" said in Chinese, the counterpart of "previous": 上 as
    a word of its own before a word opening with 一 (上一台, 上一次, 上一任: jieba cuts 上 / 一台);
    not 早上一般 (早上 / 一般) nor 网上一搜 (网上 / 一 / 搜). 上一周 and 上一个月 are windows, which
    ``route`` reads first."""
    if "上一" not in query:
        return None
    cut = words(query)
    return next((a + b for a, b in pairwise(cut) if a == "上" and len(b) > 1
                 and b[0] == "一"), None)


def untensed(query: str) -> str:
    """The query without the words that ask about the past ("Which firm did my taxes
    before?" -> "Which firm did my taxes?"): what it is about, whatever the time."""
    return " ".join(_PAST.sub(" ", query).split())


def in_window(record: Record, window: TimeWindow) -> bool:
    """Does the record fall in the window: its moment (events) or the span it held (facts)?"""
    if record.kind in POINT_KINDS:
        if record.at_precision is None:
            return window.contains(record.at)
        return window.overlaps(record.at, span_end(record.at, record.at_precision))
    return window.overlaps(record.at, record.invalid_at)


def why_out(record: Record, window: TimeWindow) -> str:
    """Where the record sits in time, said of one outside the window."""
    if record.kind in POINT_KINDS:
        if record.at_precision is not None:
            return f"in the {record.at_precision} of {record.at.date()}"
        return f"at {record.at.date()}"
    until = record.invalid_at.date() if record.invalid_at else "now"
    return f"held {record.at.date()}..{until}"


def window_first(hits: list[Hit], window: TimeWindow) -> tuple[list[Hit], int]:
    """The hits inside the window first, then those outside it, each group in its order; every
    hit says which side it is on. Also returns how many are inside."""
    inside: list[Hit] = []
    outside: list[Hit] = []
    for hit in hits:
        rec = hit.memory
        if in_window(rec, window):
            hit.explanation.notes.append(f"in the window {window.label()} (at {rec.at.date()})")
            inside.append(hit)
        else:
            hit.explanation.notes.append(
                f"outside the asked window {window.label()} ({why_out(rec, window)}): "
                "ranked after what falls inside it")
            outside.append(hit)
    return inside + outside, len(inside)

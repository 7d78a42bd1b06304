"""Supersession by a value the new text says has ended: "I sold the Civic and bought a Tesla"
retires "I drive a 2012 Honda Civic", "钢琴不学了，改学吉他" retires "我在学钢琴".

The slot rules (write/slots.py) and the shape rules (write/shape.py) see a change when both
texts say the same thing with another value. People often say it the other way: they name
the old value and that it is over (sold, quit, gave up, broke up with, left; 卖了, 不学了,
离职了, 分手), and then, maybe, what replaced it. ``ended`` reads those objects; a current fact,
preference or procedure near the new one (the write's neighbours) whose words hold every word
of such an object is superseded by the new memory, rule "ended_value" (the closest one, if
several). What was ended must be named: "I quit" or "不学了" alone ends nothing here, and an
object of more than four words is a clause, not a value. An end for a while, at a time or of a
part (``PASSING``: "today", "after 2pm", "some", 一天, 一些) ends nothing either, nor does the
end of the old fact's own subject ("I broke up with Jonah" leaves "Jonah is a pastry chef")."""

from __future__ import annotations

import re

from ..text import tokenize
from ..text.stopwords import EN_STOP, ZH_STOP

MAX_ENDED = 16   # ended things read from one text
# the verbs an ended Chinese thing is read with, and the age of a thing: "my old bike" is the bike
_NOT_NAMING = frozenset({"学", "用", "做", "玩", "去", "吃", "喝", "上", "开",
                         "old", "new", "former", "previous", "current", "旧", "老", "新"})
# a text about the user ("I...", "My...", "我..."): what follows is said of the user
_USER_FIRST = re.compile(r"(?i:i|i'm|i've|i'd|my|we|we're|our|me)\b|我")

_DET = r"(?:(?:my|our|the|his|her|their|that|this|a|an)\s+)?"
_OBJ = r"(?P<obj>[\w'-]+(?:\s+[\w'-]+){0,3}?)"
_END = (r"(?=\s*(?:[,;.!?]|\s(?:and|but|so|for|because|last|this|two|three|a few|after|to|with"
        r"|by|in|at|on|before|yesterday|today|recently)\b|$))")
ENDED_EN = (
    re.compile(r"\b(?:sold|quit|ditched|cancel(?:l)?ed|gave up(?:\s+on)?|got rid of|"
               r"broke up with|divorced|replaced|dropped out of|switched away from|"
               r"moved out of|resigned from|retired from)\s+" + _DET + _OBJ + _END),
    re.compile(r"\b(?:stopped|quit|no longer|don't|do not)\s+(?:using|playing|learning|taking|"
               r"going to|seeing|dating|drinking|eating|driving|use|play|learn|take|go to|see"
               r"|date|drink|eat|drive)\s+" + _DET + _OBJ + _END),
    # the old value as the subject of its own end, nothing after: "Priya left; my new
    # manager is Tom" (not "my son quit violin": the son quit something)
    re.compile(r"^" + _DET + _OBJ + r"\s+(?:left|quit|retired|resigned|moved away|is gone)"
               r"(?=\s*(?:[,;.!?]|$))"),
)
# "left" ends a named thing ("I left Google in March"); "I left my keys at the office" leaves
# something somewhere: read on the text as written, with a capital
LEFT = re.compile(r"\bleft\s+(?P<obj>[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,2})(?!['\w])")
# an end for a while, at a time or of a part is no end of the thing: "gave up on the crossword
# today", "no longer drink coffee after 2pm", "sold some old books", "跑步停了一天"
PASSING = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|week|time)|for (?:now|a (?:day|week|"
    r"while|bit))|early|halfway|after \d\w*|before \d\w*|after (?:noon|lunch|dinner|work)"
    r"|some|a few|a couple|one of|part of|temporarily|for the day)\b"
    r"|今天|今晚|这次|这周|一天|一次|暂时|一些|一部分|有些|一下")
_ZH_OBJ = r"(?P<obj>[^，,。；;！!？?\s]{1,8}?)"
ENDED_ZH = (
    re.compile(r"(?:把|将)" + _ZH_OBJ
               + r"(?:卖了|卖掉了|卖掉|退了|扔了|删了|停了|辞了|退掉了|退掉)"),
    re.compile(r"(?:和|跟|与)" + _ZH_OBJ + r"(?:分手|离婚)"),
    re.compile(r"从" + _ZH_OBJ + r"(?:离职|辞职|跳槽|退学|搬走|搬出来|搬出)"),
    re.compile(r"(?:不再|没再|再也不)(?:用|去|学|吃|喝|开|玩|上)" + _ZH_OBJ
               + r"(?=[了，,。；;！!]|$)"),
    re.compile(r"(?:^|[，,。；;])" + _ZH_OBJ + r"(?:不学了|不用了|不做了|不玩了|不去了|不吃了|"
               r"不喝了|不上了|离职了|辞职了|退休了|卖了|卖掉了|停了|搬走了)"),
)


def ended(text: str) -> list[frozenset[str]]:
    """The words of each thing ``text`` says has ended (see the module's docstring)."""
    low = " ".join(text.lower().split())
    if PASSING.search(low):
        return []
    found = [m["obj"] for p in (*ENDED_EN, *ENDED_ZH) for m in p.finditer(low)]
    found += [m["obj"] for m in LEFT.finditer(text)]
    out: list[frozenset[str]] = []
    for obj in list(dict.fromkeys(found))[:MAX_ENDED]:  # a long text: its first few, once each
        words = _words(obj)
        if words and len(words) <= 4 and words not in out:
            out.append(words)
    return out


def holds(content: str, words: frozenset[str]) -> bool:
    """Does a text hold every word of an ended thing, as what it says of its subject rather
    than as the subject? "I'm dating Chris" ends with "I broke up with Chris"; "Chris is a
    chef" stays what it is ("王芳是我的大学同学" / "我和王芳分手了" too)."""
    tokens = tokenize(content)
    if not words <= set(tokens):
        return False
    if _USER_FIRST.match(content.strip()):   # the user is the subject: the rest is said of them
        return True
    first = next((t for t in tokens if t not in EN_STOP and t not in ZH_STOP), None)
    return first not in words


def _words(obj: str) -> frozenset[str]:
    return frozenset(w for w in tokenize(obj)
                     if w not in EN_STOP and w not in ZH_STOP and w not in _NOT_NAMING)


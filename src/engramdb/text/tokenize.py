"""One tokenizer for indexing and for queries: jieba for Chinese, Snowball stems for English.

The same function runs when a memory is stored and when a query arrives, so a two-character
Chinese word or an inflected English word matches its memory. Tokens are plain words: no FTS
syntax can come out of here.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from functools import cache, lru_cache
from typing import Any

import Stemmer

from .kept import Kept, kept_words, pack, unpack
from .stopwords import EN_STOP, ZH_STOP

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = rf"[^\W_{_CJK}]+"  # letters and digits, but not CJK: "去Berlin开会" splits
_CJK_RE = re.compile(f"[{_CJK}]")
_OTHER_WORD_CHAR = re.compile(f"[^\\W{_CJK}]")  # a letter, digit or _ that is not CJK
_lock = threading.Lock()
_ready = False
_stemmer = Stemmer.Stemmer("english")
# Its own cache (word -> [stem, count], 10,000 lists the garbage collector walks at each full
# collection) only sees ``_stem``'s misses: off.
_stemmer.maxCacheSize = 0
# Verbs jieba's default dictionary ranks below their single characters, so its HMM glues the
# character to an unknown name before it ("王磊艳住在成都" -> 王磊艳住 / 在 / 成都): made words.
_WHOLE_WORDS = ("住在", "搬到")


@cache
def _run() -> re.Pattern[str]:
    """A run of CJK characters, or a word (compiled on first use: its character classes
    cost ~0.05 s to compile, which a command that tokenizes nothing need not pay)."""
    return re.compile(rf"([{_CJK}]+)|({_WORD}(?:'{_WORD})*)", re.UNICODE)


@cache
def _compound() -> re.Pattern[str]:
    """Words joined by hyphens ("de-stress", "e-mail", "co-worker"): also searched as one
    word, the way they are often written ("destress"); letters only, so dates and codes
    ("2024-05-08") stay."""
    return re.compile(r"(?<![\w-])([^\W\d_]+(?:-[^\W\d_]+)+)(?![\w-])", re.UNICODE)


class _WholeFileMarshal:
    """``marshal`` for jieba's module, but ``load`` reads the whole file first. jieba loads its
    dictionary cache (~500,000 words and prefixes, 9 MB) with ``marshal.load(file)``, which
    reads a buffered file a few bytes at a time: 1.08 s of CPU, against 0.38 s to read the
    bytes and ``marshal.loads`` them. Everything else (where the cache is, when it is stale,
    writing it) stays jieba's."""

    def __getattr__(self, name: str) -> Any:
        import marshal

        return getattr(marshal, name)

    @staticmethod
    def load(file: Any) -> Any:
        import marshal

        return marshal.loads(file.read())


def _jieba() -> Any:
    """jieba's tokenizer, imported and loaded on first use (~0.8 s of CPU in all)."""
    global _ready
    import jieba

    if not _ready:
        with _lock:
            if not _ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.marshal = _WholeFileMarshal()   # its module's name for marshal
                jieba.initialize()
                for word in _WHOLE_WORDS:
                    jieba.suggest_freq(word, tune=True)
                _ready = True
    return jieba.dt


@lru_cache(maxsize=4096)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """jieba's words of ``text`` with their part-of-speech flags, kept per text: every reader
    of the tags asks here (a sentence the extractor reads is tagged by its time, names, typed
    tokens and slot readings alike)."""
    import jieba.posseg as pseg

    _jieba()
    return tuple((w.word, w.flag) for w in pseg.cut(text))


def normalize(text: str) -> str:
    """NFKC, lower case, collapsed whitespace: the form hashes and comparisons use."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def is_cjk(text: str) -> bool:
    return _CJK_RE.search(text) is not None


def only_cjk(text: str) -> bool:
    """Does the text hold Chinese characters and no other letter or digit (spaces and
    punctuation aside)?"""
    return is_cjk(text) and _OTHER_WORD_CHAR.search(text) is None


def _stem_word(word: str) -> str:
    return _stemmer.stemWord(word)


_stem = kept_words(65536, _stem_word)   # text/kept.py: a cache the collector does not walk


def _cjk_words(run: str) -> list[str]:
    return [w for w in _jieba().cut_for_search(run) if w.strip() and w not in ZH_STOP]


def words(text: str) -> list[str]:
    """jieba's precise cut of ``text`` (its words, punctuation and spaces included), for
    readings that need a Chinese word's neighbours."""
    return list(_jieba().cut(text))


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Search tokens of ``text``, in order, duplicates kept (BM25 counts them)."""
    return list(_tokens(text, keep_stopwords))


def latin_tokens(text: str) -> tuple[str, ...]:
    """``tokenize``'s tokens of ``text`` less the words of its Chinese runs, which are not
    segmented (jieba does not load): enough to ask whether text holds a term in no CJK
    script, as a question in English asks of a memory in Chinese. A text with no CJK
    character (once NFKC-normalised, as ``_tokens`` reads it) has no run to segment: its
    tokens are ``tokenize``'s, and so is its cache entry (an ingest's texts, then recall's).
    (One with a CJK character as written is read unsegmented whatever NFKC makes of it.)"""
    plain = text.isascii() or not (is_cjk(text) or is_cjk(unicodedata.normalize("NFKC", text)))
    return _tokens(text, False, segment=plain)


@lru_cache(maxsize=32768)   # a recall's hits: a lookup, not a tuple made again (text/kept.py)
def _tokens(text: str, keep_stopwords: bool, segment: bool = True) -> tuple[str, ...]:
    """One write tokenizes the same text several times (guard, index, neighbours), and each
    recall the texts of its ~30 best candidates (re-ranking, relevance, expansion): cached,
    deep enough for a 10k-memory scope's texts (4,096 missed 40 % of a recall's).

    A text's tokens are its space-separated pieces' tokens, in order: no token, CJK run or
    hyphenated word spans a space, NFKC composes nothing across one and lower case reads no
    context across one (tests/test_tokenize.py checks it on random text). So a new text costs
    a cache look-up per piece it shares with texts seen before (a memory's words, a name)."""
    if " " not in text:
        return _piece_tokens(text, keep_stopwords, segment)
    out: list[str] = []
    for piece in text.split(" "):
        if piece:
            out.extend(_piece_tokens(piece, keep_stopwords, segment))
    return tuple(out)


def _piece_tokens(text: str, keep_stopwords: bool, segment: bool) -> tuple[str, ...]:
    """The tokens of ``text`` (any text; ``_tokens`` hands it a piece without spaces)."""
    kept = _PIECES[keep_stopwords, segment]
    found = kept.get(text)
    if found is not None:
        return unpack(found)
    tokens = _read_piece(text, keep_stopwords, segment)
    packed = pack(tokens)
    if packed is not None:
        kept.put(text, packed)
    return tokens


# text/kept.py: caches the garbage collector does not walk, one per pair of flags
_PIECES = {(keep, segment): Kept(65536) for keep in (False, True) for segment in (False, True)}


def _read_piece(text: str, keep_stopwords: bool, segment: bool) -> tuple[str, ...]:
    out: list[str] = []
    text = unicodedata.normalize("NFKC", text).lower()
    joined = {m.end(): m.group(1).replace("-", "") for m in _compound().finditer(text)
              if not _CJK_RE.search(m.group(1))}
    for m in _run().finditer(text):
        cjk, word = m.groups()
        if cjk:
            if segment:
                out.extend(_cjk_words(cjk))
            continue
        word = word.replace("'", "")
        if keep_stopwords or word not in EN_STOP:
            out.append(word if word.isdigit() else _stem(word))
        if m.end() in joined:
            out.append(_stem(joined[m.end()]))
    return tuple(out)

"""Typed tokens and their alignment: what two texts share and where, and of what kind each
differing span is (a value: number, time, date, code or host name, a name or place; or a plain
word). write/shape.py decides supersession from it.

English is split by a regular expression that keeps codes whole ("alder-01", "9:30",
"2024-05-08", "10.0.0.1", "ci.example.com"), Chinese by jieba with its part-of-speech tags
(nr person, ns place, nt organisation, nz other proper noun, m numeral, t time)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..text.stopwords import EN_STOP, ZH_STOP
from ..text.tokenize import _CJK, _stem, tagged

# token types
VALUE = "value"      # a number, time, date, code, host or a proper name
WORD = "word"        # a content word
STOP = "stop"        # a function word
CUE = "cue"          # a word announcing a change ("now", "moved to", 改到, 现在)
NEG = "neg"          # a negation ("not", "no longer", 不)
POSS = "poss"        # a possessive marker ('s, 的 after a name)
MARK = "mark"        # ":" "=" "->": a label and its value

_AN = rf"[^\W_{_CJK}]"           # a letter or digit, not CJK
_LETTER = rf"[^\W\d_{_CJK}]"
_TOKEN = re.compile(
    r"(?P<masked>\[[a-z_]+#[0-9a-f]+\])"                # a masked value (write/privacy.py)
    rf"|(?P<cjk>[{_CJK}]+)"
    rf"|(?P<code>{_AN}+(?:[-_.:/@]{_AN}+)+)"          # alder-01, 9:30, v2.3, a.b.com
    rf"|(?P<num>\d+(?:[.,]\d+)*(?:%|{_LETTER}{{1,3}}(?!{_AN}))?)"  # 42, 3.5, 50%, 3pm, 5kg
    rf"|(?P<word>{_LETTER}+(?:'{_LETTER}+)*)"
    r"|(?P<mark>[:=→>]|：)",
    re.UNICODE)
CUES_EN = frozenset("""now currently moved move changed change switched switch updated update
    instead anymore longer new newly today nowadays recently since rescheduled relocated
    became become becomes actually went gone rose risen raised increased decreased dropped
    fell cut reduced lowered bumped grew pushed postponed delayed extended shortened
    upgraded downgraded migrated transferred renamed""".split())
NEG_EN = frozenset("not no never nor isn't aren't doesn't don't didn't won't can't".split())
CUES_ZH = frozenset("""现在 目前 如今 已经 改到 改成 改为 换成 换到 换成了 搬到 搬去 挪到 调到 调整
    变成 变为 更新 新 改 换 已 了 现 目前为止 最近 其实 实际上 涨到 涨 降到 降 推迟到 推迟
    提前到 提前 削减到 削减 增加到 减少到 升级到 迁移到 迁到 改用 改在""".split())
NEG_ZH = frozenset("不 没 没有 不再 别 无".split())
LE = "了"
# 了 closing a clause says a new state (女儿上一年级了); after a verb inside one, an act done
# (我把草莓送给了邻居, 我们挑了一张原木餐桌)
NEW_STATE = re.compile(r"了(?=\s*(?:[，。！？；、,.!?;~…]|$))")
DATE_WORDS = frozenset("""january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday
    thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays
    sundays noon midnight morning afternoon evening tonight weekday weekend weekends
    spring summer autumn fall winter""".split())
# the cardinal numbers written as words, a closed class like the digits ("every four weeks",
# "five hives"); not "one", which is as often a pronoun ("the old one")
NUMBER_WORDS = frozenset("""two three four five six seven eight nine ten eleven twelve
    thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty
    sixty seventy eighty ninety hundred thousand million billion dozen""".split())
UNITS = frozenset("""am pm kg g mg lb lbs km m cm mm mi ft h hr hrs min mins s sec ms gb mb tb
    kb gib mib usd eur gbp cny rmb yuan dollars euros percent""".split())
ZH_VALUE_FLAGS = ("nr", "ns", "nt", "nz", "m", "t", "eng", "x")
ZH_TIME = re.compile(r"^(?:每?(?:周|星期|礼拜)[一二三四五六日天]?|每[天日月年晚]|[早晚]上|上午|下午"
                     r"|中午|凌晨|半夜|周末|\d+[点时号日月年])$")
ZH_UNIT_CHARS = frozenset("年月日号点分时秒半块元岁斤公里米克度个台次层楼")
ZH_NUMERALS = frozenset("零〇一二三四五六七八九十百千万亿两半")  # a Chinese number, spelled out
COPULAS = frozenset("""is are was were am be been being has have had will would shall should
    can could may might must does do did 's""".split())
PREPOSITIONS = frozenset("""at on in to from by with for as into onto via under over near
    until till before after during""".split())


@dataclass(frozen=True)
class Tok:
    norm: str      # what alignment compares (lower case, English words stemmed)
    surface: str   # as written
    type: str
    verb: bool = False  # marks the predicate: a verb, copula or preposition
    time: bool = False  # a Chinese time or number ("晚上", "9", "点", "周三")


# One Tok per distinct token, and one empty frozenset: the readings kept in the caches below
# (and reading.py's, conflicts.py's) would otherwise hold ~40k Toks and ~14k empty sets at 10k
# memories, objects the garbage collector walks at each full collection (bench/results/speed.md)
KEPT_TOKS = 8192
_toks: dict[tuple[str, str, str, bool, bool], Tok] = {}
NOTHING: frozenset[str] = frozenset()


def token(norm: str, surface: str, type_: str, verb: bool = False, time: bool = False) -> Tok:
    """``Tok(norm, surface, type_, verb, time)``, the same object for the same token (up to
    ``KEPT_TOKS`` distinct ones, then the kept ones are let go)."""
    key = (norm, surface, type_, verb, time)
    found = _toks.get(key)
    if found is None:
        if len(_toks) >= KEPT_TOKS:
            _toks.clear()
        found = _toks[key] = Tok(norm, surface, type_, verb, time)
    return found


def frozen(items: Iterable[str]) -> frozenset[str]:
    """``frozenset(items)``; the one empty frozenset (``NOTHING``) when there are none."""
    return frozenset(items) or NOTHING


def typed_tokens(text: str) -> tuple[Tok, ...]:
    """The typed tokens of ``text``, in order."""
    return placed_tokens(text)[0]


@lru_cache(maxsize=4096)
def placed_tokens(text: str) -> tuple[tuple[Tok, ...], tuple[int, ...]]:
    """The typed tokens of ``text`` and where each starts in its NFKC form (``clean``)."""
    text = clean(text)
    out: list[Tok] = []
    starts: list[int] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        s = m.group(0)
        if kind == "cjk":
            at = m.start()
            for tok in _cjk_tokens(s):
                out.append(tok)
                starts.append(at)
                at += len(tok.surface)
            continue
        if kind == "mark":
            found = [token(":", s, MARK, verb=True)]
        elif kind in ("code", "num", "masked"):
            found = [token(s.lower(), s, VALUE)]
        else:
            found = _word_tokens(s, initial=not out)
        out.extend(found)
        starts.extend([m.start()] * len(found))
    return tuple(_units(out)), tuple(starts)


def set_apart(text: str) -> tuple[bool, ...]:
    """For each typed token of ``text`` (``placed_tokens``), whether a mark other than a space
    stands between it and the token before: "31 (12 was broken)" holds two values, "Earl Grey"
    one. Not kept: recall/conflicts.py keeps the reading it is part of."""
    toks, starts = placed_tokens(text)
    text = clean(text)
    marked: dict[int, bool] = {}   # where each match starts -> a mark stands before it
    end = None
    for m in _TOKEN.finditer(text):
        marked[m.start()] = end is not None and bool(text[end:m.start()].strip())
        end = m.end()
    return tuple(marked.get(at, False) and (i == 0 or starts[i - 1] != at)
                 for i, at in enumerate(starts))


def clean(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'")


# the clitics of English contractions and the words they stand for ("I'm" is "I am"); 's is
# read as a possessive, n't as a negation
CLITICS = {"'m": "am", "'re": "are", "'ve": "have", "'d": "would", "'ll": "will"}


def _word_tokens(s: str, initial: bool) -> list[Tok]:
    cut = s.rfind("'")
    clitic = CLITICS.get(s[cut:].lower()) if cut > 0 else None
    if clitic is not None:   # "I'm", "we've": the word, then its verb
        return [*_word_tokens(s[:cut], initial), token(clitic, s[cut:], STOP, verb=True)]
    base, poss = (s[:-2], True) if s.lower().endswith("'s") and len(s) > 2 else (s, False)
    low = base.lower()
    if low in NEG_EN or low.endswith("n't"):
        kind = NEG
    elif low in CUES_EN:
        kind = CUE
    elif low in DATE_WORDS or low in NUMBER_WORDS or (
            base[:1].isupper() and not initial and low not in EN_STOP):
        kind = VALUE
    elif low in EN_STOP:
        kind = STOP
    else:
        kind = WORD
    verb = kind != VALUE and (low in COPULAS or low in PREPOSITIONS)
    toks = [token(low if kind in (VALUE, NEG) else _stem(low), base, kind, verb)]
    if poss:
        toks.append(token("'s", "'s", POSS))
    return toks


@lru_cache(maxsize=16384)
def _cjk_tokens(run: str) -> tuple[Tok, ...]:
    """A Chinese run's typed tokens: kept by run, since a memory's sentences and clauses are
    read apart (write/reading.py) as well as whole, and its runs are the same each time."""
    out: list[Tok] = []
    words = [(word, flag) for word, flag in tagged(run) if word.strip()]
    for i, (word, flag) in enumerate(words):
        nxt = words[i + 1][0] if i + 1 < len(words) else ""
        timed, counted = bool(ZH_TIME.search(word)), _counted(word)
        if word in NEG_ZH:
            kind = NEG
        elif word in CUES_ZH:
            kind = CUE
        elif word == "的" and flag.startswith("u"):
            kind = POSS if i and words[i - 1][1].startswith(("nr", "r")) else STOP
        elif flag.startswith(ZH_VALUE_FLAGS) or timed or (
                word in ZH_UNIT_CHARS and out and out[-1].type == VALUE) or counted:
            kind = VALUE
        elif word in ZH_STOP:
            kind = STOP
        else:
            kind = WORD
        verb = flag.startswith(("v", "p")) and kind != VALUE and nxt != "的"
        time = kind == VALUE and (flag.startswith(("t", "m")) or timed
                                  or word in ZH_UNIT_CHARS or counted)
        out.append(token(word, word, kind, verb or word in ("是", "为", "在"), time))
    return tuple(out)


def _counted(word: str) -> bool:
    """A numeral and its unit in one word (半小时, 三公里), whatever jieba tags it: most are
    tagged numerals, 半小时 a distinguishing word."""
    return len(word) > 1 and word[0] in ZH_NUMERALS and word[-1] in ZH_UNIT_CHARS


def _units(toks: list[Tok]) -> list[Tok]:
    """A short word right after a number ("3 pm", "5 kg", "2 hours") is part of the value."""
    out: list[Tok] = []
    for t in toks:
        prev = out[-1] if out else None
        if (prev is not None and prev.type == VALUE and any(c.isdigit() for c in prev.surface)
                and (t.surface.lower() in UNITS or t.surface in ZH_UNIT_CHARS)):
            t = token(t.surface.lower(), t.surface, VALUE, time=t.surface in ZH_UNIT_CHARS)
        out.append(t)
    return out


@dataclass
class Region:
    """One place where two texts differ: the old tokens and the new ones in their stead."""

    old_start: int
    old: list[Tok]
    new: list[Tok]

    def content(self, side: str) -> list[Tok]:
        toks = self.old if side == "old" else self.new
        return [t for t in toks if t.type in (VALUE, WORD)]

    def has(self, kind: str) -> bool:
        return any(t.type == kind for t in (*self.old, *self.new))

    def to_dict(self) -> dict[str, str]:
        return {"old": " ".join(t.surface for t in self.old),
                "new": " ".join(t.surface for t in self.new)}


@dataclass
class Alignment:
    old: tuple[Tok, ...]
    new: tuple[Tok, ...]
    regions: list[Region]
    ratio: float

    def shared_content(self) -> int:
        """The old text's content tokens outside every region (a region's old tokens are
        ``old[old_start:old_start + len(old)]``)."""
        changed = {i for r in self.regions
                   for i in range(r.old_start, r.old_start + len(r.old))}
        return sum(1 for i, t in enumerate(self.old)
                   if t.type in (VALUE, WORD) and i not in changed)


def align(old_text: str, new_text: str) -> Alignment:
    """Align the typed tokens of two texts; differing spans at most one shared token apart
    are one region ("5 月 3 日" -> "6 月 1 日" is one date)."""
    old, new = typed_tokens(old_text), typed_tokens(new_text)
    matcher = difflib.SequenceMatcher(a=[t.norm for t in old], b=[t.norm for t in new],
                                      autojunk=False)
    regions: list[Region] = []
    last_end = -10
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        gap = old[last_end:i1] if regions else ()
        if regions and i1 - last_end <= 1 and all(t.type in (VALUE, STOP) for t in gap):
            prev = regions[-1]
            prev.old.extend([*gap, *old[i1:i2]])
            prev.new.extend([*gap, *new[j1:j2]])
        else:
            regions.append(Region(i1, list(old[i1:i2]), list(new[j1:j2])))
        last_end = i2
    return Alignment(old, new, regions, matcher.ratio())


def predicate_index(toks: tuple[Tok, ...]) -> int | None:
    """Where the predicate starts: the first verb, copula, preposition or label mark after
    the first content token; None when none is seen."""
    seen_content = False
    for i, tok in enumerate(toks):
        if tok.type in (VALUE, WORD) and not seen_content:
            seen_content = True
            if not any(t.norm in PRONOUNS for t in toks[:i]):
                continue  # the subject ("Li", "the build cache"); after "I" a verb
        if seen_content and (tok.verb or _looks_verb(toks, i)):
            return i
    return None


PRONOUNS = frozenset("i we you he she they it 我 我们 你 你们 他 她 他们 她们 咱们".split())
EN_VERBS = frozenset(_stem(v) for v in """use prefer like love hate enjoy need want take drive
    own run live work study teach keep store host serve ship deploy release meet start end
    open close cost weigh earn pay rent owe speak play wear eat drink sleep wake leave arrive
    land depart go get call sit stand belong point resolve forward sync back lead manage
    report attend follow read watch listen drive ride commute park charge expire renew due
    contain hold measure last take""".split())


def _looks_verb(toks: tuple[Tok, ...], i: int) -> bool:
    tok = toks[i]
    if tok.type not in (WORD, CUE) or i == 0:
        return False
    return tok.norm in EN_VERBS or toks[i - 1].norm in PRONOUNS or tok.surface.endswith("ed")


@lru_cache(maxsize=8192)
def content_words(text: str) -> frozenset[str]:
    """The compared forms of a text's words and values."""
    return frozen(t.norm for t in typed_tokens(text) if t.type in (VALUE, WORD))


def frame_words(text: str) -> frozenset[str]:
    """The compared forms of a text's content words, not its values: what stays when a value
    changes."""
    return frozen(t.norm for t in typed_tokens(text) if t.type == WORD)


def only_done(changes: set[str] | frozenset[str], text: str) -> bool:
    """Are a text's change words only a 了 that says an act done, not a new state?"""
    return changes == {LE} and not NEW_STATE.search(text)

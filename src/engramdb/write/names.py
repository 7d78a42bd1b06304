"""People and places a sentence names, for the rule extractor's anchors (write/extract.py).

Chinese: jieba's POS tags. A word tagged ``nr`` (a person's name) counts when it starts with a
common surname; a word tagged ``ns`` (a place) counts unless it is a common noun ("城市"). A
name right after a verb of going or living ("去", "回", "搬到", "住在", "飞到"...) is a place
whatever its tag: jieba tags "马德里" and "柏林" ``nr``.
English: capitalised words after a place preposition ("in Boston", "to Tokyo") or a meeting
verb ("met Sarah", "with Tom"), after a relation ("my sister Anna", "my manager is called
Priya"), and a capitalised sentence opener followed by a verb ("Li works at...") unless it is
an ordinary word ("Could", "Two", "Yesterday").
"""

from __future__ import annotations

import re

from ..text.stopwords import EN_STOP
from ..text.tokenize import is_cjk

_EN_PLACE = re.compile(r"\b(?:in|to|from|at|near|visited|visit)\s+(?:the\s+)?((?:[A-Z][\w'-]+)"
                       r"(?:\s+[A-Z][\w'-]+){0,2})|\b(?:city|town|country|hometown) is "
                       r"([A-Z][\w'-]+)")
_NAME = r"([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
_EN_PERSON = re.compile(
    r"\b(?:with|and|met|meet|told|asked|call|(?<!be )called|visit(?:ed)?|for|to)\s+" + _NAME
    + r"\b|^([A-Z][a-z'-]+)(?:'s)?(?=\s+(?!is\b)[a-z])"
    r"|\b(?:sister|brother|wife|husband|son|daughter|mother|father|mom|dad|friend|manager|"
    r"boss|colleague|partner|girlfriend|boyfriend)(?:'s name)?\s+(?:is\s+)?(?:called\s+|named\s+)?"
    + _NAME)
_NOT_NAMES = frozenset({
    "I", "The", "My", "Our", "We", "It", "This", "That", "Next", "Last", "Yesterday", "Today",
    "Tomorrow", "Please", "Remind", "Don't", "Lesson", "Can", "Could", "Two", "Four", "Five",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
    "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December", "Java", "Go", "Postgres", "MySQL", "Fedora", "Tesla", "ThinkPad",
    "README", "PR", "TODO", "UTC", "Never", "Always", "Key", "Takeaway", "Rule", "From", "Make",
    "Honestly", "Learned"})

_ZH_NOT_NAMES = frozenset({"过敏", "记得", "下次", "提醒", "城市", "国家", "地方", "家乡", "马拉松",
                           "日志"})
# jieba tags many words "nr": a name is only taken when it starts with a common surname
_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹"
                      "彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金"
                      "石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
                      "万钱严覃武戴莫孔向汤欧司上诸")
_GOING = frozenset({"去", "回", "到", "搬到", "住在", "飞到", "来自", "飞往", "前往", "回到", "在"})
_NAME_TAGS = frozenset({"nr", "ns", "nrt", "nz"})


def anchors(sentence: str) -> tuple[list[str], list[str]]:
    """The people and places a sentence names (see the module's docstring)."""
    people: list[str] = []
    places: list[str] = []
    if is_cjk(sentence):
        _chinese(sentence, people, places)
    for m in _EN_PLACE.finditer(sentence):
        name = m[1] or m[2]
        if name not in _NOT_NAMES and name not in places:
            places.append(name)
    for m in _EN_PERSON.finditer(sentence):
        name = m[1] or m[2] or m[3]
        if _person(name) and name not in people and name not in places:
            people.append(name)
    return people, places


def _person(name: str | None) -> bool:
    if not name or name.startswith("I'"):
        return False
    return name not in _NOT_NAMES and name.lower() not in EN_STOP


def _chinese(sentence: str, people: list[str], places: list[str]) -> None:
    import jieba.posseg as pseg

    from ..text.tokenize import _jieba

    _jieba()
    previous = ""
    for w in pseg.cut(sentence):
        word, flag = w.word, w.flag
        if len(word) > 1 and word not in _ZH_NOT_NAMES:
            after_going = previous in _GOING and flag in _NAME_TAGS
            if after_going or flag == "ns":
                target: list[str] | None = places
            elif flag == "nr" and word[0] in _SURNAMES:
                target = people
            else:
                target = None
            if target is not None and word not in target:
                target.append(word)
        if flag not in ("ul", "uj"):   # "去了故宫": the particle does not break "去 ... 故宫"
            previous = word

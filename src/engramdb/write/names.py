"""People and places a sentence names, for the rule extractor's anchors (write/extract.py).

Chinese: jieba's POS tags. A word tagged ``nr`` (a person's name) counts when it starts with a
common surname; a word tagged ``ns`` (a place) counts unless it is a common noun ("城市"). A
name right after a verb of going or living ("去", "回", "搬到", "住在", "飞到"...) is a place
whatever its tag (jieba tags "马德里" and "柏林" ``nr``); a surname-led name after a person cue
("叫", "和", "同事", "老板"...) is a person whatever its tag (it tags "郑浩" ``ns``); "在 X 做/
工作/负责" names a workplace, neither.
English: capitalised words after "in", "from", "near", "visited" or a verb of going + "to"
("flew to Denver"; not "reply to Olivia", a person), a meeting or writing verb ("met Sarah",
"with Tom", "email Hannah"), a relation ("my sister Anna", "my manager is called Priya"), and
a capitalised sentence opener followed by a verb ("Li works at...") unless it is an ordinary
word ("Could", "Two", "Yesterday") or an article, an object or "to" follows it (a verb opens
"Went to...", "Spent the...", "Thanks for..."); a title is not a name ("Dr. Chen" is Chen); a
language ("in French", "with Python") is neither a place nor a person; Chinese kinship and role
words (哥哥, 同事, 老师...) name no one by name.
"""

from __future__ import annotations

import re

from ..text.stopwords import EN_STOP
from ..text.tokenize import is_cjk

_MOTION = (r"(?:go|goes|going|went|gone|fly|flies|flew|flying|move|moves|moved|moving|travel|"
           r"travels|travel(?:l)?ed|drive|drove|driving|trip|trips|come|came|coming|head|headed|"
           r"relocate|relocated|return|returned|back|get|got|walked|walk|ride|rode)")
_EN_PLACE = re.compile(r"\b(?:in|from|near|visited|visit|" + _MOTION + r"(?:\s+back)?\s+to)\s+"
                       r"(?:the\s+)?((?:[A-Z][\w'-]+)(?:\s+[A-Z][\w'-]+){0,2})"
                       r"|\b(?:city|town|country|hometown) is ([A-Z][\w'-]+)")
_TITLE = r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?"   # "Dr. Chen" is Chen
_NAME = _TITLE + r"([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
# a name that opens a sentence is its subject: a verb follows, not a preposition, an article or
# an object ("Went to...", "Spent the...", "Thanks for...", "Reply to..." open no name)
_NOT_AFTER_SUBJECT = (r"is|to|the|a|an|for|my|your|our|their|me|him|her|us|them|this|that|it|"
                      r"some|all|up|out|back|off|about")
_RELATIONS = (r"sister|brother|wife|husband|son|daughter|mother|father|mom|dad|friend|manager|"
              r"boss|colleague|coworker|partner|girlfriend|boyfriend|cousin|uncle|aunt|nephew|"
              r"niece|grandma|grandpa|grandmother|grandfather|mentor|roommate|neighbou?r")
_EN_PERSON = re.compile(
    r"\b(?:with|met|meet|told|asked|call|(?<!be )called|visit(?:ed)?|for|email|emailed|text|"
    r"texted|message|ping|thank|thanked|(?:talk|talked|speak|spoke|reply|replied|send|sent|"
    r"write|wrote|say|said|give|gave|show|showed|introduce|introduced)\s+(?:\w+\s+){0,3}?to)"
    r"\s+" + _NAME
    + r"\b|^" + _TITLE + r"([A-Z][a-z'-]+)(?:'s)?(?=\s+(?!(?:" + _NOT_AFTER_SUBJECT
    + r")\b)[a-z])"
    r"|\b(?:" + _RELATIONS + r")(?:'s name)?\s+(?:is\s+)?(?:called\s+|named\s+)?" + _NAME)
# languages, human and programming: "in French", "in Kotlin" name no place
_LANGUAGES = frozenset({
    "English", "Chinese", "Mandarin", "Cantonese", "Spanish", "French", "German", "Japanese",
    "Korean", "Italian", "Portuguese", "Russian", "Arabic", "Hindi", "Dutch", "Swedish",
    "Python", "Java", "JavaScript", "TypeScript", "Kotlin", "Swift", "Rust", "Go", "Ruby", "PHP",
    "Scala", "Haskell", "Elixir", "Perl", "Lua", "Dart", "Julia", "SQL", "Bash"})
_NOT_NAMES = frozenset({
    "I", "The", "My", "Our", "We", "It", "This", "That", "Next", "Last", "Yesterday", "Today",
    "Tomorrow", "Please", "Remind", "Don't", "Lesson", "Can", "Could", "Two", "Four", "Five",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
    "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December", "Java", "Go", "Postgres", "MySQL", "Fedora", "Tesla", "ThinkPad",
    "README", "PR", "TODO", "UTC", "Never", "Always", "Key", "Takeaway", "Rule", "From", "Make",
    "Honestly", "Learned"})

_ZH_NOT_NAMES = frozenset({"过敏", "记得", "下次", "提醒", "城市", "国家", "地方", "家乡", "马拉松",
                           "日志",
                           # kinship and roles name someone without naming them
                           "哥哥", "姐姐", "弟弟", "妹妹", "爸爸", "妈妈", "父亲", "母亲", "老婆",
                           "老公", "儿子", "女儿", "爷爷", "奶奶", "同事", "朋友", "老板", "老师"})
# jieba tags many words "nr": a name is only taken when it starts with a common surname
_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹"
                      "彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金"
                      "石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
                      "万钱严覃武戴莫孔向汤欧司上诸")
_GOING = frozenset({"去", "回", "到", "搬到", "住在", "飞到", "来自", "飞往", "前往", "回到", "在",
                    "去了", "飞到了", "搬到了"})
_NAME_TAGS = frozenset({"nr", "ns", "nrt", "nz"})
_PERSON_CUES = frozenset({"叫", "名叫", "和", "跟", "给", "同事", "老板", "朋友", "哥哥", "姐姐",
                          "妹妹", "弟弟", "表哥", "表姐", "表弟", "表妹", "老婆", "老公", "女朋友",
                          "男朋友", "经理", "见了", "认识", "约"})
_WORK_VERBS = frozenset({"做", "工作", "上班", "负责", "入职", "实习", "当", "写", "带"})
_VERB_TAILS = frozenset("回说去来打发问找")


def anchors(sentence: str) -> tuple[list[str], list[str]]:
    """The people and places a sentence names (see the module's docstring)."""
    people: list[str] = []
    places: list[str] = []
    if is_cjk(sentence):
        _chinese(sentence, people, places)
    for m in _EN_PLACE.finditer(sentence):
        name = m[1] or m[2]
        if name not in _NOT_NAMES and name not in _LANGUAGES and name not in places:
            places.append(name)
    for m in _EN_PERSON.finditer(sentence):
        name = m[1] or m[2] or m[3]
        name = name[:-2] if name and name.endswith("'s") else name
        if _person(name) and name not in people and name not in places:
            people.append(name)
    return people, places


def _person(name: str | None) -> bool:
    if not name or name.startswith("I'"):
        return False
    return (name not in _NOT_NAMES and name not in _LANGUAGES
            and name.lower() not in EN_STOP)


def _chinese(sentence: str, people: list[str], places: list[str]) -> None:
    import jieba.posseg as pseg

    from ..text.tokenize import _jieba

    _jieba()
    words = [(w.word, w.flag) for w in pseg.cut(sentence)]
    previous = ""
    for i, (word, flag) in enumerate(words):
        after = words[i + 1][0] if i + 1 < len(words) else ""
        if len(word) > 1 and word not in _ZH_NOT_NAMES:
            target = _zh_target(word, flag, previous, after, people, places)
            if target is not None:
                name = _trim(word) if target is people else word
                if name not in target:
                    target.append(name)
        if flag not in ("ul", "uj"):   # "去了故宫": the particle does not break "去 ... 故宫"
            previous = word


def _zh_target(word: str, flag: str, previous: str, after: str, people: list[str],
               places: list[str]) -> list[str] | None:
    """Where a Chinese word goes: a name after a person cue ("叫", "和", "同事") is a person
    whatever jieba tagged it; a place after a verb of going; nothing for a workplace ("在华为
    做...", "在美团负责..."); else by its tag."""
    surname = word[0] in _SURNAMES and len(word) <= 3
    if previous in _PERSON_CUES and surname and flag in _NAME_TAGS:
        return people
    if previous == "在" and after in _WORK_VERBS and flag != "ns":
        return None
    if (previous in _GOING and flag in _NAME_TAGS) or flag == "ns":
        return places
    if flag == "nr" and surname:
        return people
    return None


def _trim(name: str) -> str:
    """jieba sometimes glues a verb to a name ("孙丽回" of "给孙丽回个邮件"): drop it."""
    return name[:2] if len(name) == 3 and name[-1] in _VERB_TAILS else name

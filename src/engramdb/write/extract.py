"""The rule extractor: conversation turns -> the memories worth keeping (pure: no store, no
clock; every time is read from the messages).

Only what the user says about themself or others is extracted (turns whose role is "user");
the assistant's turns give context, not facts. A turn is cut into sentences and each sentence
is tried against ``PATTERNS`` (English and Chinese), first match wins:
- pending: "remind me to ...", "don't let me forget ...", "I need to ...", "提醒我...", "别忘了..."
- lesson: "lesson learned: ...", "I learned that ...", "next time ...", "下次记得...", "教训是..."
- preference: "I like/love/prefer/hate ...", "my favourite ...", "我喜欢/我爱/我讨厌/我更喜欢..."
- fact: "I am allergic to ...", "我对...过敏", "I'm from ...", "I have a ...", and any sentence the
  slot rules recognise (write/slots.py: "I live in ...", "Li works at ...", "我叫...")
- event: a first-person sentence naming a past time ("yesterday I went to ...", "上周我去了...")
The extracted text is the sentence as the user said it, in the user's language. A time the
sentence names ("last month", "去年三月") is resolved against the turn's ``at``: the memory's
``at`` is the start of that span and its ``at_precision`` the span's unit (text/timespan.py).
Each draft carries its source (``session``, ``turn``; metadata ``session``, ``turn``,
``extractor``, ``rule``) so a hit maps back to the turn it came from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..model import Draft, Kind, Message
from ..text.timespan import precision_of
from ..text.timewindow import parse_window
from ..text.tokenize import is_cjk
from .slots import extract_slot

EXTRACTOR = "rules"
MIN_CHARS = 4
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+|(?<=[!?])(?=\S)")
_I = r"(?:i|we)"
_CONTRACTIONS = ((re.compile(r"\b(i|we|you|they)'(m|re)\b", re.I), r"\1 are"),
                 (re.compile(r"\b(i|we|you|they)'ve\b", re.I), r"\1 have"),
                 (re.compile(r"\b(i|we|you|they)'d\b", re.I), r"\1 would"),
                 (re.compile(r"\bi are\b", re.I), "i am"))

PATTERNS: tuple[tuple[Kind, str, str], ...] = (
    # (kind, rule id, pattern on the lower-cased sentence)
    (Kind.PENDING, "en:remind", r"^(?:please\s+|can you\s+|could you\s+)?remind (?:me|us)\s+"
                                r"(?:to|that|about|of)\s+\S"),
    (Kind.PENDING, "en:dont_forget", r"^(?:please\s+)?(?:don't|do not) (?:let me )?forget\s+\S"),
    (Kind.PENDING, "en:todo", r"^(?:todo|to do|to-do)\s*[:：]\s*\S"),
    (Kind.PENDING, "en:need_to", r"^(?:i|we) (?:still )?(?:need to|have to|must|should|"
                                 r"have got to|gotta)\s+\S"),
    (Kind.LESSON, "en:lesson", r"^(?:lesson(?: learned)?|note to self|takeaway)\s*[:：-]\s*\S"),
    (Kind.LESSON, "en:learned", r"^i(?: have)? learn(?:ed|t) (?:that|the hard way|to)\s+\S"),
    (Kind.LESSON, "en:next_time", r"^next time\b,?\s*\S"),
    (Kind.LESSON, "en:never_again", r"^never again\b|^(?:always|never) (?:remember to|forget to)"),
    (Kind.PREFERENCE, "en:like", rf"^{_I}\s+(?:really\s+|do(?:n't| not)\s+|also\s+|totally\s+)?"
                                 r"(?:like|love|enjoy|prefer|hate|dislike|adore|detest|"
                                 r"can't stand|cannot stand|am a (?:big )?fan of|am into)\b"),
    (Kind.PREFERENCE, "en:rather", rf"^{_I}\s+would rather\b"),
    (Kind.PREFERENCE, "en:favourite", r"^my (?:all-time )?favou?rite\s+\S"),
    (Kind.FACT, "en:allergy", rf"^{_I}\s+(?:am\s+)?(?:severely\s+)?allergic to\b"),
    (Kind.FACT, "en:diet", rf"^{_I}\s+(?:am\s+|are\s+)?(?:a\s+)?(?:vegetarian|vegan|pescatarian|"
                           r"lactose intolerant|diabetic|gluten[- ]free)\b"),
    (Kind.FACT, "en:origin", rf"^{_I}\s+(?:am|are|was|come)\s+(?:originally\s+)?"
                             r"(?:from|born in)\b"),
    (Kind.FACT, "en:identity", rf"^(?:my name is|call me|{_I}\s+(?:am|are) (?:a|an)\s+\S+)"),
    (Kind.FACT, "en:have", rf"^{_I}\s+(?:have|have got|own)\s+(?:a|an|two|three|\d+)"
                           r"\s+\S"),
    (Kind.FACT, "en:birthday", r"^my birthday is\b"),
    # Chinese (matched on the sentence as written)
    (Kind.PENDING, "zh:remind", r"^(?:请|麻烦)?(?:你)?提醒(?:我|我们)"),
    (Kind.PENDING, "zh:dont_forget", r"^(?:别|不要)(?:让我)?忘了|^记得提醒"),
    (Kind.PENDING, "zh:need_to", r"^我(?:还)?(?:需要|得|必须|要记得)"),
    (Kind.LESSON, "zh:next_time", r"^下次(?:记得|要|一定|别|不要|务必)"),
    (Kind.LESSON, "zh:lesson", r"^(?:教训是|经验是|我学到了|我明白了|以后(?:记得|要|别|不要))"),
    (Kind.PREFERENCE, "zh:like", r"^我(?:们)?(?:很|非常|特别|最|也|更|不太|不)?(?:喜欢|爱吃|爱喝|"
                                 r"爱|讨厌|偏好|偏爱|更喜欢|不喜欢|受不了)"),
    (Kind.PREFERENCE, "zh:favourite", r"^我(?:最)?喜欢的.+是"),
    (Kind.FACT, "zh:allergy", r"^我(?:们)?(?:对).+过敏|^我(?:有)?.*过敏"),
    (Kind.FACT, "zh:diet", r"^我(?:是)?(?:素食者|吃素|不吃)"),
    (Kind.FACT, "zh:origin", r"^我(?:是|来自|老家在|出生在|出生于)"),
    (Kind.FACT, "zh:have", r"^我(?:有|养了)(?:一|两|三|\d)"),
)
_COMPILED = tuple((kind, rule, re.compile(p, re.IGNORECASE)) for kind, rule, p in PATTERNS)
# a sentence naming a past time, said in the first person: an episode worth a memory of its own
_FIRST_PERSON = re.compile(r"\b(?:i|we|my|our)\b|我|我们", re.IGNORECASE)
_PAST_VERB = re.compile(r"\b(?:went|visited|met|saw|did|had|was|were|got|took|started|finished"
                        r"|moved|bought|made|ran|flew|travelled|traveled|attended|joined"
                        r"|left|came|gave|won|lost|tried|watched|read|wrote|spent|celebrated"
                        r"|adopted|graduated|married)\b|了|过", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$|^(?:what|where|when|who|why|how|do|does|did|is|are|can|could"
                       r"|would|should|will)\b|吗[?？]?$|呢[?？]?$", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    """A checked message with its index in the conversation and its resolved time."""

    index: int
    message: Message
    at: datetime


_CLAUSES = re.compile(r",?\s+(?:and|but|also)\s+(?=(?:I|we|my|our)\b)", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """Sentences, and the clauses of "I ..., and I ..." (each may be a memory of its own)."""
    parts = (c.strip(" \t,，、") for p in _SENTENCES.split(text) for c in _CLAUSES.split(p))
    return [p for p in parts if len(p) >= MIN_CHARS or (p and is_cjk(p) and len(p) >= 3)]


def classify(sentence: str) -> tuple[Kind, str] | None:
    """The kind and rule of the memory a sentence makes, or None (not worth keeping alone)."""
    text = sentence.strip().replace("\u2019", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    if _QUESTION.search(text) and not re.match(r"^(?:can you|could you)\s+remind", text, re.I):
        return None
    for kind, rule, pattern in _COMPILED:
        if pattern.search(text):
            return kind, rule
    slot = extract_slot(text)
    if slot is not None:
        return Kind.FACT, f"slot:{slot.rule}"
    return None


def extract(turns: Sequence[Turn], *, session: str | None = None) -> list[Draft]:
    """The drafts the user turns of a conversation yield, in conversation order."""
    drafts: list[Draft] = []
    for turn in turns:
        if turn.message.role != "user":
            continue
        for sentence in sentences(turn.message.content):
            draft = draft_of(sentence, turn, session)
            if draft is not None:
                drafts.append(draft)
    return drafts


_FILLER = re.compile(r"^(?:(?:(?:actually|well|oh|so|and|but|btw|by the way|anyway|honestly"
                     r"|fyi|ok|okay|yes|yeah|also|just so you know)\b|对了|另外|其实|顺便说一下"
                     r"|哦|嗯)[,，\s]*)+", re.IGNORECASE)


def draft_of(sentence: str, turn: Turn, session: str | None) -> Draft | None:
    sentence = _FILLER.sub("", sentence).strip() or sentence
    if sentence[:1].islower() and sentence[:1].isascii():
        sentence = sentence[0].upper() + sentence[1:]
    found = classify(sentence)
    window = parse_window(sentence, turn.at)
    if window is not None and (window.loose or window.start > turn.at):
        window = None  # "in March" is only a guess; a future time is no past episode
    precision = precision_of(window) if window is not None else None
    if found is None:
        if precision is None or not _FIRST_PERSON.search(sentence) \
                or not _PAST_VERB.search(sentence) or _QUESTION.search(sentence):
            return None
        found = (Kind.EVENT, "zh:dated_event" if is_cjk(sentence) else "en:dated_event")
    kind, rule = found
    at, span = (window.start, precision) if window is not None and precision else (turn.at, None)
    people, places = anchors(sentence)
    if turn.message.speaker and turn.message.speaker not in people:
        people.insert(0, turn.message.speaker)
    return Draft(
        content=sentence, kind=kind, at=at, at_precision=span, session=session,
        turn=str(turn.index), people=people or None, places=places or None,
        metadata={"session": session, "turn": turn.index, "extractor": EXTRACTOR,
                  "rule": rule},
    )


_EN_PLACE = re.compile(r"\b(?:in|to|from|at|near|visited|visit)\s+(?:the\s+)?((?:[A-Z][\w'-]+)"
                       r"(?:\s+[A-Z][\w'-]+){0,2})")
_EN_PERSON = re.compile(r"\b(?:with|and|met|meet|told|asked|call|called|visit(?:ed)?)\s+"
                        r"([A-Z][a-z'-]+)\b|^([A-Z][a-z'-]+)(?:'s)?\s+(?!is\b)[a-z]")
_NOT_NAMES = frozenset({"I", "The", "My", "Our", "We", "It", "This", "That", "Next", "Last",
                        "Yesterday", "Today", "Tomorrow", "Please", "Remind", "Don't", "Lesson"})

_ZH_NOT_NAMES = frozenset({"过敏", "记得", "下次", "提醒"})
# jieba tags many words "nr": a name is only taken when it starts with a common surname
_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹"
                      "彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金"
                      "石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
                      "万钱严覃武戴莫孔向汤欧司上诸")


def anchors(sentence: str) -> tuple[list[str], list[str]]:
    """The people and places a sentence names: jieba's name (nr) and place (ns) tags in
    Chinese; in English, capitalised words after a place preposition or a meeting verb."""
    people: list[str] = []
    places: list[str] = []
    if is_cjk(sentence):
        import jieba.posseg as pseg

        from ..text.tokenize import _jieba

        _jieba()
        for w in pseg.cut(sentence):
            person = w.flag == "nr" and w.word[0] in _SURNAMES
            target = people if person else places if w.flag == "ns" else None
            if (target is not None and len(w.word) > 1 and w.word not in target
                    and w.word not in _ZH_NOT_NAMES):
                target.append(w.word)
    for m in _EN_PLACE.finditer(sentence):
        if m[1] not in _NOT_NAMES and m[1] not in places:
            places.append(m[1])
    for m in _EN_PERSON.finditer(sentence):
        name = m[1] or m[2]
        if name and name not in _NOT_NAMES and name not in people and name not in places:
            people.append(name)
    return people, places

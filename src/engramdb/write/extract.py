"""The rule extractor: conversation turns -> the memories worth keeping (pure: no store, no
clock; every time is read from the messages).

Only what the user says about themself or others is extracted (turns whose role is "user");
the assistant's turns give context, not facts. A turn is cut into sentences and each sentence
is tried against ``PATTERNS`` (write/patterns.py, English and Chinese), first match wins:
- pending: "remind me to ...", "don't let me forget ...", "I need to ...", "提醒我...", "别忘了...",
  "今晚我得...", "待办：..."
- lesson: "lesson learned: ...", "I realized that ...", "next time ...", "下次记得...", "教训：...",
  "吃一堑长一智..."
- rule: "Never push directly to main", "Always ...", "Don't ...", "Rule: ...", "一定要...",
  "不要...", "禁止...", "规则：..."
- preference: "I like/love/prefer/hate ...", "my favourite ...", "我喜欢/我爱/我讨厌/我更喜欢..."
- fact: "I am allergic to ...", "I use Java 21", "my sister Anna lives in ...", "我用的是 Java 21",
  "我们公司在深圳", and any sentence the slot rules recognise (write/slots.py)
- event: a first-person sentence naming a past time ("yesterday I went to ...", "上周我去了...");
  a dated past sentence that only a broad fact rule matched ("我在上海见了李伟" last week) is an
  event too where its period has ended ("我儿子今年上初中了" stays a fact). People and places:
  write/names.py (jieba's nr/ns tags in Chinese).
- identity: the name the user goes by ("my name is ...", "I'm Daniela", "我叫...").
A sentence no pattern reads is kept when it is a statement, not small talk (write/statement.py):
a fact, an event when it names a past time, a procedure when a label leads steps. Such a
guess that names a day after the one it is said on (text/duedate.py: "the car's inspection is
on June 2", 周五之前交) is a pending item, unless a verb in the past tells a story of a bare
weekday or date (``DUE``: "moved it to next Friday" is pending, "saw it on Friday" is not); a
rule is one only by a time to come said so ("不要在周五部署" holds on Fridays). Under
``ingest``, which keeps each turn as an event, only a turn of one sentence is read this way, and
a sentence that corrects or changes a value in a turn of any length
(write/reading.py ``corrects``: "the dinner is at Lupa, not Nora's", "from Jira to
Linear", 是8点40，不是6点40).
Memory commands ("remember that ...", "forget that ...", "记住...", "忘掉...") are read first
(write/commands.py). Where only a fallback or a broad rule read a sentence, ``ingest`` may take
its kind from the nearest labelled examples (write/kindvote.py: not here, this module is pure).
bench/extraction.py measures precision and recall per type on a labelled set.
The extracted text is the sentence as the user said it, in the user's language. A time the
sentence names ("last month", "去年三月") is resolved against the turn's ``at``: the memory's
``at`` is the start of that span and its ``at_precision`` the span's unit (text/timespan.py).
Each draft carries its source (``session``, ``turn``; metadata ``session``, ``turn``,
``extractor``, ``rule``) so a hit maps back to the turn it came from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..model import Draft, Kind, Message
from ..text.duedate import due_from_text, marked_ahead
from ..text.lang import script
from ..text.timespan import precision_of, start_of
from ..text.timewindow import parse_window
from ..text.tokenize import is_cjk
from .commands import ASKED_IMPORTANCE, command_of, forget_draft
from .names import anchors
from .patterns import PATTERNS
from .reading import corrects
from .reading import read as read_moods
from .slots import extract_slot
from .statement import has_value, informative, is_procedure, names_time

EXTRACTOR = "rules"
MIN_CHARS = 4
# a Chinese sentence keeps its end mark until marked_sentences has read it
# (a capitalised abbreviation of two or three letters without a vowel, a title's: "Ms.", "Dr.",
# "Mrs.", ends no sentence; an English word has a vowel: "Jon." ends one)
_CONSONANT = "b-df-hj-np-tv-z"
_ABBREVIATION = (rf"(?<!\b[{_CONSONANT.upper()}][{_CONSONANT}]\.)"
                 rf"(?<!\b[{_CONSONANT.upper()}][{_CONSONANT}]{{2}}\.)")
_SENTENCES = re.compile(rf"(?<=[!?;])\s+|{_ABBREVIATION}(?<=\.)\s+"
                        r"|(?<=[。！？；])|\n+|(?<=[!?])(?=\S)")
_CONTRACTIONS = ((re.compile(r"\b(i|we|you|they)'(m|re)\b", re.I), r"\1 are"),
                 (re.compile(r"\b(i|we|you|they)'ve\b", re.I), r"\1 have"),
                 (re.compile(r"\b(i|we|you|they)'d\b", re.I), r"\1 would"),
                 (re.compile(r"\bi are\b", re.I), "i am"))

_COMPILED = tuple((kind, rule, re.compile(p, re.IGNORECASE)) for kind, rule, p in PATTERNS)
# a sentence naming a past time, said in the first person: an episode worth a memory of its own
_FIRST_PERSON = re.compile(r"\b(?:i|we|my|our)\b|我|我们", re.IGNORECASE)
_PAST_VERB = re.compile(r"\b(?:went|visited|met|saw|did|had|was|were|got|took|started|finished"
                        r"|moved|bought|made|ran|flew|travelled|traveled|attended|joined"
                        r"|left|came|gave|won|lost|tried|watched|read|wrote|spent|celebrated"
                        r"|adopted|graduated|married|[a-z]{3,}ed)\b|了|过", re.IGNORECASE)
# rules that match a wide range of statements: a dated first-person past sentence they match is
# an episode ("我在上海见了李伟" last week), not a standing fact
GENERIC = frozenset({"zh:subject", "en:my_x", "en:use", "en:the_user"})
# a guess or a rule read as a pending item because it names a day to come (``_ahead``)
DUE = {"en": "en:due", "zh": "zh:due"}
# parts of a day that text/timewindow.py reads as "today" would
_TODAY = re.compile(r"\b(?:this (?:morning|afternoon|evening)|tonight|earlier today)\b"
                    r"|今天(?:早上|上午|下午|晚上|早些时候)|今早|今晚", re.IGNORECASE)
# a question: its mark, an inverted verb, or a wh-word not followed by its own subject (a
# pronoun, a possessive or a determiner opens a clause, not a question: "How I make cold brew:
# ..." is a label, "When it's payday I ..." and "When the printer jams, ..." say when)
_SUBJECT = (r"i|we|you|he|she|it|they|my|our|your|his|her|its|their|the|a|an|this|that|these"
            r"|those|there")
_QUESTION = re.compile(rf"[?？]\s*$|^(?:what|where|when|who|why|how)\b(?!\s+(?:{_SUBJECT})\b)"
                       r"|^(?:do(?! not\b)|does|did|is|are|can|could|would|should|will)\b"
                       r"|吗[?？]?$|呢[?？]?$", re.IGNORECASE)


_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|yours)\b|你|您", re.IGNORECASE)
_ASK_REMIND = re.compile(r"^(?:can you|could you)\s+remind|.{0,6}提醒", re.I)


@dataclass(frozen=True)
class Turn:
    """A checked message with its index in the conversation and its resolved time."""

    index: int
    message: Message
    at: datetime


_CLAUSES = re.compile(r",?\s+(?:and|but|also)\s+(?=(?:I|we|my|our)\b)", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """Sentences, and the clauses of "I ..., and I ..." (each may be a memory of its own)."""
    return [s for s, _ in marked_sentences(text)]


def marked_sentences(text: str) -> list[tuple[str, bool]]:
    """``sentences`` with, for each, whether it ended with a question mark (a Chinese sentence's
    end mark is then cut off, as ``sentences`` always did; an English one keeps it). An
    exclamation is told only in English (``statement``): a Chinese "！" is cut off unread."""
    out = []
    for part in _SENTENCES.split(text):
        for clause in _CLAUSES.split(part):
            c = clause.strip(" \t,，、")
            asked = c.endswith(("?", "？"))
            c = c.rstrip("。！？；") if is_cjk(c) else c
            if len(c) >= MIN_CHARS or (c and is_cjk(c) and len(c) >= 3):
                out.append((c, asked))
    return out


def classify(sentence: str) -> tuple[Kind, str] | None:
    """The kind and rule of the memory a sentence makes, or None (not worth keeping alone)."""
    text = sentence.strip().replace("\u2019", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    if _QUESTION.search(text) and not _ASK_REMIND.match(text):
        return None
    for kind, rule, pattern in _COMPILED:
        if pattern.search(text):
            return kind, rule
    slot = extract_slot(text)
    if slot is not None:
        return Kind.FACT, f"slot:{slot.rule}"
    return None


def extract(turns: Sequence[Turn], *, session: str | None = None,
            turns_kept: bool = False, unread: bool = False) -> list[Draft]:
    """The drafts the user turns of a conversation yield, in conversation order.
    ``turns_kept``: each turn is kept whole as an event (``ingest``), so a sentence no pattern
    reads is kept on its own only when it is the whole turn (write/statement.py): the
    sentences of a longer turn stay in its event (each kept apart, they crowded the turns
    that answer a question: LoCoMo dev through ingest, R@10 0.765 against 0.782).
    ``unread``: a statement the fallback leaves out (small talk, by its measure) is a draft
    too, its rule "en:unread"/"zh:unread", for the labelled examples to keep or drop
    (write/kindvote.py ``revote``, which drops every one its examples do not clearly keep)."""
    drafts: list[Draft] = []
    for turn in turns:
        if turn.message.role != "user":
            continue
        said = marked_sentences(turn.message.content)
        statements = not turns_kept or len(said) == 1
        for sentence, asked in said:
            if asked and not _ASK_REMIND.match(sentence):
                # a question; what its leading clauses state may still be a typed memory
                # ("周末我喜欢去吃火锅，柏林应该也有不错的火锅店吧？")
                sentence, statements_here = _before_question(sentence), False
                if not sentence:
                    continue
            else:  # a correction or change ("B, not A", "from A to B") is read in any turn
                statements_here = statements or corrects(sentence)
            draft = draft_of(sentence, turn, session, statements_here,
                             unread and statements_here and not asked)
            if draft is not None:
                drafts.append(draft)
    return drafts


def _before_question(sentence: str) -> str:
    """The clauses of a question-marked sentence before its last one ("" when it has one)."""
    parts = re.split(r"[，,；;]\s*", sentence)
    return "，".join(parts[:-1]).strip() if len(parts) > 1 else ""


_FILLER = re.compile(r"^(?:(?:(?:actually|well|oh|so|and|but|btw|by the way|anyway|honestly"
                     r"|fyi|ok|okay|yes|yeah|also|just so you know)\b|对了|另外|其实|顺便说一下"
                     r"|哦|嗯)[,，\s]*)+", re.IGNORECASE)


def draft_of(sentence: str, turn: Turn, session: str | None,
             statements: bool = True, unread: bool = False) -> Draft | None:
    sentence = _FILLER.sub("", sentence).strip() or sentence
    command = command_of(sentence)
    if command is not None:
        return commanded(*command, turn, session)
    if sentence[:1].islower() and sentence[:1].isascii():
        sentence = sentence[0].upper() + sentence[1:]
    found = classify(sentence)
    window = parse_window(_TODAY.sub(_today, sentence), turn.at)
    # a past time named ("in March" too, a guess; "on Monday", 周六) and a verb in the past,
    # not in the mood of a plan (write/reading.py: "下个月之前得把护照续签办了" is done by then)
    past = ((window is not None and window.start <= turn.at) or names_time(sentence)) \
        and bool(_PAST_VERB.search(sentence)) and "plan" not in read_moods(sentence).moods
    if window is not None and (window.loose or window.start > turn.at):
        window = None  # "in March" is only a guess; a future time is no past episode
    precision = precision_of(window) if window is not None else None
    if found is None or found[1] in GENERIC:
        # a broad rule's sentence is an episode only in a period that has ended ("上个月",
        # "last week"), not one it is still in ("今年上初中了": how things stand this year)
        episode = (precision is not None and _FIRST_PERSON.search(sentence)
                   and (found is None or (window is not None and window.end <= turn.at))
                   and _PAST_VERB.search(sentence) and not _QUESTION.search(sentence))
        if episode:
            found = (Kind.EVENT, f"{script(sentence)}:dated_event")
        elif found is None:
            found = statement(sentence, past) if statements else None
            if found is None and unread and not _QUESTION.search(sentence):
                found = (Kind.FACT, f"{script(sentence)}:unread")
            if found is None:
                return None
    if _bounded(found) and _ahead(sentence, turn.at) and _due(sentence, found[0], past):
        found = (Kind.PENDING, DUE[script(sentence)])
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


def commanded(name: str, rest: str, turn: Turn, session: str | None) -> Draft | None:
    """The draft of a memory command (write/commands.py): what the user asked to keep, at
    the importance of an ask, or what they asked to forget."""
    meta = {"session": session, "turn": turn.index, "extractor": EXTRACTOR}
    if name == "forget":
        return forget_draft(rest, {**meta, "rule": "command:forget"})
    if rest[:1].islower() and rest[:1].isascii():
        rest = rest[0].upper() + rest[1:]
    draft = draft_of(rest, turn, session)
    if draft is None:
        lang = script(rest)
        draft = Draft(content=rest, kind=Kind.FACT, at=turn.at, session=session,
                      turn=str(turn.index), metadata={**meta, "rule": f"{lang}:statement"})
    draft.importance = ASKED_IMPORTANCE
    draft.metadata = {**(draft.metadata or {}), "asked": True}
    return draft


def statement(sentence: str, past: bool) -> tuple[Kind, str] | None:
    """The kind and rule of a sentence no pattern reads: a statement worth keeping
    (write/statement.py), or None for a question or small talk."""
    if _QUESTION.search(sentence) or sentence.endswith(("!", "！")) \
            or _SECOND_PERSON.search(sentence) or not informative(sentence):
        return None  # a question, an exclamation (a reaction), about the listener, small talk
    lang = script(sentence)
    if is_procedure(sentence):
        return Kind.PROCEDURE, f"{lang}:steps"
    if past:
        return Kind.EVENT, f"{lang}:past_statement"
    if not (_FIRST_PERSON.search(sentence) or has_value(sentence)):
        return None  # a standing fact about neither the speaker nor anything named
    return Kind.FACT, f"{lang}:statement"


def _today(m: re.Match[str]) -> str:
    return "今天" if is_cjk(m[0]) else "today"


def _bounded(found: tuple[Kind, str]) -> bool:
    """May a time ahead make this reading a pending item? A guess (the fallback's statement,
    a sentence no rule read, a broad subject rule) or a rule: a rule holds always, and one
    bounded by a day to come is a task."""
    kind, rule = found
    return kind == Kind.RULE or rule in GENERIC \
        or rule.split(":")[-1] in ("statement", "past_statement", "unread")


def _due(sentence: str, kind: Kind, past: bool) -> bool:
    """Is the day to come a sentence names the day its thing is due? Where it is said so (下周三,
    "next Tuesday", "by Friday"), whatever the verb: one in the past beside it says what was done
    about it ("moved it to", 别忘了). A bare weekday or date, only in a statement with no verb in
    the past: a story names one as often, and a rule one it holds on ("不要在周五部署")."""
    return marked_ahead(sentence) or (not past and kind != Kind.RULE)


def _ahead(sentence: str, at: datetime) -> bool:
    """Does ``sentence`` name a time after the day it is said on, by which something is due
    (text/duedate.py)? Today's own is as often what just happened, and is not read so."""
    due = due_from_text(sentence, at)
    return due is not None and due > start_of(at, "day") + timedelta(days=1)

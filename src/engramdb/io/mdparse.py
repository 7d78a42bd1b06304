"""Reading Markdown memory files: a MEMORY.md (zoned or a flat list), notes, dated journals.

``parse(text, source)`` returns the entries it could read and the problems it met, each with
its line number: a malformed file is read as far as it is valid. An entry is a bullet (with
its indented continuation lines) or a paragraph. Headings set the zone (a zone name, English
or Chinese; a section about the user themself, ``about_the_user``, is IDENTITY) or, otherwise,
a topic; a date heading or a file named by a date sets the date of the entries under it. A
line that is only a key and a colon (``known_gaps:``, ``成长方向：``) leads the list under it:
each of its items is read as ``key: item``, as if written on one line. Tags: [PERMANENT]
[LONG] [CONTEXTUAL] [LOG] [TEMP] [EXPIRY:date] [DUE:date] [OVERDUE]; "- [ ]" is a pending
task, "- [x]" a done one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..text.stopwords import EN_STOP, ZH_STOP
from .markdown import ZONES

ZONE_ALIASES = {
    "身份": "IDENTITY", "个人": "IDENTITY", "项目": "PROJECTS", "规则": "RULES",
    "速查": "QUICKREF", "参考": "QUICKREF", "待办": "PENDING", "教训": "LESSONS",
    "经验": "LESSONS", "成长": "GROWTH", "日志": "GROWTH", "PROFILE": "IDENTITY",
    "TODO": "PENDING", "TODOS": "PENDING", "REFERENCE": "QUICKREF", "LOG": "GROWTH",
}
LIFECYCLES = ("PERMANENT", "LONG", "CONTEXTUAL", "LOG", "TEMP")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)、])\s*(.*)$")
_CHECKBOX = re.compile(r"^\[( |x|X)\]\s*")
_TAG = re.compile(r"\[(PERMANENT|LONG|CONTEXTUAL|LOG|TEMP|OVERDUE|EXPIRY|DUE)(?::\s*([^\]]*))?\]",
                  re.IGNORECASE)
_URI_COMMENT = re.compile(r"\s*<!--\s*([a-z]+://\S+)\s*-->\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_DATE = re.compile(r"(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?")
_LEADING_DATE = re.compile(r"^\[?(\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?)\]?\s*[:：\-–—]?\s*")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LEAD_IN = re.compile(r"^([^\W\d][\w-]{0,39})\s*[:：]$")  # "known_gaps:", "成长方向："
_OWN_KEY = re.compile(r"^[^\W\d][\w-]{0,39}\s*[:：]")
_HEADING_WORD = re.compile(r"[a-z]+|[\u4e00-\u9fff]+")
# a section about the user themself names them with a first-person singular pronoun (a closed
# class of the grammar, like the stop words); its other words are function words
FIRST_PERSON_ONE = frozenset({"i", "me", "my", "myself", "mine", "我", "自己", "本人"})
_ZH_FUNCTION_FLAGS = ("p", "r", "u", "c", "d", "y", "e")  # preposition, pronoun, particle...


@dataclass
class Problem:
    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


@dataclass
class Entry:
    """One entry as written: its text without tags, and what the tags and headings said."""

    text: str
    source: str
    line: int
    zone: str | None = None
    lifecycle: str | None = None
    expiry: datetime | None = None
    due: datetime | None = None
    overdue: bool = False
    date: datetime | None = None
    uri: str | None = None
    checkbox: str | None = None      # " " open task, "x" done
    topic: str | None = None         # the heading it sits under, when not a zone
    raw: str = ""

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


@dataclass
class Parsed:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def parse_date(text: str) -> datetime | None:
    m = _DATE.search(text)
    if not m:
        return None
    try:
        return datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC)
    except ValueError:
        return None


def zone_name(heading: str) -> str | None:
    word = re.sub(r"[^\w]+", "", heading, flags=re.UNICODE).upper()
    if word in ZONES:
        return word
    for alias, zone in ZONE_ALIASES.items():
        if word == alias or (not alias.isascii() and heading.strip().startswith(alias)):
            return zone
    return "IDENTITY" if about_the_user(heading) else None


def about_the_user(heading: str) -> bool:
    """A heading about the user themself: it names the user with a first-person singular
    pronoun and holds nothing else but function words ("About me", "Who I am", "关于我",
    "关于我自己"); "My projects", "我的项目", "About us" (plural) are not."""
    words: list[tuple[str, bool]] = []   # (word, a function word)
    for run in _HEADING_WORD.findall(heading.lower()):
        words += _zh_words(run) if not run.isascii() else [(run, run in EN_STOP)]
    if not words or FIRST_PERSON_ONE.isdisjoint(w for w, _ in words):
        return False
    return all(function or w in FIRST_PERSON_ONE for w, function in words)


def _zh_words(run: str) -> list[tuple[str, bool]]:
    from ..text.tokenize import tagged

    return [(word, word in ZH_STOP or flag.startswith(_ZH_FUNCTION_FLAGS))
            for word, flag in tagged(run)]


class _Reader:
    def __init__(self, source: str, file_date: datetime | None) -> None:
        self.source = source
        self.out = Parsed()
        self.zone: str | None = None
        self.zone_level = 0
        self.topic: str | None = None
        self.date = file_date
        self.current: Entry | None = None
        self.paragraph = False
        self.indent = 0                  # the current bullet's indent
        self.lead: str | None = None     # the key of a "key:" line leading the list below it

    def problem(self, line: int, message: str) -> None:
        self.out.problems.append(Problem(self.source, line, message))

    def flush(self) -> None:
        if self.current is not None:
            finish(self.current, self)
            if self.current.text:
                self.out.entries.append(self.current)
        self.current, self.paragraph = None, False

    def heading(self, level: int, title: str) -> None:
        self.flush()
        self.lead = None
        zone = zone_name(title)
        if zone is None and self.zone is not None and level <= self.zone_level:
            self.zone = None  # a sibling heading ends the zone
        day = parse_date(title) if _DATE.fullmatch(title.strip().strip("[]")) else None
        if zone is not None:
            self.zone, self.zone_level, self.topic = zone, level, None
        elif day is not None:
            self.date = day
        else:
            self.topic = title.strip() or None
            if re.sub(r"[^\w]+", "", title).upper() in ("MEMORY", "MEMORYMD"):
                self.topic = None

    def start(self, text: str, line: int, paragraph: bool, indent: int = 0) -> None:
        self.flush()
        if paragraph or _OWN_KEY.match(text):
            self.lead = None   # a paragraph, or an item with a key of its own, ends the list
        elif self.lead is not None:
            text = f"{self.lead}: {text}"
        self.current = Entry(text=text, source=self.source, line=line, zone=self.zone,
                             date=self.date, topic=self.topic, raw=text)
        self.paragraph, self.indent = paragraph, indent


def parse(text: str, source: str = "<text>", file_date: datetime | None = None) -> Parsed:
    reader = _Reader(source, file_date)
    fence_at = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if _FENCE.match(raw):
            reader.flush()
            fence_at = 0 if fence_at else number
            continue
        if fence_at:
            continue  # code blocks are not memories
        if "\ufffd" in raw or _CONTROL.search(raw):
            reader.flush()
            reader.problem(number, "undecodable bytes or control characters: line skipped")
            continue
        _line(reader, raw, number)
    reader.flush()
    if fence_at:
        reader.problem(fence_at, "code block never closed: the rest of the file was skipped")
    return reader.out


def _line(reader: _Reader, raw: str, number: int) -> None:
    stripped = raw.strip()
    if not stripped or _COMMENT.fullmatch(stripped):
        if not stripped and reader.paragraph:
            reader.flush()
        return
    if m := _HEADING.match(raw):
        reader.heading(len(m[1]), m[2])
        return
    if set(stripped) <= set("-*_=") and len(stripped) >= 3:
        reader.flush()  # a rule line
        return
    if m := _BULLET.match(raw):
        if not m[2].strip():
            reader.flush()
            reader.problem(number, "empty entry")
            return
        indent = len(m[1])
        if indent >= reader.indent + 2 and reader.current is not None and not reader.paragraph:
            reader.current.text += " " + m[2].strip()  # a nested bullet belongs to its parent
            return
        reader.start(m[2].strip(), number, paragraph=False, indent=indent)
        return
    if (m := _LEAD_IN.match(stripped)) and not raw[:1].isspace():
        reader.flush()
        reader.lead = m[1]   # "known_gaps:": the items below are its values
        return
    if reader.current is not None and (raw[:1].isspace() or reader.paragraph):
        reader.current.text += " " + stripped  # continuation
        return
    reader.start(stripped, number, paragraph=True)


def finish(entry: Entry, reader: _Reader) -> None:
    """Take the tags, checkbox, URI and leading date out of the entry's text."""
    text = entry.text
    if m := _URI_COMMENT.search(text):
        entry.uri, text = m[1], text[: m.start()]
    text = _COMMENT.sub("", text)
    if m := _CHECKBOX.match(text):
        entry.checkbox, text = m[1].lower(), text[m.end():]
    for m in list(_TAG.finditer(text)):
        _tag(entry, m[1].upper(), m[2], reader)
    text = _TAG.sub("", text)
    text = " ".join(text.split())
    if m := _LEADING_DATE.match(text):
        day = parse_date(m[1])
        if day is None:
            reader.problem(entry.line, f"{m[1]!r} is not a date: kept in the text")
        else:
            entry.date, text = day, text[m.end():]
    entry.text = text.strip(" -–—:：")


def _tag(entry: Entry, name: str, value: str | None, reader: _Reader) -> None:
    if name in LIFECYCLES:
        entry.lifecycle = name
    elif name == "OVERDUE":
        entry.overdue = True
    else:
        day = parse_date(value or "")
        if day is None:
            reader.problem(entry.line, f"[{name}:{value or ''}] is not a date (YYYY-MM-DD): "
                           f"imported without it")
            if name == "DUE":
                entry.checkbox = " "  # still a task, with no date
        elif name == "EXPIRY":
            entry.expiry = day
        else:
            entry.due = day

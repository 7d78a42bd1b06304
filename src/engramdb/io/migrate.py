"""Migrating Markdown memory into engramdb: a MEMORY.md (zoned or a flat list), a folder of
notes, dated journals (files named YYYY-MM-DD...). ``build_plan`` reads and decides without
writing: each entry becomes a typed memory (kind, zone, URI, lifecycle, dates), exact and near
duplicates (same kind, same numbers, token Jaccard >= 0.8 or 85% of the shorter one's words
in the longer one) are merged, keeping the fuller wording, and what could not be read is
listed with its line. ``Memory.migrate`` takes a snapshot of the scope first (the backup),
then writes every planned memory in one transaction. The URIs are derived from the text, so
migrating the same file twice changes nothing the second time.

Kinds: a zone heading decides (IDENTITY: identity or preference, PROJECTS: fact, RULES: rule,
QUICKREF: fact, PENDING: pending, LESSONS: lesson, GROWTH: event); without one, cue words in
English and Chinese do (in this order: an open task or a due date -> pending, "lesson/mistake/
教训" -> lesson, "never/always/must/不要/必须" -> rule, a date -> event, "my name is/我叫" ->
identity, "prefer/喜欢" -> preference, "project/项目" -> a project fact; else a fact). A label
the zone makes redundant ("TODO:", "教训：") is dropped; an entry whose [EXPIRY:date] has
passed is not imported (and reported)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import Invalid, NotFound
from ..ids import new_id
from ..model import Draft, Kind, Priority, Scope
from ..text.tokenize import tokenize
from ..write.guard import quality_failures
from ..write.prepare import build_record
from .markdown import SELF_KNOWLEDGE, ZONES, render
from .mdparse import Entry, Parsed, Problem, parse, parse_date

TEMP_DAYS = 7  # a [TEMP] entry without an [EXPIRY:date] expires this long after the import
NEAR_DUP = 0.8  # token Jaccard at which two entries of one kind are the same entry
CONTAINED = 0.85  # or: this share of the shorter one's tokens (3 or more) is in the longer one
PRIORITY_OF_TAG = {"PERMANENT": Priority.P0, "LONG": Priority.P1, "CONTEXTUAL": Priority.P2,
                   "LOG": Priority.P3}
KIND_OF_ZONE = {"IDENTITY": Kind.IDENTITY, "PROJECTS": Kind.FACT, "RULES": Kind.RULE,
                "QUICKREF": Kind.FACT, "PENDING": Kind.PENDING, "LESSONS": Kind.LESSON,
                "GROWTH": Kind.EVENT}
ZONE_OF = {Kind.IDENTITY: "IDENTITY", Kind.PREFERENCE: "IDENTITY", Kind.RULE: "RULES",
           Kind.FACT: "QUICKREF", Kind.PENDING: "PENDING", Kind.LESSON: "LESSONS",
           Kind.EVENT: "GROWTH"}
URI_DOMAIN = {Kind.IDENTITY: "core://user", Kind.PREFERENCE: "knowledge://preferences",
              Kind.FACT: "knowledge://facts", Kind.RULE: "rule://imported",
              Kind.LESSON: "lesson://imported", Kind.PENDING: "pending://imported",
              Kind.EVENT: "event"}


def _cues(words: str, zh: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})\b|{zh}", re.IGNORECASE)


LESSON_CUES = _cues(r"lesson|learned|learnt|mistake|turned out|next time",
                    r"教训|经验|踩坑|下次|原来|吸取")
CUES: list[tuple[Kind, str, re.Pattern[str]]] = [
    (Kind.PENDING, "PENDING", _cues(r"todo|to-do|need to|remember to|follow up",
                                    r"待办|记得|需要在|之前要|要记得|跟进")),
    (Kind.LESSON, "LESSONS", LESSON_CUES),
    (Kind.RULE, "RULES", _cues(r"always|never|must|don't|do not|avoid|make sure|should not",
                               r"不要|别再|必须|务必|禁止|一定要|永远不|总是要|切勿")),
]
PROFILE_CUES: list[tuple[Kind, str, re.Pattern[str]]] = [
    (Kind.IDENTITY, "IDENTITY", _cues(r"my name is|i am a|i'm a|i live in|i work (?:as|at)",
                                      r"我叫|我是|我的名字|我住在|我在.{1,12}工作")),
    (Kind.PREFERENCE, "IDENTITY", _cues(r"prefer|prefers|like|likes|love|hate|favou?rite",
                                        r"喜欢|偏好|讨厌|更爱|最爱|习惯用")),
    (Kind.FACT, "PROJECTS", _cues(r"project|repo|repository|codebase", r"项目|仓库|代码库")),
]
# a label the zone makes redundant ("TODO:", "Lesson:", "教训：") is dropped from the text
LABEL = re.compile(r"^(?:todo|to-do|lesson|lessons learned|learned|mistake|rule|notes?|notes?"
                   r" to self|reminder|fyi|待办|教训|经验|踩坑|规则|备注|注意|提醒)\s*[:：\-–]\s*",
                   re.IGNORECASE)


_KEY = re.compile(r"^([^:：]{1,40})[:：]")


@dataclass
class Planned:
    """One memory the migration would write, and where it came from."""

    entry: Entry
    kind: Kind
    zone: str
    uri: str
    priority: Priority | None
    expires_at: datetime | None
    due_at: datetime | None
    at: datetime | None
    merged: list[str] = field(default_factory=list)  # the duplicates folded into it

    def draft(self) -> Draft:
        meta: dict[str, Any] = {"zone": self.zone, "source": self.entry.where}
        if self.entry.topic:
            meta["topic"] = self.entry.topic
        return Draft(content=self.entry.text, kind=self.kind, uri=self.uri, at=self.at,
                     priority=self.priority, expires_at=self.expires_at, due_at=self.due_at,
                     metadata=meta, topics=[self.entry.topic] if self.entry.topic else None)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.entry.where, "kind": self.kind.value, "zone": self.zone,
                "uri": self.uri, "content": self.entry.text,
                "priority": self.priority.value if self.priority else None,
                "expires_at": _iso(self.expires_at), "due_at": _iso(self.due_at),
                "at": _iso(self.at), "merged": self.merged}


@dataclass
class Plan:
    """What a migration would do (``dry_run``) or did: the memories, the merged duplicates,
    the problems, and the compression (entries and characters before and after)."""

    sources: list[str]
    planned: list[Planned]
    problems: list[Problem]
    entries_before: int
    chars_before: int
    chars_after: int = 0
    dry_run: bool = True
    backup: str | None = None
    actions: dict[str, int] = field(default_factory=dict)

    @property
    def duplicates(self) -> int:
        return sum(len(p.merged) for p in self.planned)

    @property
    def zones(self) -> dict[str, int]:
        return {z: sum(p.zone == z for p in self.planned) for z in ZONES}

    def summary(self) -> str:
        ratio = self.chars_after / self.chars_before if self.chars_before else 0.0
        return (f"{self.entries_before} entries / {self.chars_before:,} characters -> "
                f"{len(self.planned)} memories in {len(ZONES)} zones / {self.chars_after:,} "
                f"characters ({ratio:.0%}); {self.duplicates} duplicates merged, "
                f"{len(self.problems)} problems")

    def to_dict(self) -> dict[str, Any]:
        return {"sources": self.sources, "dry_run": self.dry_run, "backup": self.backup,
                "entries_before": self.entries_before, "chars_before": self.chars_before,
                "memories_after": len(self.planned), "chars_after": self.chars_after,
                "zones": self.zones, "duplicates": self.duplicates, "actions": self.actions,
                "summary": self.summary(), "problems": [str(p) for p in self.problems],
                "planned": [p.to_dict() for p in self.planned]}


def _iso(value: datetime | None) -> str | None:
    return value.date().isoformat() if value else None


def read_sources(path: str | Path) -> tuple[list[tuple[str, str, datetime | None]],
                                               list[Problem]]:
    """(name, text, date from the file name) of each Markdown file, and unreadable ones."""
    root = Path(path)
    if not root.exists():
        raise NotFound(f"no such file or folder: {root}")
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".md", ".markdown")
                   and p.is_file()) if root.is_dir() else [root]
    if root.is_dir() and not files:
        raise Invalid(f"{root} holds no Markdown files (*.md)")
    out, problems = [], []
    for file in files:
        name = str(file.relative_to(root)) if root.is_dir() else file.name
        try:
            data = file.read_bytes()
        except OSError as exc:
            problems.append(Problem(name, 0, f"cannot read: {exc.strerror or exc}"))
            continue
        if b"\x00" in data[:4096]:
            problems.append(Problem(name, 0, "binary file: skipped"))
            continue
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        dated = re.match(r"^\d{4}-\d{1,2}-\d{1,2}", file.stem)
        out.append((name, text, parse_date(file.stem) if dated else None))
    return out, problems


def classify(entry: Entry) -> tuple[Kind, str]:
    if entry.checkbox == " " or entry.due is not None:
        return Kind.PENDING, "PENDING"
    if entry.date is None and (entry.zone == "GROWTH" and SELF_KNOWLEDGE.search(entry.text)
                               or entry.zone is None and SELF_KNOWLEDGE.search(_key(entry))):
        return Kind.FACT, "GROWTH"   # self-knowledge, not an event of the log (io/markdown.py)
    if entry.zone is not None:
        kind = KIND_OF_ZONE[entry.zone]
        if kind == Kind.IDENTITY and PROFILE_CUES[1][2].search(entry.text):
            kind = Kind.PREFERENCE
        return kind, entry.zone
    if entry.checkbox == "x":
        return Kind.EVENT, "GROWTH"
    for kind, zone, pattern in CUES:
        if pattern.search(entry.text):
            return kind, zone
    if entry.date is not None:
        return Kind.EVENT, "GROWTH"
    for kind, zone, pattern in PROFILE_CUES:
        if pattern.search(entry.text):
            return kind, zone
    return Kind.FACT, "QUICKREF"


def _key(entry: Entry) -> str:
    """What an entry's text says before its colon ("known_gaps" of "known_gaps: X")."""
    m = _KEY.match(entry.text)
    return m[1] if m else ""


def uri_for(kind: Kind, zone: str, text: str, at: datetime | None) -> str:
    from ..attention.procedures import slug

    digest = hashlib.sha1(" ".join(text.lower().split()).encode()).hexdigest()[:6]
    tail = f"{slug(text, 40)}-{digest}"
    if kind == Kind.EVENT:
        return f"event://{at.date().isoformat() if at else 'undated'}/{tail}"
    if zone == "PROJECTS":
        return f"project://imported/{tail}"
    return f"{URI_DOMAIN[kind]}/{tail}"


def plan_entry(entry: Entry, now: datetime, problems: list[Problem]) -> Planned | None:
    failed = quality_failures(entry.text, Kind.IDENTITY if entry.zone == "IDENTITY"
                              else Kind.FACT)
    if failed:
        problems.append(Problem(entry.source, entry.line, f"not a memory ({', '.join(failed)}):"
                                f" {entry.text[:40]!r} skipped"))
        return None
    kind, zone = classify(entry)
    entry.text = LABEL.sub("", entry.text) or entry.text
    expires = entry.expiry
    if expires is not None and expires <= now:
        problems.append(Problem(entry.source, entry.line, f"expired on "
                                f"{expires.date().isoformat()}: not imported"))
        return None
    if entry.lifecycle == "TEMP" and expires is None:  # a day, as the tag would write it
        day = (now + timedelta(days=TEMP_DAYS)).date()
        expires = datetime(day.year, day.month, day.day, tzinfo=now.tzinfo)
    priority = PRIORITY_OF_TAG.get(entry.lifecycle or "")
    uri = entry.uri or uri_for(kind, zone, entry.text, entry.date)
    return Planned(entry, kind, zone, uri, priority, expires, entry.due, entry.date)


def build_plan(path: str | Path, now: datetime, max_bytes: int) -> Plan:
    sources, problems = read_sources(path)
    parsed: list[Parsed] = [parse(text, name, day) for name, text, day in sources]
    entries = [e for p in parsed for e in p.entries]
    for p in parsed:
        problems.extend(p.problems)
    planned: list[Planned] = []
    for entry in entries:
        if len(entry.text.encode()) > max_bytes:
            problems.append(Problem(entry.source, entry.line,
                                    f"entry longer than {max_bytes} bytes: skipped"))
            continue
        item = plan_entry(entry, now, problems)
        if item is not None and not _merge(item, planned):
            planned.append(item)
    plan = Plan([name for name, _, _ in sources], [], problems, len(entries),
                sum(len(text) for _, text, _ in sources))
    records = []
    for item in planned:
        try:
            records.append(build_record(item.draft(), Scope(), new_id(now), now, max_bytes))
        except Invalid as exc:
            problems.append(Problem(item.entry.source, item.entry.line, f"{exc}: skipped"))
            continue
        plan.planned.append(item)
    plan.chars_after = len(render(records, now))
    return plan


def _near(a: set[str], b: set[str]) -> bool:
    if not a or not b:
        return False
    common = len(a & b)
    small = min(len(a), len(b))
    return common / len(a | b) >= NEAR_DUP or (small >= 3 and common / small >= CONTAINED)


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)*", text))


def _merge(item: Planned, planned: list[Planned]) -> bool:
    """Fold ``item`` into an earlier planned memory that says the same; True if it did."""
    words = set(tokenize(item.entry.text))
    for other in planned:
        if other.uri == item.uri:
            other.merged.append(f"{item.entry.where} (same text)")
            return True
        if other.kind != item.kind:
            continue
        theirs = set(tokenize(other.entry.text))
        if _near(words, theirs) and _numbers(item.entry.text) == _numbers(other.entry.text):
            other.merged.append(f"{item.entry.where} (near duplicate)")
            if len(item.entry.text) > len(other.entry.text):  # keep the fuller wording
                other.entry.text = item.entry.text
            return True
    return False


def default_backup(location: str, now: datetime) -> Path:
    import tempfile

    stamp = now.strftime("%Y%m%dT%H%M%S")
    if location == ":memory:":
        return Path(tempfile.gettempdir()) / f"engramdb-backup-{stamp}.jsonl"
    return Path(f"{location}.backup-{stamp}.jsonl")

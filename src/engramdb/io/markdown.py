"""MEMORY.md: the zoned profile, written and read.

Seven zones, in this order: IDENTITY (who the user and agent are, preferences), PROJECTS,
RULES, QUICKREF (facts, procedures, gists), PENDING, LESSONS, GROWTH (self-knowledge first:
known gaps, growth edges, open questions: ``is_self_knowledge``; then events and emotions: the
log).
Each entry is one line::

    - [LONG] Never push to main on Fridays <!-- rule://never-push-to-main-3f2a1c -->
    - [TEMP] [EXPIRY:2026-03-08] The staging box is down this week
    - [CONTEXTUAL] [DUE:2026-03-10] [OVERDUE] Renew the TLS certificate
    - [LOG] 2026-02-14: shipped v1.2 with the new importer

The lifecycle tag comes first ([PERMANENT], [LONG], [CONTEXTUAL], [LOG], [TEMP] with
[EXPIRY:date]); pending items carry [DUE:date] and, once past it, [OVERDUE]; events start with
their date; on request the URI rides in a trailing HTML comment.
Within a zone, entries go by priority, then due date (else date), then id. A memory's zone is
``metadata["zone"]`` when set (an import sets it), else its URI domain
(project://) or kind decides."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from ..model import Kind, Lifecycle, Record, Scope
from ..uri import domain_of

ZONES = ("IDENTITY", "PROJECTS", "RULES", "QUICKREF", "PENDING", "LESSONS", "GROWTH")
ZONE_OF_KIND = {
    Kind.IDENTITY: "IDENTITY", Kind.PREFERENCE: "IDENTITY", Kind.RULE: "RULES",
    Kind.FACT: "QUICKREF", Kind.PROCEDURE: "QUICKREF", Kind.GIST: "QUICKREF",
    Kind.PENDING: "PENDING", Kind.LESSON: "LESSONS", Kind.EVENT: "GROWTH",
    Kind.EMOTION: "GROWTH",
}
DATED = frozenset({Kind.EVENT, Kind.EMOTION})


SELF_KNOWLEDGE = re.compile(
    r"\b(?:i am|i'm|we are|we're) (?:not (?:good|great) at|bad at|weak (?:at|in)|still learning)"
    r"|\bi (?:struggle|struggled) with\b|\bi (?:want|need|hope) to (?:get better|improve|learn)"
    r"|\b(?:known[ _-]gap|growth[ _-]edge|open[ _-]question|blind[ _-]spot|weak[ _-]spot)s?\b"
    r"|\bi (?:don't|do not) (?:know|understand) (?:yet|how)\b"
    r"|我(?:还)?不(?:太)?擅长|我(?:想|要|希望)(?:提高|提升|学会|加强)|我的(?:短板|弱点|盲区)"
    r"|我还不(?:会|懂|太会)|还没(?:想清楚|搞懂|弄明白)|(?:待解决|悬而未决)的问题|成长(?:方向|目标)",
    re.IGNORECASE)


def is_self_knowledge(rec: Record) -> bool:
    return rec.kind not in (Kind.EVENT, Kind.PENDING, Kind.RULE) and bool(
        SELF_KNOWLEDGE.search(rec.content))


def zone_of(rec: Record) -> str:
    zone = rec.metadata.get("zone")
    if isinstance(zone, str) and zone.upper() in ZONES:
        # a promoted lesson is a rule now, whatever zone it was imported into
        if not (zone.upper() == "LESSONS" and rec.kind != Kind.LESSON):
            return zone.upper()
    if rec.uri and domain_of(rec.uri) == "project":
        return "PROJECTS"
    if is_self_knowledge(rec):   # known gaps, growth edges, open questions
        return "GROWTH"
    return ZONE_OF_KIND[rec.kind]


def tags(rec: Record, now: datetime) -> list[str]:
    out = [f"[{rec.lifecycle.value.upper()}]"]
    if rec.lifecycle == Lifecycle.TEMP and rec.expires_at is not None:
        out.append(f"[EXPIRY:{rec.expires_at.date().isoformat()}]")
    if rec.due_at is not None:
        out.append(f"[DUE:{rec.due_at.date().isoformat()}]")
        if rec.overdue_since is not None or rec.due_at <= now:
            out.append("[OVERDUE]")
    return out


def entry_line(rec: Record, now: datetime, uris: bool = False) -> str:
    text = " ".join(rec.content.split())  # one line per entry
    if rec.kind in DATED:
        text = f"{rec.at.date().isoformat()}: {text}"
    uri = f" <!-- {rec.uri} -->" if rec.uri and uris else ""
    return f"- {' '.join(tags(rec, now))} {text}{uri}"


def render(records: Iterable[Record], now: datetime, scope: Scope | None = None, *,
           uris: bool = False) -> str:
    """The MEMORY.md text of these memories (current ones; superseded ones are left out).
    ``uris``: add each memory's URI as a trailing comment (a migration derives the same URIs
    from the text anyway, so a re-import changes nothing either way)."""
    zones: dict[str, list[Record]] = {z: [] for z in ZONES}
    for rec in records:
        if rec.current and rec.content:
            zones[zone_of(rec)].append(rec)
    lines = ["# MEMORY.md", ""]
    if scope is not None:
        lines += [f"<!-- engramdb export: user={scope.user} agent={scope.agent} "
                  f"at={now.isoformat(timespec='seconds')} -->", ""]
    for zone in ZONES:
        lines.append(f"## {zone}")
        ordered = sorted(zones[zone], key=lambda r: (r.kind in DATED, r.priority.value,
                                                     r.due_at or r.at, r.id))
        lines += [entry_line(r, now, uris) for r in ordered]
        lines.append("")
    return "\n".join(lines)

"""A gist summarises one period: the time-span rule that splits a theme's members.

A theme's episodes (or gists, one level up) are one cluster only while they stay close in time:

- **gap**: in time order, a member joins the cluster when it starts at most ``gap`` days after
  the latest moment the cluster reaches (the same trip told over several days, a week of work
  on one project);
- **span**: and the cluster, with it, spans at most ``span`` days from its first moment to its
  last (a weekly habit kept for a year is many periods, not one gist).

Defaults (``Config.gist_max_gap_days`` 30, ``Config.gist_max_span_days`` 92): a month of
silence on a theme closes its period (longer than the 14-day half-life after which an episode
settles, so the follow-ups of one trip or project, told a week or two apart, stay together),
and a gist covers at most a quarter, a unit people recall periods by ("that spring in Kyoto",
"the quarter we moved"). One level up a gist of gists summarises a longer period: each level
multiplies both by ``LEVEL_SCALE`` (6): a level-2 gist takes gists up to half a year apart
within a year and a half, level 3 about a stage of life.

A member's moments: an episode's ``at``; a gist's ``metadata["span"]`` (its first and last
source), else its ``at``. An existing gist takes a new member that falls within ``gap`` of its
span and keeps the span within ``span``; the members none takes are split into periods, in
time order, each a candidate for a new gist."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..model import Record
from .strength import DecayParams

LEVEL_SCALE = 6.0


@dataclass(frozen=True)
class Window:
    gap: timedelta
    span: timedelta


def window(params: DecayParams, at_level: int = 1) -> Window:
    """The rule for gists of level ``at_level`` (1: a gist of episodes)."""
    scale = LEVEL_SCALE ** (at_level - 1)
    return Window(timedelta(days=params.gist_gap_days * scale),
                  timedelta(days=params.gist_span_days * scale))


def moments(rec: Record) -> tuple[datetime, datetime]:
    """When the member starts and ends: a gist's span, else its ``at`` twice."""
    span = rec.metadata.get("span")
    if isinstance(span, list) and len(span) == 2:
        try:
            first, last = (datetime.fromisoformat(str(x)) for x in span)
        except ValueError:
            return rec.at, rec.at
        if first.tzinfo is not None and last.tzinfo is not None and first <= last:
            return first, last
    return rec.at, rec.at


def admits(rule: Window, first: datetime, last: datetime, rec: Record) -> bool:
    """Does a cluster from ``first`` to ``last`` take ``rec`` under the rule?"""
    start, end = moments(rec)
    near = start - last <= rule.gap and first - end <= rule.gap
    return near and max(last, end) - min(first, start) <= rule.span


def assign(rule: Window, members: list[Record],
           olds: list[Record]) -> list[tuple[Record | None, list[Record]]]:
    """(existing gist or None, its members) for ``members`` (oldest first) under the rule:
    each member joins the first existing gist whose period admits it (that period grows),
    the rest are split into new periods in time order."""
    spans = {old.id: moments(old) for old in olds}
    taken: dict[str, list[Record]] = {old.id: [] for old in olds}
    left: list[Record] = []
    for rec in sorted(members, key=lambda r: (moments(r)[0], r.id)):
        old = next((o for o in olds if admits(rule, *spans[o.id], rec)), None)
        if old is None:
            left.append(rec)
            continue
        start, end = moments(rec)
        first, last = spans[old.id]
        spans[old.id] = (min(first, start), max(last, end))
        taken[old.id].append(rec)
    out: list[tuple[Record | None, list[Record]]] = [
        (old, taken[old.id]) for old in olds if taken[old.id]]
    return out + [(None, group) for group in split(rule, left)]


def split(rule: Window, members: list[Record]) -> list[list[Record]]:
    """``members`` cut into periods, in time order."""
    groups: list[list[Record]] = []
    first = last = None
    for rec in sorted(members, key=lambda r: (moments(r)[0], r.id)):
        if first is None or last is None or not admits(rule, first, last, rec):
            groups.append([])
            first, last = moments(rec)
        start, end = moments(rec)
        first, last = min(first, start), max(last, end)
        groups[-1].append(rec)
    return groups

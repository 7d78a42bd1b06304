"""Prefetch: what is coming up, warmed into the context block before anyone asks about it.

Within ``Config.coming_up_days`` of now (the injectable clock), context() shows, in its
"Coming up" section (即将到来 in a scope written in Chinese):

- the open pending items due by then, and those overdue by no more than the window (by due
  date, the overdue ones first): the due date a write read from the item's own words
  (text/duedate.py) or was given;
- the current memories dated ahead, within the window (an event on the 5th, a trip next
  week): ``at`` after now and by the window's end, soonest first;
- when a goal is active, the memories a recall of its title finds (untracked: warming them
  is not a use), so that what the goal is about is in the prompt before it is asked; not
  the ones context() shows in their own sections (identity, rules, procedures).

At most ``MAX_DATED`` dated lines and ``GOAL_K`` goal lines. Nothing due or dated in the window
and no active goal: no section."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..model import Kind, Layer, Priority, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text.lang import EN, ZH
from .boot import IDENTITY_PREFIXES

MAX_DATED = 6     # pending and dated lines at most
GOAL_K = 3        # memories warmed for the active goal
WIDEN = 8         # more asked of the goal's recall, for those shown elsewhere
SHOWN_KINDS = frozenset({Kind.RULE, Kind.PROCEDURE, Kind.IDENTITY})
TITLES = {EN: "Coming up", ZH: "即将到来"}
_WORDS = {EN: {"due": "due", "overdue": "overdue, due", "goal": "goal"},
          ZH: {"due": "截止", "overdue": "已逾期，截止", "goal": "目标"}}


@dataclass(frozen=True)
class ComingUp:
    """What context() shows as coming up: the pending items due, the dated memories, the
    memories warmed for the active goal."""

    due: list[Record] = field(default_factory=list)
    dated: list[Record] = field(default_factory=list)
    goal: str | None = None
    for_goal: list[Record] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in (*self.due, *self.dated, *self.for_goal)]

    @property
    def records(self) -> list[Record]:
        return [*self.due, *self.dated, *self.for_goal]

    def lines(self, now: datetime, lang: str) -> list[str]:
        words = _WORDS.get(lang, _WORDS[EN])
        out = []
        for r in self.due:
            assert r.due_at is not None
            mark = words["overdue" if r.due_at <= now else "due"]
            out.append(f"- [{mark} {r.due_at.date()}] {r.content}")
        out += [f"- [{r.at.date()}] {r.content}" for r in self.dated]
        sep = "：" if lang == ZH else ": "
        out += [f"- [{words['goal']}{sep}{self.goal}] {r.content}" for r in self.for_goal]
        return out


def coming_up(store: Store, scope: Scope, now: datetime, days: float, goal: str | None,
              warm: Callable[[str, int], Sequence[Record]]) -> ComingUp:
    """What is due or dated within ``days`` of ``now``, and what ``warm(goal, GOAL_K)``
    (an untracked recall) finds for the active goal's title; ``days`` 0: nothing."""
    if days <= 0:
        return ComingUp()
    end = now + timedelta(days=days)
    core = (Layer.CORE,)
    pending = store.list(scope, ListFilter(kinds=(Kind.PENDING.value,), layers=core,
                                           current_only=True))
    start = now - timedelta(days=days)
    due = sorted((r for r in pending if r.due_at is not None and start <= r.due_at <= end),
                 key=lambda r: (r.due_at, r.id))[:MAX_DATED]
    ahead = store.list(scope, ListFilter(since=now, until=end + timedelta(seconds=1),
                                         layers=core, current_only=True))
    dated = sorted((r for r in ahead if r.at > now and r.kind != Kind.PENDING
                    and r.id not in {d.id for d in due}),
                   key=lambda r: (r.at, r.id))[:MAX_DATED - len(due)]
    if goal is None:
        return ComingUp(due, dated)
    seen = {r.id for r in (*due, *dated)}
    found = [r for r in warm(goal, GOAL_K + len(seen) + WIDEN)
             if r.id not in seen and warmable(r)][:GOAL_K]
    return ComingUp(due, dated, goal, found)


def warmable(rec: Record) -> bool:
    """Not a memory context() shows in its own section: identity (P0, core://agent/ and
    core://user/ memories), rules and procedures."""
    return (rec.kind not in SHOWN_KINDS and rec.priority != Priority.P0
            and not (rec.uri or "").startswith(IDENTITY_PREFIXES))


def title(lang: str) -> str:
    return TITLES.get(lang, TITLES[EN])

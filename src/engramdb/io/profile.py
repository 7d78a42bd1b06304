"""Maintenance rules of the zoned profile (MEMORY.md, io/markdown.py) that are checks, not
changes: the capacity warning, the pending reminder, the pending check at session end, and
which memories are self-knowledge (the GROWTH zone).

- Capacity: the profile's tokens (the rendered MEMORY.md, text/tokens.py) against its budget
  (``Config.profile_budget``, default 2000). From ``CAPACITY_WARN`` (80%) of the budget on, a
  warning names both figures; over the budget it says so.
- Pending: from ``PENDING_REMINDER_AT`` (8) open pending items on, a reminder lists them
  (overdue first) so that some get done or dropped.
- Session end (``WorkingMemory.end``): the hand-over lists the scope's open pending items,
  overdue and due first, so the agent checks them before it leaves.
- GROWTH holds self-knowledge: a memory whose ``metadata["zone"]`` is GROWTH, or whose text
  says what the user or agent cannot do yet, wants to learn or has not settled ("I'm not good
  at", "I want to get better at", "open question", "我不擅长", "我想提高", "还没想清楚"),
  listed before the dated log of events.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..model import Boot, Kind, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text.tokens import count_tokens

CAPACITY_WARN = 0.8
PENDING_REMINDER_AT = 8
SHOWN = 3   # pending items a reminder names
@dataclass(frozen=True)
class ProfileCheck:
    """The profile's size against its budget, its pending items, and the warnings they give."""

    tokens: int
    budget: int
    pending: int
    overdue: int
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "budget": self.budget, "pending": self.pending,
                "overdue": self.overdue, "warnings": list(self.warnings)}


def open_pending(records: list[Record], now: datetime) -> list[Record]:
    """Current pending items: overdue or due first (earliest due), then by due date, then
    the ones without one, newest first."""
    items = [r for r in records if r.kind == Kind.PENDING and r.current]
    late = sorted((r for r in items if r.due_at is not None and r.due_at <= now),
                  key=lambda r: (r.due_at, r.id))
    dated = sorted((r for r in items if r.due_at is not None and r.due_at > now),
                   key=lambda r: (r.due_at, r.id))
    undated = sorted((r for r in items if r.due_at is None), key=lambda r: (r.at, r.id),
                     reverse=True)
    return late + dated + undated


def check(store: Store, scope: Scope, now: datetime, budget: int, encoding: str) -> ProfileCheck:
    from .markdown import render

    records = list(store.list(scope, ListFilter(current_only=True)))
    tokens = count_tokens(render(records, now), encoding)
    pending = open_pending(records, now)
    overdue = sum(1 for r in pending if r.due_at is not None and r.due_at <= now)
    warnings = []
    if budget > 0 and tokens > budget:
        warnings.append(f"capacity: MEMORY.md holds {tokens} tokens, over its budget of "
                        f"{budget}; archive or merge entries")
    elif budget > 0 and tokens >= CAPACITY_WARN * budget:
        warnings.append(f"capacity: MEMORY.md holds {tokens} of its {budget}-token budget "
                        f"({tokens / budget:.0%}); archive or merge entries before it is full")
    if len(pending) >= PENDING_REMINDER_AT:
        named = "; ".join(r.content for r in pending[:SHOWN])
        warnings.append(f"pending: {len(pending)} open items ({overdue} overdue), reminder at "
                        f"{PENDING_REMINDER_AT}: finish or drop some. First: {named}")
    return ProfileCheck(tokens, budget, len(pending), overdue, warnings)


def pending_at_end(store: Store, scope: Scope, now: datetime) -> list[Record]:
    """The open pending items a session's hand-over lists when it ends."""
    flt = ListFilter(kinds=(Kind.PENDING.value,), current_only=True)
    return open_pending(list(store.list(scope, flt)), now)


def with_warnings(loaded: Boot, store: Store, scope: Scope, now: datetime, budget: int,
                  encoding: str) -> Boot:
    """``boot()`` with the profile's warnings (capacity, pending); none when ``budget`` is 0."""
    if budget <= 0:
        return loaded
    return replace(loaded, warnings=check(store, scope, now, budget, encoding).warnings)

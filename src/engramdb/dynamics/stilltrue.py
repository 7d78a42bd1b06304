"""The "still true?" queue: facts and preferences that have gone unconfirmed for long.

review.py schedules a memory so that it is not forgotten; this module asks whether what a
memory says still holds. A fact is confirmed when it is stated (``at``, when it was said, at
the latest when it was stored), stated again (a write that found it already known records a
use), recalled and used (a tracked recall records a use), or confirmed outright
(``confirm``: a use and a ``confirm`` event in its log). ``last_confirmed`` is the latest of
these.

Each fact has a period: how long it goes unconfirmed before it is as likely to have changed
as not. The chance that it changed after ``t`` days unconfirmed is ``1 - 2 ** (-t / period)``
(the truth of a fact has a half-life, as its strength has, dynamics/strength.py). The period
is ``Config.still_true_days`` (a P2 fact of importance 0.5) scaled by its priority
(``PRIORITY_SCALE``: P0 x4, P1 x2, P2 x1, P3 x0.5) and by its importance (``2 ** (2 *
(importance - 0.5))``: x0.5 at importance 0, x2 at 1), so what matters most is asked about
least often. A current core fact or preference whose period has passed is queued, the longest
overdue (unconfirmed days / period) first. Confirming one takes it off the queue until its
period passes again. ``still_true_days = 0``: nothing is ever queued.

The queue is shown in ``boot`` and ``context`` (``Config.still_true_shown`` of them), under a
heading in the scope's language (``title``): the language most of the scope's facts and
preferences are written in (text/lang.py).

``Unconfirmed`` keeps, per scope, each current fact's last confirmation, priority, importance
and language, brought up to date from the event log (``Store.changed_since``: a use, a write,
a confirmation are all events) at each read (store/follow.py, as recall/crosslingual.py keeps
the languages): a scope is read whole once, then only what changed, so ``boot`` and
``context`` do not load every fact each time."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ..errors import Conflict, Invalid
from ..model import Boot, Kind, Layer, Priority, Record, Scope
from ..store.follow import follow
from ..store.protocol import Store
from ..text.lang import EN, ZH, language
from ..text.tokens import count_tokens

QUEUE_KINDS = (Kind.FACT, Kind.PREFERENCE)
PRIORITY_SCALE = {Priority.P0: 4.0, Priority.P1: 2.0, Priority.P2: 1.0, Priority.P3: 0.5}
MAX_K = 1000
TITLES = {EN: "Still true?", ZH: "仍然属实吗？"}
_DAY = 86400.0


@dataclass(frozen=True)
class StillTrue:
    """A fact's standing in the queue at ``now``."""

    memory: Record
    last_confirmed: datetime
    period_days: float        # unconfirmed this long, it is as likely changed as not
    unconfirmed_days: float   # now - last_confirmed
    doubt: float              # the chance it changed: 1 - 2 ** (-unconfirmed / period)

    @property
    def queued(self) -> bool:
        return self.unconfirmed_days >= self.period_days

    @property
    def next_at(self) -> datetime:
        """When it is queued (again) if nothing confirms it."""
        return self.last_confirmed + timedelta(days=self.period_days)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.memory.id, "content": self.memory.content,
                "kind": self.memory.kind.value, "priority": self.memory.priority.value,
                "importance": self.memory.importance,
                "last_confirmed": self.last_confirmed.isoformat(),
                "period_days": round(self.period_days, 4),
                "unconfirmed_days": round(self.unconfirmed_days, 4),
                "doubt": round(self.doubt, 4), "queued": self.queued,
                "next_at": self.next_at.isoformat()}


def period_for(priority: Priority, importance: float, base_days: float) -> float:
    return base_days * PRIORITY_SCALE[priority] * 2.0 ** (2.0 * (importance - 0.5))


def period_days(rec: Record, base_days: float) -> float:
    return period_for(rec.priority, rec.importance, base_days)


def last_confirmed(rec: Record) -> datetime:
    """When it was last stated, stated again, recalled and used, or confirmed."""
    return max([min(rec.at, rec.recorded_at), *rec.last_uses])


def doubt(unconfirmed_days: float, period: float) -> float:
    if period <= 0:
        return 0.0
    return 1.0 - 2.0 ** (-max(unconfirmed_days, 0.0) / period)


def standing(rec: Record, now: datetime, base_days: float) -> StillTrue:
    last = last_confirmed(rec)
    days = (now - last).total_seconds() / _DAY
    period = period_days(rec, base_days)
    return StillTrue(rec, last, period, days, doubt(days, period))


def reviewable(rec: Record) -> bool:
    """A current fact or preference of the core layer, with content (not erased)."""
    return (rec.kind in QUEUE_KINDS and rec.layer == Layer.CORE and rec.current
            and bool(rec.content))


def check_k(k: object) -> int:
    """``k`` as the number of queued facts asked for (1 to MAX_K), else Invalid."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise Invalid(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
    return k


@dataclass(frozen=True)
class Entry:
    last_confirmed: datetime
    priority: Priority
    importance: float
    zh: bool


@dataclass
class ScopeFacts:
    seq: int = 0
    entries: dict[str, Entry] = field(default_factory=dict)


class Unconfirmed:
    """Each scope's current facts and preferences, kept in step with the store's event log."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._scopes: dict[Scope, ScopeFacts] = {}
        self._lock = threading.Lock()

    def of(self, scope: Scope) -> dict[str, Entry]:
        with self._lock:
            state = self._scopes.setdefault(scope, ScopeFacts())
            newest, restart, changed = follow(self.store, scope, state.seq)
            if restart:
                state = self._scopes[scope] = ScopeFacts()
            for mid, rec in changed:
                state.entries.pop(mid, None)
                if rec is not None and reviewable(rec):
                    state.entries[mid] = Entry(last_confirmed(rec), rec.priority,
                                               rec.importance, language(rec.content) == ZH)
            state.seq = newest
            return dict(state.entries)

    def queue(self, scope: Scope, now: datetime, base_days: float,
              k: int) -> tuple[list[StillTrue], str | None]:
        """The ``k`` longest overdue, and the language most of the scope's facts are written
        in (None: it has none)."""
        entries = self.of(scope)
        zh = sum(e.zh for e in entries.values())
        lang = (ZH if zh * 2 > len(entries) else EN) if entries else None
        if base_days <= 0 or k <= 0:
            return [], lang
        overdue = []
        for mid, e in entries.items():
            period = period_for(e.priority, e.importance, base_days)
            days = (now - e.last_confirmed).total_seconds() / _DAY
            if days >= period:
                overdue.append((-days / period, mid))
        wanted = [mid for _, mid in sorted(overdue)[:k]]
        found = self.store.get_many(scope, wanted)
        out = [standing(found[mid], now, base_days) for mid in wanted if mid in found]
        return [s for s in out if reviewable(s.memory) and s.queued], lang


def confirm(store: Store, scope: Scope, rec: Record, now: datetime,
            base_days: float) -> StillTrue:
    """Record that ``rec`` still holds: a use at ``now`` and a ``confirm`` event."""
    if rec.layer == Layer.DELETED:
        raise Conflict(f"memory {rec.id} was forgotten: restore it before confirming it")
    if rec.invalid_at is not None:
        raise Conflict(f"memory {rec.id} was superseded by {rec.superseded_by}: confirm the "
                       "current value instead")
    with store.transaction():
        store.record_uses(scope, [rec.id], now, 0.0)
        used = store.get(scope, rec.id) or rec
        new = used.replace(updated_at=now, version=used.version + 1)
        store.save(new, "confirm", actor="user", reason="confirmed still true")
    return standing(new, now, base_days)


def title(lang: str) -> str:
    return TITLES.get(lang, TITLES[EN])


def line(s: StillTrue, lang: str) -> str:
    """A context line: the fact, when it was last confirmed, its id (to confirm it)."""
    day = s.last_confirmed.date().isoformat()
    if lang == ZH:
        return f"- {s.memory.content}（上次确认 {day}；id {s.memory.id}）"
    return f"- {s.memory.content} (last confirmed {day}; id {s.memory.id})"


def with_still_true(loaded: Boot, queued: Sequence[StillTrue], lang: str,
                    budget: int | None, encoding: str) -> Boot:
    """``loaded`` plus the queued facts, under the title in ``lang``, while the budget
    allows."""
    if not queued or loaded.truncated:
        return loaded
    tokens, kept = loaded.tokens, []
    for s in queued:
        cost = count_tokens(s.memory.content, encoding)
        if budget is not None and tokens + cost > budget:
            return replace(loaded, still_true=kept, still_true_title=title(lang),
                           tokens=tokens, truncated=True)
        kept.append(s.memory)
        tokens += cost
    return replace(loaded, still_true=kept, still_true_title=title(lang), tokens=tokens)

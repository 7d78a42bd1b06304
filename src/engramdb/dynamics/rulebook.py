"""What the rules review (rules_review.py) reads of each current rule, kept between sleeps.

The review looks at every current rule of the scope at each sleep, an automatic one after a
write included. Decoding each rule again (its JSON, its timestamps) cost ~60 us a rule, so at
each sleep a scope of 80k memories and 13k rules paid more for the review than for its writes.
A ``RuleBook`` keeps, per scope, the few facts the review decides on (``RuleFacts``: the
rule's text key, its polarity, its last activity, its flag) and brings them up to date from the
event log: the memories with an event since the book was last brought up to date (a write, an
edit, a use, a forget, a restore: from this process or any other) are read again, nothing
else. The book is read afresh when the log went back (another file) or when the number of
current rules the store counts is not the book's (a scope dropped, a rollback)."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from datetime import datetime

from ..attention.rules import same_text
from ..model import Kind, Layer, Record, Scope
from ..store.protocol import ListFilter, Store

_EN_MARK = re.compile(r"^(?:please\s*)?(?:from now on,?\s*)?(?:you\s+)?(?:must\s+)?"
                      r"(?P<mark>always|never|do not ever|do not|don't ever|don't|make sure to)"
                      r"\s+", re.IGNORECASE)
_ZH_MARK = re.compile(r"^(?:请)?(?P<pre>[^，。,]{0,6}?)(?P<mark>永远不要|一定要|千万不要|千万别|"
                      r"务必|绝对不能|必须|禁止|不要|不许|不准|别|要)")
_FORBIDS = frozenset({"never", "do not ever", "do not", "don't ever", "don't", "永远不要",
                      "千万不要", "千万别", "绝对不能", "禁止", "不要", "不许", "不准", "别"})


def polarity(text: str) -> tuple[str, bool] | None:
    """(the action a rule is about, whether it forbids it), or None for another shape:
    "Never deploy on Fridays" -> ("deployonfridays", True), "周五一定要上线" -> ("周五上线",
    False)."""
    stripped = text.strip()
    m = _EN_MARK.match(stripped)
    if m is not None:
        action = same_text(stripped[m.end():])
    else:
        m = _ZH_MARK.match(stripped)
        if m is None:
            return None
        action = same_text(m["pre"] + stripped[m.end():])
    return (action, m["mark"].lower() in _FORBIDS) if action else None


RULES = ListFilter(kinds=(Kind.RULE.value,), layers=(Layer.CORE,), current_only=True)


@dataclass(frozen=True)
class RuleFacts:
    id: str
    recorded_at: datetime
    key: str                         # attention/rules.py ``same_text``
    shape: tuple[str, bool] | None   # ``polarity``
    last: datetime                   # the last write or use the unused check counts
    flagged: bool                    # metadata["review"] is set


def facts_of(rec: Record) -> RuleFacts:
    flagged = "review" in rec.metadata
    last = max([rec.recorded_at, rec.recorded_at if flagged else rec.updated_at,
                *rec.last_uses])
    return RuleFacts(rec.id, rec.recorded_at, same_text(rec.content), polarity(rec.content),
                     last, bool(rec.metadata.get("review")))


def holds(rec: Record) -> bool:
    """A rule the review looks at (what ``RULES`` lists)."""
    return rec.kind == Kind.RULE and rec.layer == Layer.CORE and rec.invalid_at is None


@dataclass
class RuleBook:
    seq: int = 0
    rules: dict[str, RuleFacts] = field(default_factory=dict)


class RuleBooks:
    """One ``RuleBook`` per scope, for one store (a sleep in the background and one asked for
    may read them at once: one at a time)."""

    def __init__(self) -> None:
        self._books: dict[Scope, RuleBook] = {}
        self._lock = threading.Lock()

    def current(self, store: Store, scope: Scope) -> list[RuleFacts]:
        """The scope's current core rules, oldest first (by recorded_at, then id)."""
        with self._lock:
            return self._current(store, scope)

    def _current(self, store: Store, scope: Scope) -> list[RuleFacts]:
        book = self._books.get(scope)
        if book is not None:
            newest, changed = store.changed_since(scope, book.seq)
            if newest < book.seq:
                book = None
            else:
                self._refresh(store, scope, book, changed)
                book.seq = newest
        if book is None or len(book.rules) != store.count(scope, RULES):
            book = self._books[scope] = self._read(store, scope)
        return sorted(book.rules.values(), key=lambda f: (f.recorded_at, f.id))

    @staticmethod
    def _refresh(store: Store, scope: Scope, book: RuleBook, changed: list[str]) -> None:
        found = store.get_many(scope, changed) if changed else {}
        for mid in changed:
            rec = found.get(mid)
            if rec is not None and holds(rec):
                book.rules[mid] = facts_of(rec)
            else:
                book.rules.pop(mid, None)

    @staticmethod
    def _read(store: Store, scope: Scope) -> RuleBook:
        """Every current rule, read from the store; the event seq is taken first, so a change
        made while reading is read again next time."""
        newest, _ = store.changed_since(scope, store.sleep_state(scope).event_seq)
        return RuleBook(newest, {r.id: facts_of(r) for r in store.list(scope, RULES)})

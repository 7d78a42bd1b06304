"""The first room of the read path: what a query asks. Its words, a URI it names, the time
window it names and how to route by tense (recall/temporal.py), the attribute a question asks
about (recall/slotcue.py), its intent (recall/intent.py) and the preset that serves it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

import numpy as np

from ..model import Layer, Scope
from ..store.protocol import ListFilter, Store
from ..text import tokenize
from ..text.timewindow import TimeWindow, parse_window
from ..uri import DOMAINS
from .hints import describe
from .intent import classify
from .presets import PRESET_BY_INTENT, Preset, get_preset
from .slotcue import AskedSlot, asked_slot
from .temporal import Routing, route

REPLAY_GAP = timedelta(days=30)  # newest memory written this long after it happened: history

_URI = re.compile(rf"\b(?:{'|'.join(sorted(DOMAINS))})://[^\s\"'<>]*")


@dataclass
class QueryPlan:
    query: str
    tokens: list[str]
    uri_prefix: str | None
    kinds: tuple[str, ...] = ()
    within: str | None = None            # the caller's URI prefix: only memories under it
    layers: tuple[Layer, ...] = (Layer.CORE,)
    notes: list[str] = field(default_factory=list)
    window: TimeWindow | None = None     # the time the query names (applied when routed so)
    time_words: str = ""                 # the query's own words for a time (not content words)
    routing: Routing = field(default_factory=lambda: Routing("current", "no query analysed"))
    filtered: dict[str, int] = field(default_factory=dict)   # left out, by reason
    intent: str = "factual"              # recall/intent.py
    intent_reason: str = ""
    preset: str = ""                     # the preset that ran
    associated: list[str] = field(default_factory=list)   # ids brought in by association
    asked: AskedSlot | None = None       # the attribute a question asks about (slotcue.py)
    vector: np.ndarray | None = None     # the query's embedding, once computed
    untensed: np.ndarray | None = None   # a past question's, its past marker left out
    halves: dict[str, np.ndarray] = field(default_factory=dict)  # in each model alone, once
    crosslingual: dict[str, object] | None = None   # the cross-lingual leg (crosslingual.py)
    stages: dict[str, object] = field(default_factory=dict)  # what each optional stage did

    @property
    def applied_window(self) -> TimeWindow | None:
        return self.window if self.routing.mode == "window" else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"tokens": self.tokens, "uri_prefix": self.uri_prefix,
                                  "kinds": list(self.kinds), "notes": self.notes,
                                  "routing": self.routing.to_dict(),
                                  "filtered": dict(self.filtered),
                                  "intent": self.intent, "intent_reason": self.intent_reason,
                                  "preset": self.preset, "associated": list(self.associated)}
        if self.window is not None:
            out["window"] = {**self.window.to_dict(), "applied": self.applied_window is not None}
        if self.asked is not None:
            out["asked_slot"] = self.asked.to_dict()
        if self.crosslingual is not None:
            out["crosslingual"] = dict(self.crosslingual)
        if self.stages:
            out["stages"] = dict(self.stages)
        if self.within is not None:
            out["within"] = self.within
        return out


def plan_query(query: str, kinds: tuple[str, ...] = (), now: datetime | None = None,
               keywords: list[str] | None = None, given: TimeWindow | None = None) -> QueryPlan:
    """``keywords``: tokens a caller adds to the query's own; ``given``: the window a caller
    names apart from the query (``time_context``, recall/hints.py), in place of the query's."""
    match = _URI.search(query)
    uri_prefix = match.group(0) if match else None
    asked = parse_window(query, now, ranges=True) if now is not None else None
    window = given or asked
    tokens = tokenize(query)
    tokens += [t for t in keywords or () if t not in tokens]
    ahead = given is None and asked is not None and now is not None and asked.start > now
    routing = route(query, None if ahead else window)
    plan = QueryPlan(query=query, tokens=tokens, uri_prefix=uri_prefix, kinds=kinds,
                     window=window, routing=routing,
                     asked=asked_slot(query, earlier=routing.mode == "past"),
                     time_words=asked.expr if asked is not None else "")
    if given is not None:
        plan.routing = Routing("window", f"time_context names a time ({given.label()}): "
                               "memories inside it first, the best matches outside it after")
        plan.notes.append(describe(given, asked))
    elif window is not None and window.loose:
        plan.notes.append(f"{window.expr!r} names no year: read as {window.label()}, "
                          "not applied as a filter")
    elif ahead and window is not None:  # what is said is said before it; what holds, holds then
        plan.notes.append(f"{window.expr!r} is ahead of now: read as {window.label()}, "
                          "not applied as a filter")
    if keywords:
        plan.notes.append(f"keywords: {', '.join(keywords)}")
    return plan


def choose_preset(plan: QueryPlan, name: str | None, configured: str,
                  assoc_slots: int) -> Preset:
    """The preset named; else the configured one, unless that is "default": then the one the
    query's intent asks for (recall/intent.py). Association places: the configured ones, plus
    the preset's extra ones."""
    intent = classify(plan.query)
    plan.intent, plan.intent_reason = intent.name, intent.reason
    if name is None and configured == "default":
        name = PRESET_BY_INTENT[intent.name]
    chosen = get_preset(name or configured)
    plan.preset = chosen.name
    return replace(chosen, assoc_slots=assoc_slots + chosen.assoc_extra if assoc_slots else 0)


def place_relative(store: Store, scope: Scope, plan: QueryPlan) -> None:
    """A window read from the clock ("last year") is relative to the clock only where the
    scope lives on the clock. When its newest memory was written more than ``REPLAY_GAP``
    after it happened, the scope holds history written later (an imported or replayed
    conversation): its "last year" is not the clock's, so the window is not applied and
    the plan says why. Windows that name their year are always applied."""
    window = plan.applied_window
    if window is None or window.anchored:
        return
    flt = ListFilter(layers=(Layer.CORE, Layer.ARCHIVED), limit=1, newest_first=True)
    newest = next(store.list(scope, flt), None)
    if newest is None or newest.recorded_at - newest.at <= REPLAY_GAP:
        return
    plan.routing = route(plan.query, None)
    plan.notes.append(
        f"{window.expr!r} is read from the clock ({window.label()}), but this scope's newest "
        f"memory happened on {newest.at.date()} and was written on "
        f"{newest.recorded_at.date()}: history written later, so the window is not applied")

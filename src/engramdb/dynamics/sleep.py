"""The sleep cycle: maintenance phases over one scope, each callable alone, and their report.

Phases, in order: sync -> decay -> tidy -> lessons -> consolidate -> govern. Lessons turns the
oldest lessons into rules past five (dynamics/lessons.py). Consolidate merges near-duplicates
and turns clusters of settled episodes into gists (dynamics/consolidate.py). A whole sleep (no
phase named) is incremental after the first one: it visits only what changed since the last
sleep and what is due now (dynamics/incremental.py); ``full=True`` visits all. Each phase
commits on its own; a sleep killed between two of them is finished by the next one
(dynamics/resume.py).
Every change a phase makes is a saved version with actor "sleep" and its reason, so
``history(id)`` shows it; nothing is ever deleted, and forgotten memories are never touched
(every phase reads the core layer only)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..compare import DEFAULT, Comparers
from ..errors import Invalid
from ..model import Link, Scope
from ..store.protocol import Store
from . import incremental
from .consolidate import consolidate_pass
from .decay import decay_pass
from .lessons import lessons_pass
from .lifecycle import tidy_pass
from .passes import Embed, Pass, PhaseReport
from .resume import decayed_unconsolidated
from .rulebook import RuleBooks
from .strength import DecayParams

PHASES = ("sync", "decay", "tidy", "lessons", "consolidate", "govern")
NOT_BUILT: dict[str, str] = {}


@dataclass
class SleepReport:
    user: str
    agent: str
    at: datetime
    phases: list[PhaseReport] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    mode: str = "phase"   # "full", "incremental", or "phase" (one phase run alone, in full)
    visited: int = 0      # memories the run looked at (all core ones unless incremental)

    def phase(self, name: str) -> PhaseReport:
        for report in self.phases:
            if report.phase == name:
                return report
        raise KeyError(f"phase {name!r} did not run")

    @property
    def changes(self) -> int:
        return sum(sum(p.counts().values()) for p in self.phases)

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "agent": self.agent, "at": self.at.isoformat(),
                "phases": [p.to_dict() for p in self.phases], "skipped": dict(self.skipped),
                "mode": self.mode, "visited": self.visited}


def run_sleep(store: Store, scope: Scope, now: datetime, params: DecayParams,
              phase: str | None = None, *, embed: Embed | None = None, polisher: Any = None,
              full: bool = False,
              near_hints: dict[str, tuple[int, list[str]]] | None = None,
              compare: Comparers = DEFAULT, rule_books: RuleBooks | None = None
              ) -> SleepReport:
    """Run every phase (``phase=None``) or one of them, and report what changed.
    ``near_hints``: what the write guard found near each memory (merge.py ``NearHints``);
    ``rule_books``: the rules review's facts kept between sleeps (rulebook.py)."""
    names = PHASES if phase is None else (check_phase(phase),)
    only, seq, since = (incremental.plan(store, scope, params, now, full) if phase is None
                        else (None, 0, None))
    run = Pass(store, scope, now, params, only=only, embed=embed, polisher=polisher,
               near_hints=near_hints or {}, since=since, compare=compare,
               rule_books=rule_books)
    report = SleepReport(scope.user, scope.agent, now,
                         skipped=dict(NOT_BUILT) if phase is None else {},
                         mode="phase" if phase else "incremental" if only is not None
                         else "full")
    report.visited = len(run.core())
    if "consolidate" in names:  # what a sleep killed after its decay left (resume.py)
        run.decayed.update(decayed_unconsolidated(store, scope, {r.id for r in run.core()}))
    for name in names:
        started = time.perf_counter()
        result = _RUNNERS[name](run)
        result.seconds = time.perf_counter() - started
        report.phases.append(result)
    if phase is None:
        _finish(run, report, seq)
    return report


def _finish(run: Pass, report: SleepReport, seq: int) -> None:
    """Write the due times of what this sleep visited or changed, and the scope's state. The
    sleep's own changes are not revisited next time; a write made by someone else while it ran
    is (the saved event seq then stays where this sleep started)."""
    store, scope = run.store, run.scope
    own = {i for p in report.phases for ids in p.changed.values() for i in ids}
    newest, during = store.changed_since(scope, seq)
    next_seq = newest if set(during) <= own else seq
    if run.only is None:  # a full sleep holds every core memory as it is now
        records = run.core()
        core = {r.id for r in records}
        cleared = [i for i in own if i not in core]
    else:
        records = list(store.get_many(scope, sorted(run.only | set(during))).values())
        cleared = []
    incremental.finish(store, scope, run.params, run.now, records, next_seq, cleared)


def check_phase(name: object) -> str:
    if isinstance(name, str) and name in PHASES:
        return name
    if isinstance(name, str) and name in NOT_BUILT:
        raise Invalid(f"sleep phase {name!r} is {NOT_BUILT[name]}; phases: {', '.join(PHASES)}")
    raise Invalid(f"unknown sleep phase {name!r} (one of {', '.join(PHASES)})")


def sync(run: Pass) -> PhaseReport:
    return PhaseReport("sync", note="nothing to flush: a tracked recall writes its uses at once")


EDGE_FLOOR = 0.05      # an association edge weaker than this is pruned
EDGES_PER_MEMORY = 20  # the strongest association edges each memory keeps


def govern(run: Pass) -> PhaseReport:
    """Prune the graph: links to memories that are gone (dropped, or erased by a hard forget),
    association edges weaker than EDGE_FLOOR, and a memory's association edges beyond its
    EDGES_PER_MEMORY strongest. Users' own links are kept unless an end is gone. The report
    names the memories whose links were pruned. An incremental sleep reads only the links that
    can have changed since the last sleep (``_links_to_govern``)."""
    report = PhaseReport("govern")
    links = _links_to_govern(run)
    report.examined = len(links)
    ends = {i for link in links for i in (link.source, link.target)}
    alive = {mid for mid, r in run.store.get_many(run.scope, sorted(ends)).items()
             if not r.erased}
    drop: dict[tuple[str, str, str], tuple[Link, str]] = {}
    for link in links:
        if link.source not in alive or link.target not in alive:
            drop[_key(link)] = (link, "pruned_dangling")
        elif link.relation == "associated" and link.weight < EDGE_FLOOR:
            drop[_key(link)] = (link, "pruned_weak")
    kept: dict[str, list[Link]] = {}
    for link in links:
        if link.relation == "associated" and _key(link) not in drop:
            kept.setdefault(link.source, []).append(link)
    for edges in kept.values():
        edges.sort(key=lambda e: (-e.weight, e.target))
        for link in edges[EDGES_PER_MEMORY:]:
            drop[_key(link)] = (link, "pruned_excess")
    if drop:
        with run.store.transaction():
            run.store.delete_links(run.scope, [link for link, _ in drop.values()])
        for link, action in drop.values():
            report.add(action, link.source)
    if not links:
        report.note = "no links to prune"
    return report


def _links_to_govern(run: Pass) -> list[Link]:
    """Every link of the scope for a full sleep. For an incremental one: the links of the
    memories it visits (an erased end is a change), those set or strengthened since the last
    sleep, the association edges under EDGE_FLOOR, and every association edge of a memory one
    of those starts from (to rank them). A link none of these reaches is as the last sleep left
    it, and that sleep pruned it already, so both kinds of sleep end alike."""
    store, scope = run.store, run.scope
    if run.only is None or run.since is None:
        return store.list_links(scope)
    found = {_key(x): x for x in store.links(scope, sorted(run.only))}
    for link in [*store.list_links(scope, since=run.since),
                 *store.list_links(scope, relation="associated", below=EDGE_FLOOR)]:
        found.setdefault(_key(link), link)
    sources = sorted({x.source for x in found.values() if x.relation == "associated"})
    for link in store.links(scope, sources, ("associated",)):
        found.setdefault(_key(link), link)
    return sorted(found.values(), key=lambda x: (x.weight, x.source, x.target, x.relation))


def _key(link: Link) -> tuple[str, str, str]:
    return (link.source, link.target, link.relation)


_RUNNERS: dict[str, Callable[[Pass], PhaseReport]] = {
    "sync": sync, "decay": decay_pass, "tidy": tidy_pass, "lessons": lessons_pass,
    "consolidate": consolidate_pass,
    "govern": govern,
}

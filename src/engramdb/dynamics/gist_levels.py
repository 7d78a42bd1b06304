"""Consolidation, part three: gists of gists. When gists themselves cluster, sleep makes a
higher gist whose sources are those gists.

- Who takes part: current core gists of one level (``metadata["gist_level"]``; an episode
  gist is level 1) not yet folded into a higher gist (no ``metadata["higher_gist"]``).
- Related: the same rule as episodes (dynamics/gist.py ``themes``): a person or a topic anchor
  the gists share. Themes are taken largest first; a gist joins one theme at most.
- One period: the gists of a theme are split by the time-span rule of their level
  (dynamics/periods.py: the episode rule's gap and span times 6 per level up, on each gist's
  span); a theme has one higher gist per period.
- A period with no higher gist yields one when at least ``MIN_CLUSTER`` (3) gists of the level
  fall in it; a higher gist takes any new gist of its theme and period into it (a new version,
  op "reinforce"), as episode gists do.
- The higher gist is level n + 1, its theme key ``"level{n+1}:{theme}"`` (never the key of an
  episode theme, so episodes never reinforce it), extractive like the episode gists (the best
  sentence of each source gist, at most three, each mapped to its source gist in
  ``metadata["sentences"]``), ``derived_from`` = the source gists, a ``gist_of`` link from
  each source gist to it.
- The source gists stay in core (they are sources, not deleted or archived): they get a new
  version with ``metadata["higher_gist"]`` = the higher gist's id, so a later sleep never
  clusters them again and never clusters the higher gist with its own sources (it is one
  level up, and only gists of one level cluster together).
- Depth is capped: a gist of level ``MAX_LEVEL`` (3) is never a source, so no gist goes above
  level 3.

- A source gist that changed in this sleep (an episode gist reinforced by new episodes, a
  higher gist reinforced or refreshed) refreshes the higher gist it is folded into: its text,
  sentences, support, span and anchors are rebuilt from its sources as they are now, a new
  version (op "refresh", the changed sources in the reason), so ``history`` shows the old text
  and ``rollback`` brings it back. The refresh climbs: a refreshed level-2 gist refreshes its
  level-3 gist.

An incremental sleep skips the pass when no gist was made, reinforced or changed since the
last sleep (nothing can cluster anew). Running it again at once changes nothing: every
clustered gist is folded, and what is left has no theme that reaches ``MIN_CLUSTER`` or has a
higher gist."""

from __future__ import annotations

from ..ids import new_id
from ..model import Kind, Layer, Link, Record
from ..store.protocol import ListFilter
from ..text.checks import content_hash
from ..write.prepare import LIFECYCLE_BY_PRIORITY, derive_priority, embed_text, index_text
from .gist import (
    MIN_CLUSTER,
    _polished,
    _top,
    anchor_counts,
    join_sentences,
    pick_sentences,
    shared_anchors,
    theme_groups,
)
from .passes import Pass, PhaseReport
from .periods import assign, window

MAX_LEVEL = 3


def level(rec: Record) -> int:
    value = rec.metadata.get("gist_level", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def higher_gist_pass(run: Pass, report: PhaseReport) -> None:
    """Fold clustering gists into higher ones, level by level up to ``MAX_LEVEL``."""
    if run.embed is None or not _worth_a_look(run, report):
        return
    for lower in range(1, MAX_LEVEL):
        gists = _current_gists(run)  # read again: the level below may have made some
        free = {r.id: r for r in gists if level(r) == lower and r.layer == Layer.CORE
                and "higher_gist" not in r.metadata}
        _refresh_above(run, lower, gists, report)
        if not free:
            continue
        higher: dict[object, list[Record]] = {}
        for r in sorted(gists, key=lambda g: (g.recorded_at, g.id), reverse=True):
            if level(r) == lower + 1:
                higher.setdefault(r.metadata.get("theme"), []).append(r)
        rule = window(run.params, lower + 1)
        taken: set[str] = set()
        for key, label, members in theme_groups(free.values(), taken):
            for old, group in assign(rule, members, higher.get(theme_key(lower + 1, key), [])):
                if old is None and len(group) < MIN_CLUSTER:
                    continue
                taken.update(_fold(run, lower + 1, key, label, group, old, report))


CHANGED = ("gist_reinforced", "higher_gist_reinforced", "higher_gist_refreshed")
_FIELDS = ("content", "content_hash", "importance", "metadata", "people", "places", "topics",
           "derived_from", "at", "layer")


def _refresh_above(run: Pass, lower: int, gists: list[Record], report: PhaseReport) -> None:
    """Rebuild each higher gist one of whose level-``lower`` sources changed in this sleep."""
    changed = {i for name in CHANGED for i in report.ids(name)}
    by_id = {r.id: r for r in gists}
    stale: dict[str, list[str]] = {}
    for gid in sorted(changed):
        rec = by_id.get(gid)
        up = rec.metadata.get("higher_gist") if rec is not None and level(rec) == lower else None
        if isinstance(up, str) and up in by_id and gid in by_id[up].derived_from:
            stale.setdefault(up, []).append(gid)
    for up, sources in stale.items():
        _refresh(run, by_id[up], sources, report)


def _refresh(run: Pass, old: Record, changed: list[str], report: PhaseReport) -> None:
    assert run.embed is not None
    key, label = str(old.metadata.get("theme", "")), str(old.metadata.get("theme_label", ""))
    with run.store.transaction():
        old = run.store.get_many(run.scope, [old.id]).get(old.id) or old
        found = run.store.get_many(run.scope, old.derived_from)
        sources = [found[i] for i in old.derived_from if i in found and found[i].current]
        if not sources or not old.current:
            return
        gist = _record(run, level(old), key.split(":", 1)[-1], label, sources, [], old)
        gist = _polished(run, gist, report)
        if gist.content == old.content and gist.metadata == old.metadata:
            return
        vector = run.embed([embed_text(gist)])[0]
        run.save(old, "refresh", f"level-{level(old)} gist refreshed: its source gist(s) "
                 f"{', '.join(changed)} changed; {label}", {f: getattr(gist, f) for f in _FIELDS},
                 index_text(gist), vector)
        report.add("higher_gist_refreshed", old.id)


def _worth_a_look(run: Pass, report: PhaseReport) -> bool:
    """A full run always looks. An incremental one only when a gist was made or reinforced
    this sleep, or a gist changed since the last one: else the last sleep left every gist
    as it is, already folded or not clustering."""
    if run.only is None or report.ids("gist_created") or report.ids("gist_reinforced"):
        return True
    return any(r.kind == Kind.GIST for r in run.core())


def theme_key(at_level: int, key: str) -> str:
    return f"level{at_level}:{key}"


def _current_gists(run: Pass) -> list[Record]:
    """The scope's current gists (core and archived)."""
    flt = ListFilter(kinds=(Kind.GIST.value,), layers=(Layer.CORE, Layer.ARCHIVED))
    return [r for r in run.store.list(run.scope, flt) if r.current]


def _fold(run: Pass, at_level: int, key: str, label: str, members: list[Record],
          old: Record | None, report: PhaseReport) -> list[str]:
    """Make or reinforce the level-``at_level`` gist of ``members``; returns the ids folded."""
    assert run.embed is not None
    with run.store.transaction():
        fresh = run.store.get_many(run.scope, [m.id for m in members])
        members = [fresh[m.id] for m in members if m.id in fresh
                   and "higher_gist" not in fresh[m.id].metadata and fresh[m.id].current]
        if not members or (old is None and len(members) < MIN_CLUSTER):
            return []
        earlier = list(run.store.get_many(run.scope, old.derived_from).values()) if old else []
        gist = _polished(run, _record(run, at_level, key, label, earlier, members, old), report)
        vector = run.embed([embed_text(gist)])[0]
        why = f"{label}: {len(gist.derived_from)} level-{at_level - 1} gists"
        if old is None:
            run.store.insert(gist, index_text(gist), vector, actor="sleep",
                             reason=f"level-{at_level} gist of {why}")
            run._track(gist)
            report.add("higher_gist_created", gist.id)
        else:
            run.save(old, "reinforce", f"level-{at_level} gist reinforced; {why}",
                     {f: getattr(gist, f) for f in _FIELDS}, index_text(gist), vector)
            report.add("higher_gist_reinforced", old.id)
        gist_id = gist.id if old is None else old.id
        for rec in members:
            run.save(rec, "fold", f"folded into level-{at_level} gist {gist_id} ({label})",
                     {"metadata": {**rec.metadata, "higher_gist": gist_id}})
            run.store.put_link(Link(rec.id, gist_id, "gist_of", 1.0, run.now, run.now,
                                    run.scope.user, run.scope.agent))
            report.add("gist_folded", rec.id)
    return [m.id for m in members]


def _record(run: Pass, at_level: int, key: str, label: str, earlier: list[Record],
            members: list[Record], old: Record | None) -> Record:
    """The higher gist over ``earlier`` (its sources so far) and ``members`` (new ones)."""
    sources = sorted({r.id: r for r in [*earlier, *members]}.values(),
                     key=lambda r: (r.at, r.id))
    counts = anchor_counts({})
    for rec in sources:  # each source gist counts once per anchor it names
        for attr, counter in counts.items():
            counter.update(dict.fromkeys(getattr(rec, attr), 1))
    picked = pick_sentences(sources, shared_anchors(counts))
    content = join_sentences([text for text, _ in picked])
    derived = [*(old.derived_from if old else []), *(m.id for m in members)]
    spans = [s.metadata.get("span") for s in sources]
    starts = [s[0] for s in spans if isinstance(s, list) and s] or [sources[0].at.isoformat()]
    last = max(r.at for r in sources)
    importance = max(r.importance for r in sources)
    meta = {"theme": theme_key(at_level, key), "theme_label": label, "gist_level": at_level,
            "support": sum(_support(r) for r in sources), "gist_sources": len(derived),
            "sentences": [{"text": t, "source": s} for t, s in picked],
            "span": [min(starts), last.isoformat()],
            "anchor_counts": {a: dict(sorted(c.items())) for a, c in counts.items()}}
    if old is not None and "higher_gist" in old.metadata:
        meta["higher_gist"] = old.metadata["higher_gist"]
    anchors = {attr: _top(counter) for attr, counter in counts.items()}
    priority = derive_priority(Kind.GIST, None)
    base = old or Record(
        id=new_id(run.now), user=run.scope.user, agent=run.scope.agent, content=content,
        kind=Kind.GIST, uri=None, priority=priority, lifecycle=LIFECYCLE_BY_PRIORITY[priority],
        importance=importance, at=last, recorded_at=run.now, updated_at=run.now)
    return base.replace(content=content, content_hash=content_hash(content),
                        importance=importance, metadata=meta, derived_from=derived, at=last,
                        layer=Layer.CORE, **anchors)


def _support(rec: Record) -> int:
    value = rec.metadata.get("support", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else 1

"""Consolidation, part two: clusters of related episodes become one gist.

- Who takes part: core events (no URI, not P0) that have *settled*: their weight is at most
  ``SETTLED`` (0.5), i.e. unused for at least their half-life (14 days for a P3 event; a use
  makes them younger); and the events this same sleep's decay phase just archived (after a long
  gap without sleep they would otherwise never be consolidated). A conversation just written
  is never consolidated away, so a recall right after ingesting sees every episode.
- Related: the same theme, a person or a topic anchor (normalised). Themes are taken largest
  first; an episode joins one theme at most.
- One period: a theme's episodes are split by the time-span rule (dynamics/periods.py: each
  within ``Config.gist_max_gap_days`` of the one before, all within
  ``Config.gist_max_span_days``); a theme has one gist per period.
- A period with no gist yields one when it has at least ``MIN_CLUSTER`` (3) settled episodes;
  two make nothing. A gist reinforces itself with any new settled episode of its theme that
  falls in its period: its sources, support count, importance, content, text index and vector
  are refreshed as a new version (op "reinforce"). Reinforcing counts as a use of the gist (an
  archived one comes back to core, strong enough to stay).
- The gist (kind gist, priority P2, the slow decay of its kind) is extractive: at most
  ``MAX_SENTENCES`` sentences, each copied from one source, the best per source (the one naming
  most of the cluster's shared anchors), in the sources' time order. ``metadata["sentences"]``
  maps each sentence to its source; ``derived_from`` lists every source.
- The sources are archived (never deleted), with ``metadata["gist"]`` = the gist's id and the
  reason in their history; their anchors stay, so a strong cue still wakes them.
- An optional polisher (dynamics/polish.py) may reword the gist; its wording is kept only when
  no fact was added or dropped, else the extractive gist stays and the reason is recorded.

Running it again at once changes nothing: the sources left core, and a theme with nothing new
is not touched."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from ..ids import new_id
from ..model import Kind, Layer, Link, Priority, Record
from ..store.protocol import ListFilter
from ..text import is_cjk, normalize, tokenize
from ..text.checks import content_hash
from ..write.prepare import LIFECYCLE_BY_PRIORITY, derive_priority, embed_text, index_text
from .passes import Pass, PhaseReport
from .periods import assign, moments, window
from .strength import KEPT_USES, weight

SETTLED = 0.5
MIN_CLUSTER = 3
MAX_SENTENCES = 3
MAX_ANCHORS = 10      # per anchor kind, on the gist
PARTNERS = 200        # settled episodes an incremental run reads per theme
THEME_KINDS = (("person", "people"), ("topic", "topics"))
ANCHOR_ATTRS = ("people", "places", "topics")    # the anchors a gist counts over its sources
POLISH_KEYS = ("polish", "polished_from")        # metadata of a polished wording
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_END = ".!?。！？"


def settled(rec: Record, run: Pass) -> bool:
    """A core episode weighing at most SETTLED, or one this run's decay just archived."""
    live = rec.layer == Layer.CORE or (rec.id in run.decayed and rec.layer == Layer.ARCHIVED)
    return (rec.kind == Kind.EVENT and rec.uri is None and live and rec.current
            and rec.priority != Priority.P0 and "gist" not in rec.metadata
            and weight(rec, run.now, run.params) <= SETTLED)


def themes(rec: Record) -> list[tuple[str, str]]:
    """(key, label) of every theme the memory belongs to."""
    return [(f"{kind}:{normalize(a)}", f"{kind} {a}")
            for kind, attr in THEME_KINDS for a in getattr(rec, attr) if normalize(a)]


def theme_groups(records: Iterable[Record],
                 taken: set[str]) -> Iterator[tuple[str, str, list[Record]]]:
    """(theme key, label, members oldest first) for each theme the records share, the largest
    theme first; a record in ``taken`` (which the caller fills as it goes) joins no later
    theme."""
    by_theme: dict[str, dict[str, Record]] = defaultdict(dict)
    labels: dict[str, str] = {}
    for rec in records:
        for key, label in themes(rec):
            by_theme[key][rec.id] = rec
            labels.setdefault(key, label)
    for key in sorted(by_theme, key=lambda k: (-len(by_theme[k]), k)):
        members = sorted((r for r in by_theme[key].values() if r.id not in taken),
                         key=lambda r: (r.at, r.id))
        if members:
            yield key, labels[key], members


def gist_pass(run: Pass, report: PhaseReport) -> None:
    looked = [*run.core(), *run.decayed.values()]
    episodes = {r.id: r for r in looked if settled(r, run)}
    if not episodes:
        return
    gists = _gists(run)
    rule = window(run.params)
    if run.only is not None:
        episodes.update(_partners(run, list(episodes.values())))
    taken: set[str] = set()
    for key, label, members in theme_groups(episodes.values(), taken):
        for old, group in assign(rule, members, gists.get(key, [])):
            if old is None and len(group) < MIN_CLUSTER:
                continue
            taken.update(_consolidate(run, key, label, group, old, report))


def _partners(run: Pass, episodes: list[Record]) -> dict[str, Record]:
    """The settled core episodes sharing a theme with ``episodes`` (an incremental run): all
    of them, also for a theme with gists, since a period one of them starts or widens may
    take some (as a full run, which sees them all, would)."""
    out: dict[str, Record] = {}
    seen: set[str] = set()
    for rec in episodes:
        for (key, _), anchor in zip(themes(rec), _anchors(rec), strict=True):
            if key in seen:
                continue
            seen.add(key)
            words = tokenize(anchor, keep_stopwords=True)
            found = run.store.search_text(run.scope, words, {"anchors": 1.0}, PARTNERS,
                                          (Layer.CORE,)) if words else []
            for other in run.store.get_many(run.scope, [m for m, _ in found]).values():
                if key in {k for k, _ in themes(other)} and settled(other, run):
                    out[other.id] = other
    return out


def _anchors(rec: Record) -> list[str]:
    return [a for _, attr in THEME_KINDS for a in getattr(rec, attr) if normalize(a)]


def _gists(run: Pass) -> dict[str, list[Record]]:
    """The scope's current gists by theme (core and archived), one per period, the newest
    first."""
    flt = ListFilter(kinds=(Kind.GIST.value,), layers=(Layer.CORE, Layer.ARCHIVED))
    out: dict[str, list[Record]] = defaultdict(list)
    for rec in run.store.list(run.scope, flt):
        key = rec.metadata.get("theme")
        if isinstance(key, str) and rec.current:
            out[key].append(rec)
    for recs in out.values():
        recs.sort(key=lambda r: (r.recorded_at, r.id), reverse=True)
    return out


def _consolidate(run: Pass, key: str, label: str, members: list[Record], old: Record | None,
                 report: PhaseReport) -> list[str]:
    """Make or reinforce the theme's gist from ``members``; returns the ids consolidated."""
    if run.embed is None:
        report.note = "gists need an embedder: none was given"
        return []
    with run.store.transaction():
        fresh = run.store.get_many(run.scope, [m.id for m in members])
        members = [fresh[m.id] for m in members if m.id in fresh and settled(fresh[m.id], run)]
        if not members or (old is None and len(members) < MIN_CLUSTER):
            return []
        chosen = [] if old is None else [
            s["source"] for s in old.metadata.get("sentences", []) if isinstance(s, dict)]
        earlier = [r for r in run.store.get_many(run.scope, chosen).values() if r.content]
        gist = _gist_record(run, key, label, earlier, members, old)
        gist = _polished(run, gist, report)
        vector = run.embed([embed_text(gist)])[0]
        why = f"{label}: {gist.metadata['support']} episodes"
        if old is None:
            run.store.insert(gist, index_text(gist), vector, actor="sleep",
                             reason=f"gist of {why}")
            run._track(gist)
            report.add("gist_created", gist.id)
        else:
            run.save(old, "reinforce", f"gist reinforced by {len(members)} episode(s); {why}",
                     {f: getattr(gist, f) for f in _REFRESHED}, index_text(gist), vector)
            report.add("gist_reinforced", old.id)
        gist_id = gist.id if old is None else old.id  # a reinforced gist keeps its id
        for rec in members:
            run.save(rec, "consolidate", f"consolidated into gist {gist_id} ({label})",
                     {"layer": Layer.ARCHIVED, "metadata": {**rec.metadata, "gist": gist_id}})
            run.store.put_link(Link(rec.id, gist_id, "gist_of", 1.0, run.now, run.now,
                                    run.scope.user, run.scope.agent))
            report.add("consolidated", rec.id)
    return [m.id for m in members]


_REFRESHED = ("content", "content_hash", "importance", "metadata", "people", "places", "topics",
              "derived_from", "at", "layer", "use_count", "last_uses")


def _gist_record(run: Pass, key: str, label: str, earlier: list[Record],
                 members: list[Record], old: Record | None) -> Record:
    """The gist after adding ``members``. A reinforced gist keeps how many of its sources name
    each anchor (``metadata["anchor_counts"]``) and competes its chosen sentences
    (``earlier``) with the new members' ones: its older sources are not read again."""
    meta = dict(old.metadata) if old else {}
    counts = anchor_counts(meta)
    for rec in members:
        for attr, counter in counts.items():
            counter.update(dict.fromkeys(getattr(rec, attr), 1))
    shared = shared_anchors(counts)
    candidates = sorted({r.id: r for r in [*earlier, *members]}.values(),
                        key=lambda r: (r.at, r.id))
    picked = pick_sentences(candidates, shared)
    content = join_sentences([text for text, _ in picked])
    derived = [*(old.derived_from if old else []), *(m.id for m in members)]
    start = min([m.at for m in members] + ([moments(old)[0]] if old else [])).isoformat()
    last = max([m.at for m in members] + ([old.at] if old else []))
    importance = max([m.importance for m in members] + ([old.importance] if old else []))
    for name in POLISH_KEYS:
        meta.pop(name, None)
    meta.update({"theme": key, "theme_label": label, "support": len(derived),
                 "sentences": [{"text": t, "source": s} for t, s in picked],
                 "span": [start, last.isoformat()],
                 "anchor_counts": {a: dict(sorted(c.items())) for a, c in counts.items()}})
    anchors = {attr: _top(counter) for attr, counter in counts.items()}
    priority = derive_priority(Kind.GIST, None)
    base = old or Record(
        id=new_id(run.now), user=run.scope.user, agent=run.scope.agent, content=content,
        kind=Kind.GIST, uri=None, priority=priority, lifecycle=LIFECYCLE_BY_PRIORITY[priority],
        importance=importance, at=last, recorded_at=run.now, updated_at=run.now)
    uses = {} if old is None else {  # reinforcing is a use: a weak gist is strong again
        "use_count": old.use_count + 1, "last_uses": [*old.last_uses, run.now][-KEPT_USES:]}
    return base.replace(content=content, content_hash=content_hash(content),
                        importance=importance, metadata=meta, derived_from=derived, at=last,
                        layer=Layer.CORE, **anchors, **uses)


def anchor_counts(meta: dict[str, Any]) -> dict[str, Counter[str]]:
    """How many of a gist's sources name each person, place and topic (its metadata's)."""
    return {attr: Counter(meta.get("anchor_counts", {}).get(attr, {})) for attr in ANCHOR_ATTRS}


def shared_anchors(counts: dict[str, Counter[str]]) -> list[str]:
    """The anchors two sources or more name, normalised: what a sentence scores by."""
    return [normalize(a) for counter in counts.values() for a, n in counter.items() if n >= 2]


def _top(counter: Counter[str]) -> list[str]:
    return [a for a, _ in sorted(counter.items(), key=lambda x: (-x[1], x[0]))][:MAX_ANCHORS]


def pick_sentences(sources: list[Record], shared: list[str]) -> list[tuple[str, str]]:
    """(sentence, source id): the best sentence of each source, the best MAX_SENTENCES
    sources, in time order. A sentence scores by the ``shared`` anchors it names."""
    best = []
    for order, src in enumerate(sources):
        sentences = [m.group().strip() for m in _SENTENCE.finditer(src.content)]
        sentences = [s for s in sentences if s.strip(_END + " ")] or [src.content.strip()]
        scored = [(sum(a in normalize(s) for a in shared), -i, s)
                  for i, s in enumerate(sentences)]
        score, _, text = max(scored)
        best.append((score, src.importance, order, text, src.id))
    chosen = sorted(best, key=lambda b: (-b[0], -b[1], -b[2]))[:MAX_SENTENCES]
    return [(text, sid) for *_, text, sid in sorted(chosen, key=lambda b: b[2])]


def join_sentences(sentences: list[str]) -> str:
    out = ""
    for s in sentences:
        s = s if s[-1] in _END else s + ("。" if is_cjk(s[-1]) else ".")
        out += s if not out or is_cjk(out[-1]) and is_cjk(s[0]) else " " + s
    return out


def _polished(run: Pass, gist: Record, report: PhaseReport) -> Record:
    if run.polisher is None:
        return gist
    from .polish import check_polish

    wording, problem = run.polisher.polish(gist.content)
    problem = problem or check_polish(gist.content, wording, gist)
    if problem:
        report.add("polish_refused", gist.id)
        return gist.replace(metadata={**gist.metadata, "polish": f"kept extractive: {problem}"})
    return gist.replace(content=wording, content_hash=content_hash(wording),
                        metadata={**gist.metadata, "polished_from": gist.content,
                                  "polish": "polished"})

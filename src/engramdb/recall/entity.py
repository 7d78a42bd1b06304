"""One person, place, project or topic and what the memory holds about it: the entity page.

The memories of an entity are gathered at read time, from two places the stores keep already:
the concept table (a memory's people, places, topics and keywords: ``person:wang lei``,
text/anchors.py) and the text index (a memory whose text names it without an anchor: "I moved
to Berlin" written with no places). A text hit counts only when its content, context or
anchors name the entity as whole words (text/aliases.py ``names_in``), never on a shared stem.

Aliases: the ways the members write the name ("Wang Lei", "wang lei"), the other names a member
declares ("Wang Lei, also known as Lei-Lei"; "王磊又名磊哥"), and a name that is part of exactly
one longer name among the members' anchors ("Lei" of "Wang Lei"; with "Wang Lei" and "Zhang
Lei" both there, "Lei" stays apart). Each alias's memories join the page (one hop: an alias of
an alias does not).

The page: its kinds (person, place, topic: the concept kinds that name it), aliases, first and
last seen (the ``at`` of its oldest and newest memory), the current facts about it (memories
that hold now, not episodes) and the subject-predicate-object triples read from them
(write/triples.py), its recent episodes, and its supersession history: each chain of values
(Lisbon -> Berlin -> Oslo) that one of its memories is in, oldest first. Forgotten
memories are left out; archived ones count and are marked in ``brief``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import Invalid, NotFound
from ..model import Kind, Layer, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text.aliases import declared, fold, names_in, part_of
from ..text.anchors import concepts_of
from ..text.checks import storable
from ..text.tokenize import tokenize
from ..write.slots import SLOT_KINDS
from .lineage import brief
from .triples import Fact, triples

MAX_MEMBERS = 500     # memories read for one page (concept members and text hits together)
MAX_ALIASES = 12
MAX_EPISODES = 50
EPISODIC = frozenset({Kind.EVENT, Kind.EMOTION, Kind.GIST})
CONCEPT_KINDS = ("person", "place", "topic")
_LAYERS = (Layer.CORE, Layer.ARCHIVED)


@dataclass
class Entity:
    name: str                       # as its memories most often write it
    kinds: list[str]                # person / place / topic; empty when only text names it
    aliases: list[str]
    first_seen: datetime
    last_seen: datetime
    memories: int                   # how many memories name it (superseded ones included)
    facts: list[Record] = field(default_factory=list)       # current, oldest first
    episodes: list[Record] = field(default_factory=list)    # newest first
    history: list[list[Record]] = field(default_factory=list)  # chains, oldest value first
    triples: list[Fact] = field(default_factory=list)  # of the current facts, newest first

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kinds": self.kinds, "aliases": self.aliases,
                "first_seen": self.first_seen.isoformat(),
                "last_seen": self.last_seen.isoformat(), "memories": self.memories,
                "facts": [brief(r) for r in self.facts],
                "episodes": [brief(r) for r in self.episodes],
                "history": [[brief(r) for r in chain] for chain in self.history],
                "triples": [t.to_dict() for t in self.triples]}


def check_name(name: object) -> str:
    if not isinstance(name, str) or not storable(name) or not fold(name) or len(name) > 200:
        raise Invalid("name must be non-empty text of at most 200 characters")
    return name.strip()


def entity(store: Store, scope: Scope, name: str) -> Entity:
    key = fold(check_name(name))
    members, seen = _gather(store, scope, key)
    if not members:
        raise NotFound(f"no memory names {name.strip()!r}")
    aliases = _aliases(members.values(), seen, key)
    known = {key, *(fold(a) for a in aliases)}
    for alias in aliases:
        for mid, rec in _gather(store, scope, fold(alias))[0].items():
            if not _other_holder(rec, fold(alias), known):
                members.setdefault(mid, rec)
        if len(members) >= MAX_MEMBERS:
            break
    return _page(store, scope, name.strip(), key, aliases, list(members.values()))


def _gather(store: Store, scope: Scope,
            key: str) -> tuple[dict[str, Record], list[Record]]:
    """The memories that name ``key`` (its concepts' members, then text hits that name it), and
    every record the lookups read (their anchors tell a part of a name from another's)."""
    ids: list[str] = []
    for kind in CONCEPT_KINDS:
        ids += store.concept_members(scope, f"{kind}:{key}", MAX_MEMBERS)
    words = tokenize(key, keep_stopwords=True)
    if words:
        fields = {"body": 1.0, "anchors": 1.0, "context": 0.5}
        ids += [mid for mid, _ in store.search_text(scope, words, fields, MAX_MEMBERS, _LAYERS)]
    found = store.get_many(scope, list(dict.fromkeys(ids))[:2 * MAX_MEMBERS])
    live = [rec for rec in found.values() if rec.layer != Layer.DELETED]
    return {rec.id: rec for rec in live if _names(rec, key)}, live


def _names(rec: Record, key: str) -> bool:
    if any(fold(anchor) == key for _, anchor in concepts_of(rec)):
        return True
    return any(names_in(fold(text), key) for text in (rec.content, rec.context or ""))


def _other_holder(rec: Record, alias: str, known: set[str]) -> bool:
    """Whether the record's anchors name someone else whose name holds the alias ("Lei" in a
    memory about "Zhang Lei" when the page is Wang Lei's)."""
    return any(part_of(alias, a) and a not in known
               for a in (fold(anchor) for _, anchor in concepts_of(rec)))


def _aliases(members: Iterable[Record], seen: list[Record], key: str) -> list[str]:
    """Declared names, then the one longer name holding ``key`` among the anchors of what the
    lookups read, and the parts of ``key`` that no other name there holds."""
    out: dict[str, str] = {}
    for rec in members:
        for alias in declared(rec.content, key):
            out.setdefault(fold(alias), alias)
    anchors: dict[str, str] = {}
    for rec in seen:
        for _, anchor in concepts_of(rec):
            anchors.setdefault(fold(anchor), anchor)
    longer = [a for a in anchors if part_of(key, a)]
    if len(longer) == 1:
        out.setdefault(longer[0], anchors[longer[0]])
    for short, written in anchors.items():
        holders = [a for a in anchors if part_of(short, a)]
        if part_of(short, key) and all(a == key or part_of(a, key) for a in holders):
            out.setdefault(short, written)
    out.pop(key, None)
    return list(out.values())[:MAX_ALIASES]


def _page(store: Store, scope: Scope, name: str, key: str, aliases: list[str],
          members: list[Record]) -> Entity:
    members.sort(key=lambda r: (r.at, r.recorded_at, r.id))
    written = [anchor for rec in members for _, anchor in concepts_of(rec) if fold(anchor) == key]
    spelled = max(dict.fromkeys(written), key=written.count) if written else name
    variants = [w for w in dict.fromkeys(written) if w != spelled]
    kinds = sorted({concept.split(":", 1)[0] for rec in members
                    for concept, anchor in concepts_of(rec)
                    if fold(anchor) == key or fold(anchor) in {fold(a) for a in aliases}})
    current = [r for r in members if r.current]
    facts = [r for r in current if r.kind not in EPISODIC]
    return Entity(
        name=spelled, kinds=[k for k in CONCEPT_KINDS if k in kinds],
        aliases=list(dict.fromkeys([*variants, *aliases])),
        first_seen=members[0].at, last_seen=members[-1].at, memories=len(members),
        facts=facts, triples=triples(store, scope, records=facts, limit=MAX_MEMBERS),
        episodes=[r for r in reversed(current) if r.kind in EPISODIC][:MAX_EPISODES],
        history=_chains(store, scope, members))


def _chains(store: Store, scope: Scope, members: list[Record]) -> list[list[Record]]:
    """The supersession chains the members are in (two records or more), oldest first. The
    scope's superseded records of the slot kinds are read once, as
    write/chain.supersession_chain reads them for one record."""
    if not any(r.kind in SLOT_KINDS for r in members):
        return []
    flt = ListFilter(kinds=tuple(k.value for k in SLOT_KINDS), layers=tuple(Layer))
    nodes: dict[str, Record] = {r.id: r for r in members}
    edges: dict[str, set[str]] = {}
    for old in store.list(scope, flt):
        if old.superseded_by and old.layer != Layer.DELETED:
            nodes.setdefault(old.id, old)
            edges.setdefault(old.id, set()).add(old.superseded_by)
            edges.setdefault(old.superseded_by, set()).add(old.id)
    missing = [i for i in edges if i not in nodes]
    nodes.update(store.get_many(scope, missing))
    seen: set[str] = set()
    out: list[list[Record]] = []
    for rec in members:
        if rec.id in seen or rec.id not in edges:
            continue
        chain, todo = {rec.id}, [rec.id]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in chain and nxt in nodes:
                    chain.add(nxt)
                    todo.append(nxt)
        seen |= chain
        records = [nodes[i] for i in chain if nodes[i].layer != Layer.DELETED]
        if len(records) > 1:
            out.append(sorted(records, key=lambda r: (r.at, r.recorded_at, r.id)))
    return out

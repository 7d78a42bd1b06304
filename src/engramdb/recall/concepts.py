"""The graph that spreading activation runs over: memories, the concepts they name, and links.

Concept nodes are a memory's anchors: its people, places, topics and keywords (``person:wang``,
``topic:snow``...). A memory is attached to each of its concepts; a concept relays what reaches
it evenly to all its members, so a concept named by 60 memories passes each of them a sixtieth
(the fan effect: a rare concept spreads more than a common one).

Link edges (``Link``, migration 4) join memories directly, by their weight, in both directions.
Archived memories enter the graph only through links (association edges); concepts attach core
memories only. Deleted memories never enter.

The graph is bounded: at most ``max_nodes`` nodes (memories and concepts), added in a fixed
order (seeds first, by rank; their links and concepts; the links of what they reached), so the
same store and seeds give the same graph. A concept with more than ``MAX_FAN`` members is too
common to carry meaning (it would pass each member under 1/``MAX_FAN``) and is left out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model import Layer, Link, Record, Scope
from ..store.base import Store
from ..text import normalize, tokenize

MAX_FAN = 100          # a concept with more members than this is not spread through
MAX_NODES = 300
_ANCHORS = (("person", "people"), ("place", "places"), ("topic", "topics"),
            ("topic", "keywords"))
_CORE = (Layer.CORE,)
_REACHABLE = (Layer.CORE, Layer.ARCHIVED)


@dataclass
class Edge:
    target: str
    weight: float
    why: str           # "caused -> X", "person Wang (3 memories)"
    concept: bool = False   # through a concept (else a link)


@dataclass
class Graph:
    """Memory nodes (``records``) and the edges between them; a path through a concept is one
    edge whose weight carries the fan (1 / the concept's member count)."""

    records: dict[str, Record] = field(default_factory=dict)
    edges: dict[str, list[Edge]] = field(default_factory=dict)
    concepts: dict[str, int] = field(default_factory=dict)    # concept -> member count
    link_weight: dict[str, float] = field(default_factory=dict)  # out-weight via links
    concept_members: dict[str, list[str]] = field(default_factory=dict)
    too_common: set[str] = field(default_factory=set)   # concepts with over MAX_FAN members
    truncated: bool = False
    loaded: dict[str, Record] = field(default_factory=dict)  # every record read while building

    @property
    def size(self) -> int:
        return len(self.records) + len(self.concepts)

    def has_room(self, limit: int) -> bool:
        return self.size < limit


def concepts_of(record: Record) -> list[tuple[str, str]]:
    """The record's concepts: (node name, the anchor as written), in a fixed order."""
    out: dict[str, str] = {}
    for kind, attr in _ANCHORS:
        for anchor in getattr(record, attr):
            key = normalize(anchor)
            if key:
                out.setdefault(f"{kind}:{key}", anchor)
    return list(out.items())


def build(store: Store, scope: Scope, seeds: list[Record], *, relations: Iterable[str] = (),
          relation_boost: dict[str, float] | None = None, max_nodes: int = MAX_NODES) -> Graph:
    graph = Graph()
    for rec in seeds:
        if graph.has_room(max_nodes):
            graph.records.setdefault(rec.id, rec)
    graph.loaded.update(graph.records)
    boost = relation_boost or {}
    rels = tuple(relations)
    first = _add_links(store, scope, graph, list(graph.records), rels, boost, max_nodes)
    for rec in list(graph.records.values())[: len(seeds)]:
        _add_concepts(store, scope, graph, rec, max_nodes)
    _add_links(store, scope, graph, first, rels, boost, max_nodes)   # the second hop
    return graph


def _add_links(store: Store, scope: Scope, graph: Graph, ids: list[str], relations: tuple[str, ...],
               boost: dict[str, float], max_nodes: int) -> list[str]:
    """Follow the links of ``ids``; returns the memories reached that were new to the graph."""
    if not ids:
        return []
    links = store.links(scope, ids, relations)
    ends = sorted({link.other(i) for link in links for i in (link.source, link.target)
                   if i in ids} - set(graph.records))
    found = {m: r for m, r in store.get_many(scope, ends).items() if r.layer in _REACHABLE}
    added = []
    for mid in ends:
        if mid in found and graph.has_room(max_nodes):
            graph.records[mid] = found[mid]
            added.append(mid)
        elif mid in found:
            graph.truncated = True
    for link in links:
        _link_edge(graph, link, boost.get(link.relation, 1.0))
    return added


def _link_edge(graph: Graph, link: Link, boost: float) -> None:
    a, b = link.source, link.target
    if a not in graph.records or b not in graph.records or a == b:
        return
    weight = min(1.0, link.weight * boost)
    for src, dst, arrow in ((a, b, "->"), (b, a, "<-")):
        edges = graph.edges.setdefault(src, [])
        if any(e.target == dst and e.why.startswith(link.relation + " ") for e in edges):
            continue
        edges.append(Edge(dst, weight, f"{link.relation} {arrow} {dst}"))
        graph.link_weight[src] = graph.link_weight.get(src, 0.0) + weight


def _add_concepts(store: Store, scope: Scope, graph: Graph, rec: Record, max_nodes: int) -> None:
    for name, anchor in concepts_of(rec):
        if name in graph.concepts or name in graph.too_common or not graph.has_room(max_nodes):
            continue
        members = _anchor_members(store, scope, name, anchor, graph.loaded)
        if members is None:
            graph.too_common.add(name)
            continue
        _attach(graph, name, anchor, members, max_nodes)


def _anchor_members(store: Store, scope: Scope, name: str, anchor: str,
                    loaded: dict[str, Record]) -> dict[str, Record] | None:
    """The core memories carrying this anchor, or None when there are more than MAX_FAN.
    ``loaded``: the records this graph has read already (concepts share members)."""
    words = tokenize(anchor, keep_stopwords=True)
    if not words:
        return None
    found = [mid for mid, _ in store.search_text(scope, words, {"anchors": 1.0}, MAX_FAN + 1,
                                                 _CORE)]
    loaded.update(store.get_many(scope, [mid for mid in found if mid not in loaded]))
    records = {mid: loaded[mid] for mid in found if mid in loaded}
    members = {mid: r for mid, r in records.items() if name in dict(concepts_of(r))}
    # the text search matches any word of the anchor, the memories naming all of it first: so
    # when some of the best MAX_FAN + 1 matches are not members, no member lies beyond them
    return None if len(members) > MAX_FAN else members


def _attach(graph: Graph, name: str, label: str, members: dict[str, Record],
            max_nodes: int) -> None:
    """Add the concept and as many of its members as the node budget allows (in id order);
    the fan is the full member count, so what would reach a member left out is lost."""
    fan = len(members)
    if fan < 2:
        return
    graph.concepts[name] = fan
    kept = []
    for mid in sorted(members):
        if mid not in graph.records:
            if not graph.has_room(max_nodes):
                graph.truncated = True
                continue
            graph.records[mid] = members[mid]
        kept.append(mid)
    graph.concept_members[name] = kept
    kind = name.split(":", 1)[0]
    for src in kept:
        for dst in kept:
            if src != dst:
                graph.edges.setdefault(src, []).append(
                    Edge(dst, 1.0 / fan, f"{kind} {label!r} ({fan} memories)", True))

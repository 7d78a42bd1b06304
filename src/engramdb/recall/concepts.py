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
common to carry meaning (it would pass each member under 1/``MAX_FAN``) and is left out.

Cost: a concept's members are one indexed lookup (``Store.concept_members``: the stores keep
each memory's concept names), not a read of their records; concept edges are not listed pair by
pair but kept as member lists (a concept of 100 members would be 9,900 edges), and the
transition matrix (recall/associate.py) is built from those lists. Only the seeds and memories
reached by links are read in full; the caller reads the few associated memories it returns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model import Layer, Link, Record, Scope
from ..store.protocol import Store
from ..text.anchors import concepts_of
from .reading import read_many

MAX_FAN = 100          # a concept with more members than this is not spread through
MAX_NODES = 300
_REACHABLE = (Layer.CORE, Layer.ARCHIVED)


@dataclass
class Edge:
    """A link between two memories, one direction."""

    target: str
    weight: float
    why: str           # "caused -> X"


@dataclass
class Graph:
    """Memory nodes and what joins them: link edges (``edges``), and concepts, each joining
    all its members with the weight 1 / its member count (the fan)."""

    nodes: dict[str, None] = field(default_factory=dict)   # memory ids, in the order added
    records: dict[str, Record] = field(default_factory=dict)   # read in full: seeds, linked
    edges: dict[str, list[Edge]] = field(default_factory=dict)
    concepts: dict[str, int] = field(default_factory=dict)    # concept -> member count
    labels: dict[str, str] = field(default_factory=dict)      # concept -> anchor as written
    link_weight: dict[str, float] = field(default_factory=dict)  # out-weight via links
    concept_members: dict[str, list[str]] = field(default_factory=dict)
    too_common: set[str] = field(default_factory=set)   # concepts with over MAX_FAN members
    truncated: bool = False

    @property
    def size(self) -> int:
        return len(self.nodes) + len(self.concepts)

    def has_room(self, limit: int) -> bool:
        return self.size < limit

    def add(self, record: Record) -> None:
        self.nodes[record.id] = None
        self.records[record.id] = record

    def why(self, source: str, target: str) -> list[str]:
        """What joins ``source`` to ``target``: its links and the concepts both belong to."""
        out = [e.why for e in self.edges.get(source, []) if e.target == target]
        for name, members in self.concept_members.items():
            if source != target and source in members and target in members:
                kind = name.split(":", 1)[0]
                out.append(f"{kind} {self.labels[name]!r} ({self.concepts[name]} memories)")
        return out


def build(store: Store, scope: Scope, seeds: list[Record], *, relations: Iterable[str] = (),
          relation_boost: dict[str, float] | None = None, max_nodes: int = MAX_NODES) -> Graph:
    graph = Graph()
    for rec in seeds:
        if graph.has_room(max_nodes) and rec.id not in graph.nodes:
            graph.add(rec)
    boost = relation_boost or {}
    rels = tuple(relations)
    first = _add_links(store, scope, graph, list(graph.nodes), rels, boost, max_nodes)
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
                   if i in ids} - set(graph.nodes))
    added: list[str] = []
    done = 0
    while done < len(ends) and graph.has_room(max_nodes):   # read only what can still fit
        chunk = ends[done : done + max_nodes - graph.size]
        done += len(chunk)
        found = read_many(store, scope, chunk)
        for mid in chunk:
            if mid not in found or found[mid].layer not in _REACHABLE:
                continue
            if graph.has_room(max_nodes):
                graph.add(found[mid])
                added.append(mid)
            else:
                graph.truncated = True
    if done < len(ends):   # a gist's hundreds of sources, say: the graph is full
        graph.truncated = True
    for link in links:
        _link_edge(graph, link, boost.get(link.relation, 1.0))
    return added


def _link_edge(graph: Graph, link: Link, boost: float) -> None:
    a, b = link.source, link.target
    if a not in graph.nodes or b not in graph.nodes or a == b:
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
        members = _anchor_members(store, scope, name)
        if members is None:
            graph.too_common.add(name)
            continue
        _attach(graph, name, anchor, members, max_nodes)


def _anchor_members(store: Store, scope: Scope, name: str) -> list[str] | None:
    """The core memories holding this concept (in id order), or None when there are more
    than MAX_FAN."""
    members = store.concept_members(scope, name, MAX_FAN + 1)
    return None if len(members) > MAX_FAN else members


def _attach(graph: Graph, name: str, label: str, members: list[str], max_nodes: int) -> None:
    """Add the concept and as many of its members as the node budget allows (in id order);
    the fan is the full member count, so what would reach a member left out is lost."""
    fan = len(members)
    if fan < 2:
        return
    graph.concepts[name] = fan
    graph.labels[name] = label
    kept = []
    for mid in members:
        if mid not in graph.nodes:
            if not graph.has_room(max_nodes):
                graph.truncated = True
                continue
            graph.nodes[mid] = None
        kept.append(mid)
    graph.concept_members[name] = kept

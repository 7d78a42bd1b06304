"""Where a memory comes from and what it is tied to, as data for a picture: its supersession
chain (Lisbon -> Berlin -> Oslo), the gist it was folded into or, for a gist, its sources,
the conversation turns it was extracted from, and its neighbourhood in the link graph."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Invalid
from ..model import Kind, Link, Record, Scope
from ..store.protocol import Store
from ..write.chain import supersession_chain

MAX_NEIGHBOURS = 60


def brief(rec: Record) -> dict[str, Any]:
    """A memory in a few fields: enough to name it and say where it stands."""
    return {"id": rec.id, "kind": rec.kind.value, "content": rec.content, "uri": rec.uri,
            "at": rec.at.isoformat(), "layer": rec.layer.value,
            "invalid_at": rec.invalid_at.isoformat() if rec.invalid_at else None,
            "superseded_by": rec.superseded_by, "current": rec.current}


@dataclass
class Lineage:
    memory: Record
    chain: list[Record] = field(default_factory=list)
    gists: list[Record] = field(default_factory=list)          # the gists it was folded into
    gist_sources: list[Record] = field(default_factory=list)   # a gist's episodes
    turns: list[Record] = field(default_factory=list)          # the turns it was extracted from
    sentences: list[dict[str, Any]] = field(default_factory=list)  # a gist's sentence -> source
    # a gist's sources level by level down to the episodes: [gist_sources, their sources, ...]
    levels: list[list[Record]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"memory": brief(self.memory), "chain": [brief(r) for r in self.chain],
                "gists": [brief(r) for r in self.gists],
                "gist_sources": [brief(r) for r in self.gist_sources],
                "turns": [brief(r) for r in self.turns], "sentences": self.sentences,
                "levels": [[brief(r) for r in level] for level in self.levels]}


def lineage(store: Store, scope: Scope, rec: Record) -> Lineage:
    out = Lineage(rec, chain=supersession_chain(store, scope, rec))
    gist_ids = [rec.metadata["gist"]] if isinstance(rec.metadata.get("gist"), str) else []
    folded = store.links(scope, [rec.id], ("gist_of",))
    gist_ids += [x.target for x in folded if x.source == rec.id]
    out.gists = _records(store, scope, gist_ids)
    if rec.kind == Kind.GIST:
        out.gist_sources = _records(store, scope, rec.derived_from)
        out.levels = _levels(store, scope, out.gist_sources)
        sentences = rec.metadata.get("sentences")
        out.sentences = [s for s in sentences if isinstance(s, dict)] if isinstance(
            sentences, list) else []
    turns = rec.metadata.get("source_events")
    out.turns = _records(store, scope, turns if isinstance(turns, list) else [])
    return out


MAX_LEVELS = 4  # a gist of gists goes at most three levels down (dynamics/gist_levels.py)


def _levels(store: Store, scope: Scope, sources: list[Record]) -> list[list[Record]]:
    """``sources`` then the sources of the gists among them, level by level."""
    out = [sources] if sources else []
    while out and len(out) < MAX_LEVELS:
        below = [i for r in out[-1] if r.kind == Kind.GIST for i in r.derived_from]
        if not below:
            break
        out.append(_records(store, scope, below))
    return out


def _records(store: Store, scope: Scope, ids: list[Any]) -> list[Record]:
    """The records of ``ids`` that exist, in order, each once."""
    wanted = list(dict.fromkeys(i for i in ids if isinstance(i, str)))
    found = store.get_many(scope, wanted)
    return [found[i] for i in wanted if i in found]


@dataclass
class Neighbourhood:
    """A memory, its linked neighbours and the links between it and them."""

    centre: Record
    nodes: list[Record]
    links: list[Link]
    truncated: bool

    def to_dict(self) -> dict[str, Any]:
        return {"centre": brief(self.centre), "nodes": [brief(r) for r in self.nodes],
                "links": [x.to_dict() for x in self.links], "truncated": self.truncated}


def check_neighbours(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_NEIGHBOURS:
        raise Invalid(f"limit must be an integer from 1 to {MAX_NEIGHBOURS}, got {limit!r}")


def neighbourhood(store: Store, scope: Scope, rec: Record, limit: int = 24) -> Neighbourhood:
    """The memories linked to ``rec`` either way, strongest link first, at most ``limit``."""
    check_neighbours(limit)
    links = sorted(store.links(scope, [rec.id]), key=lambda x: (-x.weight, x.relation))
    order: list[str] = []
    for x in links:
        other = x.target if x.source == rec.id else x.source
        if other != rec.id and other not in order:
            order.append(other)
    kept = order[:limit]
    nodes = _records(store, scope, kept)
    shown = {rec.id, *(n.id for n in nodes)}
    return Neighbourhood(rec, nodes, [x for x in links if x.source in shown and x.target in shown],
                         len(order) > limit)

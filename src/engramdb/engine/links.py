"""Typed links between memories and walking them (recall/graph.py): link, unlink, links,
related, recall_path."""

from __future__ import annotations

from ..errors import Invalid, NotFound
from ..model import (
    MAX_K,
    Hit,
    Link,
)
from ..uri import validate_prefix, validate_uri
from .core import Core


class LinkVerbs(Core):
    """link, unlink, links, related, recall_path."""

    def link(self, a: str, b: str, relation: str = "related", weight: float = 0.5, *,
             user: str | None = None, agent: str | None = None) -> Link:
        """Link memory ``a`` to memory ``b`` (ids or URIs of one scope): "a caused b". Linking
        again sets the weight. Relations: graph.RELATIONS; weight from 0 to 1."""
        from ..recall.graph import check_linkable, check_relation, check_weight

        scope = self._scope(user, agent)
        relation, weight = check_relation(relation), check_weight(weight)
        with self.store.transaction():
            src, dst = self._get(scope, a), self._get(scope, b)
            check_linkable(src, dst)
            now = self._now()
            old = self.store.get_link(scope, src.id, dst.id, relation)
            link = Link(src.id, dst.id, relation, weight, old.created_at if old else now, now,
                        scope.user, scope.agent)
            self.store.put_link(link)
        return link

    def unlink(self, a: str, b: str, relation: str | None = None, *, user: str | None = None,
               agent: str | None = None) -> int:
        """Remove the links between ``a`` and ``b``, both ways (of one relation, or all);
        returns how many were removed."""
        from ..recall.graph import check_relation

        scope = self._scope(user, agent)
        if relation is not None:
            check_relation(relation)
        with self.store.transaction():
            src, dst = self._get(scope, a), self._get(scope, b)
            return (self.store.remove_links(scope, src.id, dst.id, relation)
                    + self.store.remove_links(scope, dst.id, src.id, relation))

    def links(self, id_or_uri: str, *, user: str | None = None,
              agent: str | None = None) -> list[Link]:
        """Every link from or to the memory."""
        scope = self._scope(user, agent)
        return self.store.links(scope, [self._get(scope, id_or_uri).id])

    def related(self, id_or_uri: str, hops: int = 2, *, user: str | None = None,
                agent: str | None = None) -> list[Hit]:
        """Memories linked to this one, both ways, up to ``hops`` (1-3) links away, strongest
        path first (the product of its link weights)."""
        from ..recall.graph import as_hit, check_hops, walk
        from ..recall.why import describe

        scope = self._scope(user, agent)
        hops = check_hops(hops, 1)
        hits = [as_hit(r) for r in walk(self.store, scope, [self._get(scope, id_or_uri)], hops)]
        describe(hits, None, self._now())
        return hits

    def recall_path(self, uri_or_prefix: str, hops: int = 0, *, user: str | None = None,
                    agent: str | None = None) -> list[Hit]:
        """The memory at a URI, or every memory under a URI prefix ("project://engramdb/"),
        then what is linked to them up to ``hops`` (0-3) links away."""
        from ..recall.graph import as_hit, check_hops, start_hit, walk
        from ..recall.why import describe
        from ..store.protocol import ListFilter

        scope = self._scope(user, agent)
        hops = check_hops(hops, 0)
        if not isinstance(uri_or_prefix, str) or "://" not in uri_or_prefix:
            raise Invalid(f"give a URI or URI prefix, got {uri_or_prefix!r}")
        exact = self._at_uri(scope, validate_uri(uri_or_prefix)) if not \
            uri_or_prefix.endswith("/") else None
        if exact is not None:
            start = [exact]
        else:
            prefix = self._stored_prefix(scope, validate_prefix(uri_or_prefix))
            flt = ListFilter(uri_prefix=prefix, limit=MAX_K)
            start = list(self.store.list(scope, flt))
        if not start:
            raise NotFound(f"no memory at or under {uri_or_prefix!r} for user={scope.user} "
                           f"agent={scope.agent}")
        hits = [start_hit(r, f"at {r.uri}") for r in sorted(start, key=lambda r: r.uri or "")]
        hits += [as_hit(r) for r in walk(self.store, scope, start, hops)]
        describe(hits, None, self._now())
        return hits


    # ---------------------------------------------------------------- conversations

"""The store contract for the triple table (write/triples.py): what an index text carries is
kept per memory, replaced by the next index text, kept by a save without one, hidden once the
memory is forgotten, gone with a hard forget and a dropped scope; asked for by memory, subject
and predicate, newest memory first (part of StoreContract)."""

from __future__ import annotations

from datetime import timedelta

from ..model import Layer
from .contract_kit import ALICE, BOB, T0, make_record, unit
from .protocol import IndexText, Triple

HOME = Triple("user", "live in", "Hangzhou")
PARENTS = Triple("爸妈", "住在", "绍兴")


def _text(*triples: Triple) -> IndexText:
    return IndexText("memori", "", "", tuple(triples))


class TripleContract:
    """Mix-in of tests; needs a ``store`` fixture."""

    def test_triples_kept_asked_and_replaced(self, store):  # type: ignore[no-untyped-def]
        a, b = make_record(1), make_record(2)
        store.insert(a, _text(HOME, PARENTS), unit(1))
        store.insert(b, _text(Triple("user", "live in", "Oslo")), unit(2))
        store.insert(make_record(3, BOB), _text(HOME), unit(3))   # another scope
        assert store.triples(ALICE) == [(b.id, Triple("user", "live in", "Oslo")),
                                         (a.id, HOME), (a.id, PARENTS)]
        assert store.triples(ALICE, subject="user", predicate="live in", limit=1) == [
            (b.id, Triple("user", "live in", "Oslo"))]
        assert store.triples(ALICE, ids=[a.id], subject="爸妈") == [(a.id, PARENTS)]
        assert store.triples(ALICE, ids=[]) == []
        store.save(a.replace(version=2), "update", _text(PARENTS))   # a new index text
        assert store.triples(ALICE, ids=[a.id]) == [(a.id, PARENTS)]
        store.save(a.replace(version=3), "use")                        # no index text
        assert store.triples(ALICE, ids=[a.id]) == [(a.id, PARENTS)]

    def test_triples_follow_forgetting(self, store):  # type: ignore[no-untyped-def]
        a, b = make_record(1), make_record(2)
        store.insert(a, _text(HOME), unit(1))
        store.insert(b, _text(PARENTS), unit(2))
        later = T0 + timedelta(days=9)
        store.save(a.replace(layer=Layer.DELETED, version=2, updated_at=later), "forget")
        assert store.triples(ALICE) == [(b.id, PARENTS)]
        gone = b.scrubbed().replace(layer=Layer.DELETED, version=2, updated_at=later)
        store.erase(gone)
        store.save(a.replace(layer=Layer.CORE, version=3, updated_at=later), "restore")
        assert store.triples(ALICE) == [(a.id, HOME)]
        store.drop_scope(ALICE, later)
        assert store.triples(ALICE) == []

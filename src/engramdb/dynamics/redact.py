"""A hard forget reaches the gists made from the memory it erases (dynamics/gist.py).

A gist copies sentences from its sources, so erasing a source must not leave its words in the
gist: the gist is rebuilt from its other sources, as the consolidation phase builds it (the best
sentence of each, the best ``MAX_SENTENCES``, in time order), saved as a new version (op
"redact"), and every earlier version in its log loses the erased source's sentences
(``Store.rewrite_log``). A polished wording (dynamics/polish.py) is dropped for the extractive
one: it may carry the erased source's facts. A gist left with no source is erased too.

The gist's anchor counts (how many sources named each person, place or topic) lose the erased
source's anchors too, and an anchor no other source names leaves the gist. A gist of gists
(dynamics/gist_levels.py) above a rebuilt gist is rebuilt too, and its log loses the sentences
copied from the erased memory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

import numpy as np

from ..model import Layer, Record
from ..store.protocol import Store
from ..text.checks import content_hash
from ..write.prepare import embed_text, index_text
from .gist import (
    ANCHOR_ATTRS,
    POLISH_KEYS,
    _top,
    anchor_counts,
    join_sentences,
    pick_sentences,
    shared_anchors,
)

Embed = Callable[[list[str]], np.ndarray]


def gists_of(store: Store, source: Record) -> list[Record]:
    """The gists made from ``source`` (its "gist_of" links and ``metadata["gist"]``)."""
    ids = {link.target for link in store.links(source.scope, [source.id], ("gist_of",))
           if link.source == source.id}
    if isinstance(source.metadata.get("gist"), str):
        ids.add(source.metadata["gist"])
    found = store.get_many(source.scope, sorted(ids))
    return [g for g in found.values() if source.id in g.derived_from and not g.erased]


def redact(store: Store, gist: Record, source: Record, embed: Embed, now: datetime,
           actor: str) -> Record:
    """Rebuild ``gist`` without ``source`` (inside the caller's transaction); returns the
    gist as stored now (a tombstone when no other source is left)."""
    reason = f"source {source.id} was erased"
    above = gists_of(store, gist)  # gists of gists copy its sentences (dynamics/gist_levels.py)
    remaining = [i for i in gist.derived_from if i != source.id]
    sources = sorted((r for r in store.get_many(gist.scope, remaining).values()
                      if r.content and not r.erased), key=lambda r: (r.at, r.id))
    store.rewrite_log(gist.scope, gist.id, lambda snap: _without(snap, source))
    if not sources:
        tomb = gist.scrubbed().replace(layer=Layer.DELETED, updated_at=now,
                                       version=gist.version + 1)
        store.erase(tomb, actor=actor, reason=reason)
        _redact_above(store, above, source, embed, now, actor)
        return tomb
    meta, anchors = _less_anchors(gist, source)
    picked = pick_sentences(sources, shared_anchors(anchor_counts(meta)))
    content = join_sentences([text for text, _ in picked])
    meta.update(sentences=[{"text": t, "source": s} for t, s in picked],
                support=len(remaining))
    new = gist.replace(content=content, content_hash=content_hash(content), metadata=meta,
                       derived_from=remaining, updated_at=now, version=gist.version + 1,
                       **anchors)
    store.save(new, "redact", index_text(new), embed([embed_text(new)])[0], actor=actor,
               reason=reason)
    _redact_above(store, above, source, embed, now, actor)
    return new


def _redact_above(store: Store, above: list[Record], erased: Record, embed: Embed,
                  now: datetime, actor: str) -> None:
    """A gist of gists copies its source gists' sentences, so a sentence of the erased memory
    may sit in it (and in its log): it is rebuilt from its source gists as they are now, and
    every version in its log loses the sentences copied from the erased memory. It goes on up
    (three levels at most, dynamics/gist_levels.py)."""
    reason = f"a source's source {erased.id} was erased"
    for higher in above:
        higher = store.get_many(higher.scope, [higher.id]).get(higher.id, higher)
        further = gists_of(store, higher)
        store.rewrite_log(higher.scope, higher.id, lambda snap: _without_text(snap, erased))
        found = store.get_many(higher.scope, higher.derived_from)
        sources = sorted((r for r in found.values() if r.content and not r.erased),
                         key=lambda r: (r.at, r.id))
        if not sources:
            tomb = higher.scrubbed().replace(layer=Layer.DELETED, updated_at=now,
                                             version=higher.version + 1)
            store.erase(tomb, actor=actor, reason=reason)
        else:
            kept = {r.id for r in sources}
            meta = {k: v for k, v in higher.metadata.items() if k not in POLISH_KEYS}
            picked = pick_sentences(sources, shared_anchors(anchor_counts(meta)))
            content = join_sentences([text for text, _ in picked])
            meta["sentences"] = [{"text": t, "source": i} for t, i in picked]
            new = higher.replace(content=content, content_hash=content_hash(content),
                                 metadata=meta, updated_at=now, version=higher.version + 1,
                                 derived_from=[i for i in higher.derived_from if i in kept])
            store.save(new, "redact", index_text(new), embed([embed_text(new)])[0],
                       actor=actor, reason=reason)
        _redact_above(store, further, erased, embed, now, actor)


def _without_text(snapshot: Record, erased: Record) -> Record:
    """An earlier version of a gist of gists, less the sentences copied from ``erased``."""
    sentences = [s for s in snapshot.metadata.get("sentences", []) if isinstance(s, dict)]
    kept = [s for s in sentences if not str(s.get("text", "")).strip()
            or str(s["text"]) not in erased.content]
    if len(kept) == len(sentences) and not snapshot.metadata.get("polished_from"):
        return snapshot
    content = join_sentences([str(s["text"]) for s in kept if s.get("text")]) if kept else ""
    meta = {k: v for k, v in snapshot.metadata.items() if k not in POLISH_KEYS}
    meta["sentences"] = kept
    return snapshot.replace(content=content, content_hash=content_hash(content) if content else "",
                            metadata=meta)


def _without(snapshot: Record, source: Record) -> Record:
    """An earlier version of the gist, less what came from ``source``: its sentences leave
    the content (rebuilt from the others'; a polished wording goes with them), its anchors the
    counts."""
    sentences = [s for s in snapshot.metadata.get("sentences", []) if isinstance(s, dict)]
    if source.id not in snapshot.derived_from and all(
            s.get("source") != source.id for s in sentences):
        return snapshot
    kept = [s for s in sentences if s.get("source") != source.id]
    content = join_sentences([str(s["text"]) for s in kept]) if kept else ""
    meta, anchors = _less_anchors(snapshot, source)
    meta["sentences"] = kept
    return snapshot.replace(content=content, content_hash=content_hash(content) if content else "",
                            metadata=meta, **anchors,
                            derived_from=[i for i in snapshot.derived_from if i != source.id])


def _less_anchors(gist: Record, source: Record) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The gist's metadata (without a polished wording) and anchors, less ``source``'s."""
    meta = {k: v for k, v in gist.metadata.items() if k not in POLISH_KEYS}
    counts = anchor_counts(meta)
    for attr, counter in counts.items():
        counter.subtract(dict.fromkeys(getattr(source, attr), 1))
    counts = {attr: Counter({a: n for a, n in c.items() if n > 0}) for attr, c in counts.items()}
    if "anchor_counts" not in meta:   # (every gist keeps them; without, the anchors stay)
        return meta, {attr: list(getattr(gist, attr)) for attr in ANCHOR_ATTRS}
    meta["anchor_counts"] = {a: dict(sorted(c.items())) for a, c in counts.items()}
    return meta, {attr: _top(counter) for attr, counter in counts.items()}

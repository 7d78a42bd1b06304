"""The PII policy (write/privacy.py) applied to an import: a JSONL export or a snapshot is
written around the write path (records with their ids, versions and logs), so it is screened
here, before anything of it is written.

Under "refuse" a file that holds personal data in any memory's text, context or earlier
version is refused whole (Invalid naming the kinds, never the values). Under "mask" each value
becomes a placeholder in the record, in every snapshot of its log and in the text that is
indexed and embedded; the values join the memory's "pii" line (a snapshot's, kept) and go to
the separate table a hard forget erases. Placeholders the file already holds keep their
numbers. Tombstones hold no text and are left as they are."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..facade import Facade
from ..model import Record, Scope
from ..store.protocol import Event
from ..text.checks import content_hash
from ..text.piipolicy import scope_policy
from ..write.privacy import Masked, kind_of, mask_text, mask_uri, refuse_texts, scope_key


def screen_records(mem: Facade, records: list[Record], events: list[list[Event]],
                   vectors: list[np.ndarray | None], pii: dict[str, dict[str, str]],
                   keys: dict[Scope, bytes | None] | None = None) -> int:
    """Apply each record's scope policy to a parsed export (io/jsonl.py ``Export``: its
    records, their logs, vectors and "pii" lines, changed in place). Returns how many records
    were masked. ``keys``: each scope's placeholder key (write/privacy.py), read or made on
    first need where missing, and filled in."""
    masked_records = 0
    keys = {} if keys is None else keys   # each scope's placeholder key, read once
    for i, rec in enumerate(records):
        if rec.erased:
            continue
        policy = scope_policy(mem.config.pii, mem.config.pii_scopes, rec.scope)
        if policy == "keep":
            continue
        versions = [rec, *(ev.snapshot for ev in events[i] if ev.snapshot is not None)]
        if policy == "refuse":
            refuse_texts(policy, rec.scope, [text for r in versions for text in _texts(r)])
            continue
        if keys.get(rec.scope) is None:
            keys[rec.scope] = scope_key(mem.store, rec.scope)
        masked = Masked({ph: (kind_of(ph), value)
                         for ph, value in pii.get(rec.id, {}).items()}, key=keys[rec.scope])
        before = len(masked.values)
        new = _masked(rec, masked)
        log = [replace(ev, snapshot=_masked(ev.snapshot, masked))
               if ev.snapshot is not None else ev for ev in events[i]]
        if len(masked.values) == before:
            continue
        records[i] = new
        events[i] = log
        vectors[i] = None  # the text changed: embedded again, from the masked text
        pii[rec.id] = {ph: value for ph, (_, value) in masked.values.items()}
        masked_records += 1
    return masked_records


def _texts(rec: Record) -> list[str]:
    return [t for t in (rec.content, rec.context) if isinstance(t, str) and t]


def _masked(rec: Record, masked: Masked) -> Record:
    if not rec.content:
        return rec
    context = mask_text(rec.context, masked) if rec.context else rec.context
    content = mask_text(rec.content, masked)
    uri = mask_uri(rec.uri, masked) if rec.uri else rec.uri
    return rec.replace(content=content, context=context, content_hash=content_hash(content),
                       uri=uri)

"""The PII policy of the write path: what a write does with the personal data text/pii.py
finds in a memory's content, context and URI.

``Config.pii`` is the policy of every scope ("keep", the default: stored as written; "mask":
each value becomes a placeholder such as ``[email#3f9a0c2b71de]`` in the stored text, so
neither the text index nor the vector ever sees it, and the value goes to a separate table that
a hard forget erases; "refuse": the write raises Invalid naming the kinds found, never the
values). ``Config.pii_scopes`` overrides it per scope: ``"alice=mask, alice/helper=refuse"`` (a
``user/agent`` entry beats a ``user`` entry, which beats ``Config.pii``).

A placeholder names its value by a keyed hash: the first 12 hex digits of HMAC-SHA256 over the
kind and the value's canonical form (text/pii.py ``canonical``: "Jane@Example.com" and "jane at
example dot com" are one address), under a random key per scope kept in the values table (row
``KEY_ID``; a dropped scope loses it with its values). So one value is one placeholder in every
memory of the scope and two values are two placeholders: the write path's duplicate checks (same
URI same content, the content hash), the supersession judge and sleep's merges compare masked
texts and still see a changed number as a change, while an export without the key cannot be
brute-forced back to a phone number (the key sits with the values themselves, so whoever
holds the file holds both; a snapshot carries the key as it carries the values, and its restore
keeps it: io/snapshot.py). Texts masked before (``[email#1]``, numbered per memory)
are still revealed; the numbered form is also what a conversation shown to an LLM extractor
gets (``masked_turns``), its values put back at once.

A URI is masked too (``core://contacts/jane@example.com`` is stored as
``core://contacts/~email~3f9a0c2b71de``, the same token as in text, in the URI's own alphabet):
it stays one URI per value, and a caller that addresses the memory by the URI as written (get,
update, forget, history, links) finds it, since the engine masks the URI it is given the same
way (``mask_uri``) before it looks; ``reveal`` gives the URI back as written. A URI prefix that
stops inside a value cannot match the masked URI; one that holds whole values is masked as
well (list, count, recall's ``uri_prefix``). A hard forget's tombstone keeps the masked URI.

``Screen`` is called for each draft of a batch (write/batch.py) and keeps what it masked by
the draft's index; the write result's ``evidence["pii"]`` names the policy and the count of
each kind found, never a value."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import Invalid
from ..model import Action, Draft, Hit, Record, Scope, WriteResult
from ..store.protocol import Store
from ..text.pii import KINDS, LABELS, Found, canonical, find_pii
from .extract import Turn

TOKEN_DIGITS = 12
PLACEHOLDER = re.compile(r"\[(" + "|".join(KINDS) + r")#([0-9]+|[0-9a-f]{12})\]")
URI_PLACEHOLDER = re.compile(r"~(" + "|".join(KINDS) + r")~([0-9a-f]{12})(?![0-9a-f])")
KEY_ID = "pii:key"   # the scope's token key in the values table (no memory id looks like it)


def scope_key(store: Store, scope: Scope, create: bool = True) -> bytes | None:
    """The scope's placeholder key; made (and kept) on first need unless ``create`` is False
    (read again inside the write transaction, so two writers make one key)."""
    row = store.pii_values(scope, [KEY_ID]).get(KEY_ID)
    if row:
        return bytes.fromhex(next(iter(row.values())))
    if not create:
        return None
    with store.transaction():
        row = store.pii_values(scope, [KEY_ID]).get(KEY_ID)
        if row:
            return bytes.fromhex(next(iter(row.values())))
        key = secrets.token_bytes(32)
        store.put_pii(scope, KEY_ID, {"key": ("key", key.hex())})
    return key


def token(key: bytes, kind: str, value: str) -> str:
    """The value's keyed hash: equal for equal values (as ``canonical`` reads them) only."""
    message = f"{kind}\0{canonical(kind, value)}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:TOKEN_DIGITS]


def refuse_texts(policy: str, scope: Scope, texts: Sequence[object]) -> None:
    """Under "refuse", Invalid when any of ``texts`` holds personal data (a conversation is
    refused whole, before anything of it is written)."""
    if policy != "refuse":
        return
    found = [f for text in texts if isinstance(text, str) for f in find_pii(text)]
    if found:
        raise refusal(found, scope)


@dataclass
class Masked:
    """What one text lost to masking: placeholder -> (kind, value). With a ``key`` the
    placeholders are keyed hashes (``token``), else numbered across the texts."""

    values: dict[str, tuple[str, str]] = field(default_factory=dict)
    key: bytes | None = None

    def counts(self) -> dict[str, int]:
        return dict(sorted(Counter(kind for kind, _ in self.values.values()).items()))


def mask_text(text: str, masked: Masked) -> str:
    """``text`` with each value replaced by its placeholder (the same value, the same
    placeholder; numbering goes on across the texts of one memory)."""
    return _masked(text, find_pii(text), masked, False)


def mask_uri(uri: str, masked: Masked) -> str:
    """The URI with each value in its path as ``~kind~token`` (``masked`` must have a key);
    the values join ``masked`` under their text placeholders."""
    domain, sep, path = uri.partition("://")
    if not sep:
        return uri
    return f"{domain}://{_masked(path, find_pii(path), masked, True)}"


def _masked(text: str, found: list[Found], masked: Masked, in_uri: bool) -> str:
    if not found:
        return text
    by_value = {(kind, value): ph for ph, (kind, value) in masked.values.items()}
    out, last = [], 0
    for f in found:
        ph = by_value.get((f.kind, f.value))
        if ph is None:
            ph = _placeholder(masked, f)
            masked.values.setdefault(ph, (f.kind, f.value))
            by_value[(f.kind, f.value)] = ph
        out += [text[last:f.start], _in_uri(ph) if in_uri else ph]
        last = f.end
    return "".join(out) + text[last:]


def _placeholder(masked: Masked, f: Found) -> str:
    if masked.key is not None:
        return f"[{f.kind}#{token(masked.key, f.kind, f.value)}]"
    return f"[{f.kind}#{_next_number(masked, f.kind)}]"


def _in_uri(placeholder: str) -> str:
    m = PLACEHOLDER.fullmatch(placeholder)
    if m is None or not URI_PLACEHOLDER.fullmatch(f"~{m.group(1)}~{m.group(2)}"):
        raise Invalid("a URI can only be masked with the scope's key")
    return f"~{m.group(1)}~{m.group(2)}"


def _next_number(masked: Masked, kind: str) -> int:
    numbers = [int(m.group(2)) for ph in masked.values if (m := PLACEHOLDER.fullmatch(ph))
               and m.group(1) == kind and m.group(2).isdigit()]
    return max(numbers, default=0) + 1


def refusal(found: list[Found], scope: Scope) -> Invalid:
    kinds = sorted({f.kind for f in found}, key=KINDS.index)
    return Invalid(f"refused by the PII policy (pii=refuse for user={scope.user} "
                   f"agent={scope.agent}): the text holds "
                   f"{', '.join(LABELS[k] for k in kinds)}")


def reveal_text(text: str, values: Mapping[str, str]) -> str:
    """``text`` with its placeholders replaced by their values (those it has)."""
    if not values:
        return text
    return PLACEHOLDER.sub(lambda m: values.get(m.group(), m.group()), text)


def reveal_uri(uri: str, values: Mapping[str, str]) -> str:
    """The URI with its ``~kind~token`` parts as written."""
    if not values:
        return uri
    return URI_PLACEHOLDER.sub(
        lambda m: values.get(f"[{m.group(1)}#{m.group(2)}]", m.group()), uri)


class Screen:
    """The policy applied to each draft of one batch (``Screen.__call__(index, draft)``): its
    content, context and URI. Under "mask" the scope's key is read (made on first need) from
    ``store``."""

    def __init__(self, policy: str, scope: Scope, store: Store | None = None) -> None:
        self.policy = policy
        self.scope = scope
        self.store = store
        self.masked: dict[int, Masked] = {}
        self._key: bytes | None = None

    def __call__(self, index: int, draft: Draft) -> Draft:
        if self.policy == "keep" or not isinstance(draft.content, str):
            return draft
        texts = [draft.content] + ([draft.context] if isinstance(draft.context, str) else [])
        uri = draft.uri if isinstance(draft.uri, str) else None
        if self.policy == "refuse":
            found = [f for text in texts for f in find_pii(text)]
            found += find_pii(uri.partition("://")[2]) if uri else []
            if found:
                raise refusal(found, self.scope)
            return draft
        masked = Masked(key=self.key())
        content = mask_text(draft.content, masked)
        context = (mask_text(draft.context, masked) if isinstance(draft.context, str)
                   else draft.context)
        uri = mask_uri(uri, masked) if uri else draft.uri
        if not masked.values:
            return draft
        self.masked[index] = masked
        return replace(draft, content=content, context=context, uri=uri)

    def key(self) -> bytes | None:
        if self._key is None and self.store is not None:
            self._key = scope_key(self.store, self.scope)
        return self._key

    def evidence(self, index: int) -> dict[str, object] | None:
        if self.policy == "keep":
            return None
        masked = self.masked.get(index)
        return {"policy": self.policy, "found": masked.counts() if masked else {}}


def kind_of(placeholder: str) -> str:
    return placeholder[1:].split("#", 1)[0]


def revealed(record: Record, values: Mapping[str, str] | None) -> Record:
    """The record with its placeholders replaced by the values they stand for."""
    if not values:
        return record
    context = reveal_text(record.context, values) if record.context else record.context
    uri = reveal_uri(record.uri, values) if record.uri else record.uri
    return record.replace(content=reveal_text(record.content, values), context=context,
                          uri=uri)


def reveal_all(store: Store, scope: Scope, records: Sequence[Record]) -> list[Record]:
    values = store.pii_values(scope, [r.id for r in records if PLACEHOLDER.search(
        f"{r.content} {r.context or ''}") or URI_PLACEHOLDER.search(r.uri or "")])
    return [revealed(r, values.get(r.id)) for r in records]


def reveal_hits(store: Store, scope: Scope, hits: Sequence[Hit]) -> None:
    """Each hit's memory with its masked values in place (the hits are changed)."""
    for hit, record in zip(hits, reveal_all(store, scope, [h.memory for h in hits]),
                           strict=True):
        hit.memory = record


def keep_masked(store: Store, screen: Screen, index: int, rec: Record,
                result: WriteResult) -> None:
    """After one write of a batch: the evidence, and the masked values stored under the memory
    that now holds this draft's text. A memory this write updated (or found the same) keeps
    the values of its earlier versions too, under "mask": its log holds them, and history with
    ``reveal`` shows them; a hard forget erases them all with the log. Under "keep" an update
    drops them (its text is stored as written)."""
    evidence = screen.evidence(index)
    if evidence is not None:
        result.evidence["pii"] = evidence
    holds = result.memory.content == rec.content
    if result.action == Action.REJECT or not holds:
        return
    masked = screen.masked.get(index)
    new = masked.values if masked else {}
    if result.action in (Action.UPDATE, Action.NOOP) and screen.policy != "keep":
        had = store.pii_values(rec.scope, [result.memory.id]).get(result.memory.id, {})
        if new or had:
            store.put_pii(rec.scope, result.memory.id,
                          {**{ph: (kind_of(ph), v) for ph, v in had.items()}, **new})
    elif masked is not None:
        store.put_pii(rec.scope, result.memory.id, new)
    elif result.action == Action.UPDATE:   # its earlier text's values are gone with it
        store.put_pii(rec.scope, result.memory.id, {})


def mask_update(store: Store, policy: str, old: Record, content: str | None,
                uri: str | None) -> tuple[str | None, str | None]:
    """``update``'s new content and URI (None: unchanged) under the policy, masked, and the
    memory's values put: those its unchanged context and URI still name (all of them when the
    content is unchanged), and the new ones."""
    if policy == "refuse":
        found = (find_pii(content) if content else []) + \
            (find_pii(uri.partition("://")[2]) if uri else [])
        if found:
            raise refusal(found, old.scope)
        return content, uri
    kept = store.pii_values(old.scope, [old.id]).get(old.id, {})
    still = f"{old.context or ''} {(old.uri or '') if uri is None else ''}"
    masked = Masked({ph: (kind_of(ph), value) for ph, value in kept.items()
                     if content is None or ph in still or _uri_form(ph) in still},
                    key=scope_key(store, old.scope) if policy == "mask" else None)
    if policy == "mask":
        content = mask_text(content, masked) if content is not None else None
        uri = mask_uri(uri, masked) if uri is not None else None
    if content is not None or len(masked.values) != len(kept):
        store.put_pii(old.scope, old.id, masked.values)
    return content, uri


def _uri_form(placeholder: str) -> str:
    m = PLACEHOLDER.fullmatch(placeholder)
    return f"~{m.group(1)}~{m.group(2)}" if m else placeholder


def stored_uri(store: Store, scope: Scope, uri: str) -> str | None:
    """The URI as a masked write stored it (None when the scope has no key, so nothing was
    masked): how a caller finds a memory by the URI as written."""
    key = scope_key(store, scope, create=False)
    if key is None:
        return None
    masked = mask_uri(uri, Masked(key=key))
    return masked if masked != uri else None


def mask_blobs(policy: str, offloaded: Sequence[Any]) -> None:
    """Under "mask", the whole text of each long message kept in a blob (``Offloaded`` of
    write/offload.py, not imported: it would close an import circle through config.py)
    loses its values too: a blob has placeholders only (the turn event's stand-in text is
    masked, with its values kept, by ``Screen`` as any draft)."""
    if policy != "mask":
        return
    for o in offloaded:
        o.blob = replace(o.blob, content=mask_text(o.blob.content, Masked()))



def masked_turns(turns: Sequence[Turn]) -> tuple[list[Turn], dict[str, str]]:
    """The turns as an LLM extractor may see them under "mask": each value a placeholder,
    numbered across the conversation; and placeholder -> value, to put them back."""
    masked = Masked()
    out = [replace(t, message=replace(t.message, content=mask_text(t.message.content, masked)))
           for t in turns]
    return out, {ph: value for ph, (_, value) in masked.values.items()}


def revealed_drafts(drafts: list[Draft], values: Mapping[str, str]) -> list[Draft]:
    """The extractor's drafts with the conversation's values back in their texts."""
    return [replace(d, content=reveal_text(d.content, values),
                    context=reveal_text(d.context, values) if d.context else d.context)
            for d in drafts]

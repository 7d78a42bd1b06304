"""The PII policy of the write path: what a write does with the personal data text/pii.py
finds in a memory's content and context.

``Config.pii`` is the policy of every scope ("keep", the default: stored as written; "mask":
each value becomes a placeholder such as ``[email#1]`` in the stored text, so neither the text
index nor the vector ever sees it, and the value goes to a separate table that a hard forget
erases; "refuse": the write raises Invalid naming the kinds found, never the values).
``Config.pii_scopes`` overrides it per scope: ``"alice=mask, alice/helper=refuse"`` (a
``user/agent`` entry beats a ``user`` entry, which beats ``Config.pii``).

``Screen`` is called for each draft of a batch (write/batch.py) and keeps what it masked by
the draft's index; the write result's ``evidence["pii"]`` names the policy and the count of
each kind found, never a value."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import Invalid
from ..model import Action, Draft, Hit, Record, Scope, WriteResult
from ..store.protocol import Store
from ..text.pii import KINDS, LABELS, Found, find_pii
from .extract import Turn

PLACEHOLDER = re.compile(r"\[(" + "|".join(KINDS) + r")#([0-9]+)\]")


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
    """What one text lost to masking: placeholder -> (kind, value)."""

    values: dict[str, tuple[str, str]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return dict(sorted(Counter(kind for kind, _ in self.values.values()).items()))


def mask_text(text: str, masked: Masked) -> str:
    """``text`` with each value replaced by its placeholder (the same value, the same
    placeholder; numbering goes on across the texts of one memory)."""
    found = find_pii(text)
    if not found:
        return text
    by_value = {(kind, value): ph for ph, (kind, value) in masked.values.items()}
    out, last = [], 0
    for f in found:
        ph = by_value.get((f.kind, f.value))
        if ph is None:
            ph = f"[{f.kind}#{_next_number(masked, f.kind)}]"
            masked.values[ph] = (f.kind, f.value)
            by_value[(f.kind, f.value)] = ph
        out += [text[last:f.start], ph]
        last = f.end
    return "".join(out) + text[last:]


def _next_number(masked: Masked, kind: str) -> int:
    numbers = [int(m.group(2)) for ph in masked.values if (m := PLACEHOLDER.fullmatch(ph))
               and m.group(1) == kind]
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


class Screen:
    """The policy applied to each draft of one batch (``Screen.__call__(index, draft)``)."""

    def __init__(self, policy: str, scope: Scope) -> None:
        self.policy = policy
        self.scope = scope
        self.masked: dict[int, Masked] = {}

    def __call__(self, index: int, draft: Draft) -> Draft:
        if self.policy == "keep" or not isinstance(draft.content, str):
            return draft
        texts = [draft.content] + ([draft.context] if isinstance(draft.context, str) else [])
        if self.policy == "refuse":
            found = [f for text in texts for f in find_pii(text)]
            if found:
                raise refusal(found, self.scope)
            return draft
        masked = Masked()
        content = mask_text(draft.content, masked)
        context = (mask_text(draft.context, masked) if isinstance(draft.context, str)
                   else draft.context)
        if not masked.values:
            return draft
        self.masked[index] = masked
        return replace(draft, content=content, context=context)

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
    return record.replace(content=reveal_text(record.content, values), context=context)


def reveal_all(store: Store, scope: Scope, records: Sequence[Record]) -> list[Record]:
    values = store.pii_values(scope, [r.id for r in records if PLACEHOLDER.search(
        f"{r.content} {r.context or ''}")])
    return [revealed(r, values.get(r.id)) for r in records]


def reveal_hits(store: Store, scope: Scope, hits: Sequence[Hit]) -> None:
    """Each hit's memory with its masked values in place (the hits are changed)."""
    for hit, record in zip(hits, reveal_all(store, scope, [h.memory for h in hits]),
                           strict=True):
        hit.memory = record


def keep_masked(store: Store, screen: Screen, index: int, rec: Record,
                result: WriteResult) -> None:
    """After one write of a batch: the evidence, and the masked values stored under the memory
    that now holds this draft's text (replacing what it held; none when nothing was masked)."""
    evidence = screen.evidence(index)
    if evidence is not None:
        result.evidence["pii"] = evidence
    holds = result.memory.content == rec.content
    if result.action == Action.REJECT or not holds:
        return
    masked = screen.masked.get(index)
    if masked is not None or (result.action in (Action.UPDATE, Action.NOOP)
                              and screen.policy != "keep"):
        store.put_pii(rec.scope, result.memory.id, masked.values if masked else {})
    elif result.action == Action.UPDATE:   # its earlier text's values are gone with it
        store.put_pii(rec.scope, result.memory.id, {})


def mask_update(store: Store, policy: str, old: Record, content: str) -> tuple[str, Masked]:
    """``update``'s new content under the policy: the masked text and what the memory's
    values become (those its unchanged context still names, and the content's)."""
    if policy == "refuse":
        found = find_pii(content)
        if found:
            raise refusal(found, old.scope)
        return content, Masked()
    kept = store.pii_values(old.scope, [old.id]).get(old.id, {})
    masked = Masked({ph: (kind_of(ph), value) for ph, value in kept.items()
                     if ph in (old.context or "")})
    if policy == "keep":
        return content, masked
    return mask_text(content, masked), masked


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

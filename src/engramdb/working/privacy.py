"""The PII policy (write/privacy.py) on a working session's turns, which are stored too.

Under "refuse" a turn holding personal data is refused (Invalid naming the kinds, never the
values) and the session is unchanged. Under "mask" the turn is stored, shown and summarised
with placeholders (``[email#1]``: one value, one placeholder across the session), and the
values are kept apart, under the session's key in the table a hard forget and a scope's drop
erase. When the session ends its turns are handed to long-term memory with their values back
in place, so the long-term write masks them again and keeps them with each memory; the
session's own copy of the values is then erased."""

from __future__ import annotations

from ..facade import Facade
from ..model import Scope
from ..text.piipolicy import scope_policy
from ..write.privacy import Masked, kind_of, mask_text, refuse_texts, reveal_text


def key(session_id: str) -> str:
    """The id the session's masked values are kept under (no memory id looks like it)."""
    return f"session:{session_id}"


def screen_turn(memory: Facade, scope: Scope, session_id: str,
                content: str) -> tuple[str, Masked | None]:
    """The turn's text under the scope's policy, and the session's values to keep (None when
    nothing new was masked). Refused under "refuse"."""
    policy = scope_policy(memory.config.pii, memory.config.pii_scopes, scope)
    if policy == "keep":
        return content, None
    refuse_texts(policy, scope, [content])
    if policy == "refuse":
        return content, None
    known = memory.store.pii_values(scope, [key(session_id)]).get(key(session_id), {})
    masked = Masked({ph: (kind_of(ph), value) for ph, value in known.items()})
    text = mask_text(content, masked)
    return text, (masked if len(masked.values) > len(known) else None)


def revealed(memory: Facade, scope: Scope, session_id: str, texts: list[str]) -> list[str]:
    """``texts`` with the session's masked values back in place."""
    values = memory.store.pii_values(scope, [key(session_id)]).get(key(session_id), {})
    return [reveal_text(t, values) for t in texts]

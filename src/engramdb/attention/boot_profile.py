"""The profile boot loads after an agent's named memories: who the user is and what holds for
them now. Current core memories of the kinds identity and rule, then facts and preferences,
each group by priority (P0 first), then importance, then how often the memory was used, then
the newest first; at most ``PROFILE_MAX`` of them (the boot budget may cut sooner)."""

from __future__ import annotations

from ..model import Kind, Layer, Record, Scope
from ..store.protocol import ListFilter, Store

PROFILE_MAX = 50
GROUPS = ((Kind.IDENTITY, Kind.RULE), (Kind.FACT, Kind.PREFERENCE))


def profile(store: Store, scope: Scope, seen: set[str]) -> list[Record]:
    """The profile memories not in ``seen``, in boot order."""
    out: list[Record] = []
    for kinds in GROUPS:
        flt = ListFilter(kinds=tuple(k.value for k in kinds), layers=(Layer.CORE,),
                         current_only=True)
        found = [r for r in store.list(scope, flt)
                 if r.id not in seen and r.uri is None and r.expires_at is None]
        found.sort(key=lambda r: (r.priority.value, -r.importance, -len(r.last_uses),
                                  -r.at.timestamp(), r.id))
        out += found
    return out[:PROFILE_MAX]

"""Boot: what an agent loads at start, in a stable order, within an optional token budget.

The order: every P0 memory, then the other ``core://agent/...`` and ``core://user/...``
memories (both sorted by URI, memories without one last, then by id), then every URI listed in
the memory at ``system://boot`` (one per line; blank lines and lines starting with '#' are
skipped), in list order, then the profile (profile.py: current identity and rule memories,
then facts and preferences, by priority and importance). The first two groups are the core
layer's current memories; a listed URI may also name an archived memory (it was asked for by
name). Each memory comes once, the boot list itself never. A listed URI that is malformed or
names no memory is skipped and reported in ``missing``. With a budget, memories are kept in
that order while their tokens (text/tokens.py, the configured encoding) fit: the first that
does not fit ends the list (``truncated``)."""

from __future__ import annotations

from ..errors import Invalid
from ..model import Boot, Layer, Priority, Record, Scope
from ..store.protocol import ListFilter, Store
from ..text.tokens import DEFAULT_ENCODING, count_tokens
from ..uri import validate_uri
from .boot_profile import profile

BOOT_URI = "system://boot"
IDENTITY_PREFIXES = ("core://agent/", "core://user/")


def boot(store: Store, scope: Scope, budget: int | None = None,
         encoding: str = DEFAULT_ENCODING, *, with_profile: bool = True) -> Boot:
    """``with_profile=False``: the named memories only (context.py shows the rest in its own
    sections)."""
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                               or budget < 0):
        raise Invalid(f"budget must be a non-negative integer of tokens, got {budget!r}")
    ordered = _implicit(store, scope)
    listed, missing = _listed(store, scope)
    seen = {rec.id for rec in ordered}
    extra = profile(store, scope, {r.id for r in listed} | seen) if with_profile else []
    for rec in [*listed, *extra]:
        if rec.id not in seen:
            seen.add(rec.id)
            ordered.append(rec)
    kept: list[Record] = []
    tokens = 0
    for rec in ordered:
        cost = count_tokens(rec.content, encoding)
        if budget is not None and tokens + cost > budget:
            return Boot(kept, missing, tokens, truncated=True)
        kept.append(rec)
        tokens += cost
    return Boot(kept, missing, tokens, truncated=False)


def _implicit(store: Store, scope: Scope) -> list[Record]:
    """The P0 memories, then the other identity memories, each group by URI then id."""
    core = (Layer.CORE,)
    p0 = store.list(scope, ListFilter(priorities=(Priority.P0.value,), layers=core,
                                      current_only=True))
    first = sorted((r for r in p0 if r.uri != BOOT_URI), key=_by_uri)
    seen = {r.id for r in first}
    rest: list[Record] = []
    for prefix in IDENTITY_PREFIXES:
        flt = ListFilter(uri_prefix=prefix, layers=core, current_only=True)
        rest += [r for r in store.list(scope, flt) if r.id not in seen]
    return first + sorted(rest, key=_by_uri)


def _by_uri(rec: Record) -> tuple[bool, str, str]:
    return (rec.uri is None, rec.uri or "", rec.id)


def _listed(store: Store, scope: Scope) -> tuple[list[Record], list[str]]:
    """The memories the boot list names, in its order, and the entries that name none."""
    holder = store.get_by_uri(scope, BOOT_URI)
    if holder is None:
        return [], []
    found: list[Record] = []
    missing: list[str] = []
    for line in holder.content.splitlines():
        entry = line.strip()
        if not entry or entry.startswith("#") or entry in missing:
            continue
        rec = _lookup(store, scope, entry)
        if rec is None:
            missing.append(entry)
        elif rec.id != holder.id:
            found.append(rec)
    return found, missing


def _lookup(store: Store, scope: Scope, entry: str) -> Record | None:
    try:
        uri = validate_uri(entry)
    except Invalid:
        return None
    return store.get_by_uri(scope, uri)

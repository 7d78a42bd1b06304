"""The neighbouring-turn context of a conversation event written without one.

``ingest`` indexes each turn with the turns around it as its ``context`` (searched, never
returned): a reply ("Yes, the blue one") is found by the words of what it answers, and a
question by the words of its answer. A user who stores the same turns with
``remember``/``remember_many`` (events that name a ``session``) gets the same: an event with
a session and no context takes as context

- the previous turn of its session: the one before it in the same batch, else the latest event
  of that session already stored (the nearest lower turn number when turns are numbers);
- the next turn of its session when the same batch holds it (a turn remembered alone has no
  next turn yet, and a stored memory's context is not rewritten later).

An event that gives its own context keeps it; other kinds, and events without a session, are
left as they are."""

from __future__ import annotations

from datetime import timedelta

from ..model import Kind, Record, Scope
from ..store.protocol import ListFilter, Store

MAX_CONTEXT_CHARS = 500   # as much of a neighbouring turn as ingest keeps (write/ingest.py)
STORED_LOOKBACK = 64      # newest stored events read to find a session's previous turn


def with_turn_context(store: Store, scope: Scope, records: list[Record]) -> list[Record]:
    """The records, each event with a session and no context given its neighbouring turns."""
    if not any(_wants(r) for r in records):
        return records
    by_session: dict[str, list[int]] = {}
    for i, rec in enumerate(records):
        if rec.kind == Kind.EVENT and rec.source_session is not None:
            by_session.setdefault(rec.source_session, []).append(i)
    out = list(records)
    for places in by_session.values():
        for n, i in enumerate(places):
            rec = records[i]
            if not _wants(rec):
                continue
            before = records[places[n - 1]] if n else None
            if before is None or not _earlier(before, rec):
                before = _stored_previous(store, scope, rec)
            after = records[places[n + 1]] if n + 1 < len(places) else None
            if after is not None and not _earlier(rec, after):
                after = None
            near = [r.content[:MAX_CONTEXT_CHARS] for r in (before, after) if r is not None]
            if near:
                out[i] = rec.replace(context="\n".join(near))
    return out


def _wants(rec: Record) -> bool:
    return rec.kind == Kind.EVENT and rec.source_session is not None and rec.context is None


def _turn(rec: Record) -> int | None:
    turn = rec.source_turn
    return int(turn) if turn is not None and turn.strip().lstrip("-").isdigit() else None


def _earlier(before: Record, rec: Record) -> bool:
    """Is ``before`` a turn said before ``rec``? By turn number where both have one."""
    a, b = _turn(before), _turn(rec)
    return a < b if a is not None and b is not None else True


def _stored_previous(store: Store, scope: Scope, rec: Record) -> Record | None:
    """The latest stored event of the record's session said before it, if any."""
    flt = ListFilter(kinds=(Kind.EVENT.value,), until=rec.at + timedelta(microseconds=1),
                     newest_first=True, limit=STORED_LOOKBACK)
    same = [r for r in store.list(scope, flt)
            if r.source_session == rec.source_session and _earlier(r, rec)
            and r.content != rec.content]
    if not same:
        return None
    if _turn(rec) is not None and all(_turn(r) is not None for r in same):
        return max(same, key=lambda r: (_turn(r) or 0, r.id))
    return max(same, key=lambda r: r.id)

"""Lossless JSONL export/import: records, their vectors (with the model id) and the event log.

Line 1 is a header; then one ``memory`` line per record followed by its ``event`` lines. An
event line carries ``actor`` and ``reason`` (null where unknown; absent in older files). A
snapshot's header also names its scope (io/snapshot.py). A hard forget's tombstone has empty
content and no vector, and so do the snapshots in its event lines. After a scope's memories
come its ``link`` lines (recall/graph.py); an import adds a link when both its memories are there.
Then its ``goal`` lines (attention/goals.py): an import adds the goals whose id is new to the
store; an active one whose scope has an active goal already comes in paused (one active goal a
scope)."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any, TypeVar

from ..clock import aware
from ..errors import Invalid
from ..model import Goal, GoalStatus, Layer, Link, Record, Scope
from ..recall.graph import check_relation, check_weight
from ..store.common import from_ts, record_from_row, snapshot_json
from ..store.protocol import Event, ListFilter
from .bad import Bad, reason

if TYPE_CHECKING:
    import numpy as np

    from ..facade import Facade

FORMAT = "engramdb-jsonl/1"
ALL_LAYERS = ListFilter(layers=())


def _vec(v: np.ndarray) -> str:
    import numpy as np

    return _b64(np.asarray(v, dtype=np.float32).tobytes())


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _vector_lines(store: Any, scope: Scope, ids: list[str]) -> dict[str, str]:
    """Each memory's vector as an export writes it: the stored float32 bytes, base64 (a
    store that gives its bytes, as SQLite does, is exported without numpy)."""
    blobs = getattr(store, "vector_blobs", None)
    if blobs is not None:
        return {mid: _b64(raw) for mid, raw in blobs(scope, ids).items()}
    return {mid: _vec(v) for mid, v in store.vectors(scope, ids).items()}


def _passage_lines_of(store: Any, scope: Scope, ids: list[str]) -> dict[str, list[str]]:
    """A long memory's passage vectors (store/passages.py) as ``_vector_lines`` writes its
    vector."""
    if not ids:
        return {}
    blobs = getattr(store, "passage_blobs", None)
    if blobs is not None:
        return {mid: [_b64(raw) for raw in rows] for mid, rows in blobs(scope, ids).items()}
    read = getattr(store, "passages", None)
    return ({mid: [_vec(row) for row in rows] for mid, rows in read(scope, ids).items()}
            if read is not None else {})


def export_jsonl(mem: Facade, fp: IO[str], scopes: Sequence[Scope],
                 header_extra: dict[str, Any] | None = None, reveal: bool = False,
                 masked: bool = False) -> int:
    """``reveal``: masked values in place of their placeholders (write/privacy.py);
    ``masked`` (snapshots): the placeholders kept, and a "pii" line per memory with values, so
    that a restore gives them back."""
    emb = mem.embedder
    header = {"type": "header", "format": FORMAT, "embedder": emb.model_id,
              "dimensions": emb.dimensions, **(header_extra or {})}
    fp.write(json.dumps(header) + "\n")
    n = 0
    for scope in scopes:
        records = list(mem.store.list(scope, ALL_LAYERS))
        if reveal:
            from ..write.privacy import reveal_all

            records = reveal_all(mem.store, scope, records)
        vectors = _vector_lines(mem.store, scope, [r.id for r in records])
        parts = _passage_lines_of(mem.store, scope, [r.id for r in records if r.id in vectors])
        values = mem.store.pii_values(scope, [r.id for r in records]) if masked else {}
        said = _triples_of(mem.store, scope, [r.id for r in records])
        for rec in records:
            line: dict[str, Any] = {"type": "memory", "memory": json.loads(snapshot_json(rec))}
            if rec.id in vectors:
                line["vector"] = vectors[rec.id]
            if rec.id in parts:   # a long memory's passages (store/passages.py)
                line["passages"] = parts[rec.id]
            if rec.id in said:   # for readers of the file: an import reads them from the text
                line["triples"] = said[rec.id]
            fp.write(json.dumps(line, ensure_ascii=False) + "\n")
            for ev in mem.store.events(scope, rec.id):
                fp.write(json.dumps(_event_line(ev), ensure_ascii=False) + "\n")
            if rec.id in values:
                fp.write(json.dumps({"type": "pii", "memory_id": rec.id,
                                     "values": values[rec.id]}, ensure_ascii=False) + "\n")
            n += 1
        if masked:   # the placeholders' key: a restore keeps them the scope's tokens
            fp.write(_key_line(mem.store, scope))
        for link in mem.store.list_links(scope):
            fp.write(json.dumps({"type": "link", "link": link.to_dict()}, ensure_ascii=False)
                     + "\n")
        for goal in mem.store.list_goals(scope):
            fp.write(json.dumps({"type": "goal", "goal": goal.to_dict()}, ensure_ascii=False)
                     + "\n")
    return n


def _key_line(store: Any, scope: Scope) -> str:
    from ..write.privacy import KEY_ID, scope_key

    key = scope_key(store, scope, create=False)
    if key is None:
        return ""
    return json.dumps({"type": "pii", "memory_id": KEY_ID, "values": {"key": key.hex()}}) + "\n"


def _event_line(ev: Event) -> dict[str, Any]:
    return {"type": "event", "memory_id": ev.memory_id, "op": ev.op, "version": ev.version,
            "at": ev.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "snapshot": json.loads(snapshot_json(ev.snapshot)) if ev.snapshot else None,
            "actor": ev.actor, "reason": ev.reason}


def import_jsonl(mem: Facade, fp: IO[str],
                 progress: Callable[[int, int], None] | None = None,
                 skip_bad: bool = False) -> dict[str, Any]:
    """Import everything or nothing (one transaction): a bad line raises Invalid naming it, and
    nothing is written. ``skip_bad``: a bad memory (its memory line or one of its event lines)
    or a bad link, goal or pii line is left out, the rest is written, and the answer's ``bad``
    lists each left-out item as ``{"line": n, "reason": "..."}``. Records whose id is already
    stored are skipped. Vectors are reused when the file's embedder is the store's, else
    recomputed. ``progress(done, total)`` counts the vectors computed, then the records
    written (total: both)."""
    from .screen import screen_records

    bad = Bad(skip_bad)
    export = read_export(mem, fp, bad)
    screen_records(mem, export.records, export.events, export.vectors, export.pii)
    # ^ the PII policy (io/screen.py): refused whole, or masked
    records = len(export.records)
    reembedded = embed_missing(mem, export, skip_stored=True, progress=progress and (
        lambda done, total: progress(done, total + records)))
    with mem.store.transaction():
        counts = write_export(mem, export, progress and (
            lambda done, total: progress(reembedded + done, reembedded + total)))
    return bad.report({**counts, "reembedded": reembedded})


@dataclass
class Export:
    """A parsed export: its header, and each record with its vector (None: to be embedded, or
    a tombstone, which has none) and its event log."""

    header: dict[str, Any]
    records: list[Record]
    vectors: list[np.ndarray | None]
    events: list[list[Event]]
    links: list[Link] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    pii: dict[str, dict[str, str]] = field(default_factory=dict)
    passages: dict[str, np.ndarray] = field(default_factory=dict)  # by id, with its vector


def read_export(mem: Facade, fp: IO[str], bad: Bad | None = None) -> Export:
    """Parse and check a whole export; nothing is written. A bad line raises Invalid, or is
    set aside in ``bad`` when it skips (a file whose header is bad is refused whole)."""
    bad = bad or Bad(False)
    lines = [(n, ln) for n, ln in enumerate(fp.read().splitlines(), 1) if ln.strip()]
    header = _header(lines[0] if lines else None)
    same_model = (header.get("embedder"), header.get("dimensions")) == (
        mem.embedder.model_id, mem.embedder.dimensions)
    items: list[tuple[int, dict[str, Any] | None]] = [(n, _item(n, ln, bad))
                                                       for n, ln in lines[1:]]
    groups = _group(items, bad, mem.embedder.dimensions if same_model else None)
    records = [rec for rec, _, _, _ in groups]
    vectors = [vec if same_model and not rec.erased else None for rec, vec, _, _ in groups]
    links = _lines_of(items, "link", _link, bad)
    goals = _lines_of(items, "goal", _goal, bad)
    pii = dict(_lines_of(items, "pii", _pii, bad))
    kept = {rec.id: parts for (rec, _, _, parts), vec in zip(groups, vectors, strict=True)
            if vec is not None and parts is not None}
    return Export(header, records, vectors, [events for _, _, events, _ in groups], links, goals,
                  pii, kept)


def _header(line: tuple[int, str] | None) -> dict[str, Any]:
    try:
        header = json.loads(line[1]) if line else None
    except json.JSONDecodeError as exc:
        raise Invalid(f"not a JSONL export: line {line[0] if line else 1}: {exc.msg}") from None
    if not isinstance(header, dict) or header.get("type") != "header" or header.get(
            "format") != FORMAT:
        raise Invalid(f"not an engramdb export: the first line must be a {FORMAT} header "
                      "(write one with engramdb export)")
    return header


def _item(number: int, line: str, bad: Bad) -> dict[str, Any] | None:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        bad.refuse(number, f"not JSON ({exc.msg}, column {exc.colno})")
        return None
    if not isinstance(item, dict):
        bad.refuse(number, "every line must be a JSON object")
        return None
    return item


T = TypeVar("T")


def _lines_of(items: list[tuple[int, dict[str, Any] | None]], kind: str,
              read: Callable[[dict[str, Any]], T], bad: Bad) -> list[T]:
    out = []
    for number, item in items:
        if item is not None and item.get("type") == kind:
            try:
                out.append(read(item))
            except Invalid as exc:
                bad.refuse(number, str(exc))
    return out


def _passage_rows(item: dict[str, Any], vector: np.ndarray | None) -> np.ndarray | None:
    """The passage vectors a memory line carries (of its vector's size), checked."""
    import numpy as np

    rows = item.get("passages")
    if rows is None:
        return None
    try:
        vecs = [np.frombuffer(base64.b64decode(row), dtype=np.float32) for row in rows]
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad passages: {reason(exc)}") from None
    if not vecs or len({len(v) for v in vecs}) != 1:
        raise ValueError("bad passages: they must be vectors of one size")
    if vector is None or vecs[0].shape[0] != len(vector):
        raise ValueError("passages without a vector of their size")
    return np.vstack(vecs)


def _pii(item: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """A line of masked values (a snapshot's), checked before anything is written."""
    from ..write.privacy import KEY_ID, PLACEHOLDER

    values = item.get("values")
    if item.get("memory_id") == KEY_ID:   # a snapshot's placeholder key (io/snapshot.py)
        if not isinstance(values, dict) or list(values) != ["key"] or not isinstance(
                values["key"], str) or not re.fullmatch(r"[0-9a-f]{64}", values["key"]):
            raise Invalid("bad pii key line")
        return KEY_ID, values
    if not isinstance(item.get("memory_id"), str) or not isinstance(values, dict) or not all(
            isinstance(v, str) and isinstance(k, str) and PLACEHOLDER.fullmatch(k)
            for k, v in values.items()):
        raise Invalid("bad pii line")
    return item["memory_id"], values


def _link(item: dict[str, Any]) -> Link:
    """A link line, checked (recall/graph.py's rules) before anything is written."""
    try:
        row = item["link"]
        link = Link(source=str(row["source"]), target=str(row["target"]),
                    relation=check_relation(row["relation"]), weight=check_weight(row["weight"]),
                    created_at=_time(row["created_at"]), updated_at=_time(row["updated_at"]),
                    user=str(row["user"]), agent=str(row["agent"]))
    except (KeyError, ValueError, TypeError, AttributeError, Invalid) as exc:
        raise Invalid(f"bad link line: {reason(exc)}") from None
    return link


def _goal(item: dict[str, Any]) -> Goal:
    """A goal line, checked before anything is written."""
    try:
        row = item["goal"]
        texts = {name: [str(x) for x in row.get(name) or []]
                 for name in ("constraints", "evidence", "open_loops")}
        goal = Goal(id=_text(row["id"]), user=_text(row["user"]), agent=_text(row["agent"]),
                    title=_text(row["title"]), status=GoalStatus(row["status"]),
                    created_at=_time(row["created_at"]), updated_at=_time(row["updated_at"]),
                    parent=_opt_text(row.get("parent")),
                    closed_at=_time(row["closed_at"]) if row.get("closed_at") else None,
                    **texts)
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise Invalid(f"bad goal line: {reason(exc)}") from None
    return goal


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected text, got {value!r}")
    return value


def embed_missing(mem: Facade, export: Export, skip_stored: bool,
                  progress: Callable[[int, int], None] | None = None) -> int:
    """Embed the records that lack a vector (tombstones never get one), in batches, before
    the caller takes the write lock: a model is slow (bulk: on every core, engine
    ``_embed_many``). ``skip_stored``: not those whose id is already stored (an import skips
    them). Returns how many were embedded."""
    from ..write.prepare import embed_text

    todo = [i for i, rec in enumerate(export.records)
            if export.vectors[i] is None and not rec.erased
            and not (skip_stored and mem.store.get(rec.scope, rec.id) is not None)]
    fresh = mem._embed_many([embed_text(export.records[i]) for i in todo], 64, progress)
    for i, row in zip(todo, fresh, strict=True):
        export.vectors[i] = row
    return len(todo)


def write_export(mem: Facade, export: Export,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Write the records whose id is not stored yet, with their logs (inside the caller's
    transaction); a tombstone gets neither text nor vector, so nothing can find it."""
    from ..write.prepare import index_text
    from ..write.privacy import kind_of

    counts = {"imported": 0, "skipped": 0}
    total = len(export.records)
    for i, (rec, vector, events) in enumerate(zip(export.records, export.vectors,
                                                  export.events, strict=True), start=1):
        if mem.store.get(rec.scope, rec.id) is not None:
            counts["skipped"] += 1
        else:
            text = None if rec.erased else index_text(rec)
            memo = getattr(mem.store, "passage_memo", None)
            if memo is not None and vector is not None and rec.id in export.passages:
                memo.add(vector, export.passages[rec.id])   # stored with the vector
            mem.store.import_record(rec, text, vector, events)
            if rec.id in export.pii and not rec.erased:
                mem.store.put_pii(rec.scope, rec.id, {ph: (kind_of(ph), value) for ph, value
                                                      in export.pii[rec.id].items()})
            counts["imported"] += 1
        if progress:
            progress(i, total)
    for link in export.links:  # links between memories of its scope, unless already there
        scope = Scope(link.user, link.agent)
        ends = mem.store.get_many(scope, [link.source, link.target])
        if len(ends) == 2 and mem.store.get_link(scope, link.source, link.target,
                                                 link.relation) is None:
            mem.store.put_link(link)
    counts["goals"] = 0
    for goal in export.goals:
        scope = goal.scope
        if mem.store.get_goal(scope, goal.id) is not None:
            continue
        if goal.status == GoalStatus.ACTIVE and mem.store.list_goals(scope, [GoalStatus.ACTIVE]):
            goal = goal.replace(status=GoalStatus.PAUSED)
        mem.store.put_goal(goal)
        counts["goals"] += 1
    return counts


Group = tuple[Record, "np.ndarray | None", list[Event], "np.ndarray | None"]


def _group(items: list[tuple[int, dict[str, Any] | None]], bad: Bad, dimensions: int | None
           ) -> list[Group]:
    """Each memory line with its vector, its event lines and its passages, checked before
    anything is written. ``dimensions``: the vectors' size when they are to be kept. A memory
    with a bad memory or event line is refused (or set aside with its event lines)."""
    groups: list[Group] = []
    current: Group | None = None
    unread = False   # a line since the current memory line could not be read
    for number, item in items:
        kind = item.get("type") if item is not None else None
        if item is None:
            unread = True   # already refused: a memory line, or an event line of current
            continue
        if kind in ("link", "goal", "pii"):
            continue  # read by read_export
        if kind == "memory":
            current, unread = None, False
            try:
                current = _memory(item, dimensions)
            except (KeyError, ValueError, TypeError, AttributeError, Invalid) as exc:
                bad.refuse(number, f"bad memory line: {reason(exc)}")
            if current is not None:
                groups.append(current)
        elif kind == "event":
            current = _add_event(number, item, current, groups, bad, unread)
        else:
            bad.refuse(number, f"unexpected line of type {str(kind)[:40]!r} (memory, event, "
                       "link, goal or pii)")
    return groups


def _add_event(number: int, item: dict[str, Any], current: Group | None, groups: list[Group],
               bad: Bad, unread: bool) -> Group | None:
    """Add an event line to the memory above it; returns that memory, or None when it was
    set aside (its event lines go with it). After an unreadable line (``unread``, reported
    there), an event of another memory went with that line; one of the memory above is kept
    (its log then lacks the unreadable line, which was reported)."""
    if current is None:
        if not groups:   # before any memory: not an item of one
            bad.refuse(number, "an event line before any memory line")
        return None
    if unread and str(item.get("memory_id")) != current[0].id:
        return None   # the unreadable line above was this event's memory line: it goes with it
    try:
        current[2].append(_event(item, current[0]))
        return current
    except (KeyError, ValueError, TypeError, AttributeError, Invalid) as exc:
        bad.refuse(number, f"bad event line of memory {current[0].id}: {reason(exc)}")
        groups.remove(current)
        return None


def _memory(item: dict[str, Any], dimensions: int | None) -> Group:
    import numpy as np

    row = item["memory"]
    vec = item.get("vector")
    vector = np.frombuffer(base64.b64decode(vec), dtype=np.float32) if vec else None
    rec = _check_record(record_from_row(row), empty_ok=_erased(row))
    if dimensions is not None and vector is not None and len(vector) != dimensions:
        raise ValueError(f"the vector has {len(vector)} dimensions, the header says "
                         f"{dimensions}")
    parts = _passage_rows(item, vector) if dimensions is not None else None
    return rec, vector, [], parts


def _event(item: dict[str, Any], rec: Record) -> Event:
    snap = item.get("snapshot")
    if str(item["memory_id"]) != rec.id:
        raise ValueError(f"it is of memory {str(item['memory_id'])[:40]}, not of the memory "
                         "line above it")
    return Event(seq=0, memory_id=rec.id, op=str(item["op"]), version=int(item["version"]),
                 at=_time(item["at"]),
                 snapshot=(_check_record(record_from_row(snap), empty_ok=rec.erased)
                           if snap else None),
                 actor=_opt_text(item.get("actor")), reason=_opt_text(item.get("reason")))


def _time(value: Any) -> datetime:
    when = from_ts(value)
    if when is None:
        raise ValueError("a timestamp is missing")
    return aware(when, "a time")   # no time zone: UTC


def _opt_text(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError("actor and reason must be text")
    return value


def _erased(row: dict[str, Any]) -> bool:
    """Is this memory line a hard forget's tombstone (deleted, content empty)?"""
    return row.get("layer") == Layer.DELETED.value and row.get("content") == ""


def _check_record(rec: Record, empty_ok: bool = False) -> Record:
    """What the store relies on: ids, scope and content as text (empty only in a hard
    forget's tombstone and its scrubbed snapshots: ``empty_ok``), the three timestamps."""
    for name in ("id", "user", "agent", "content"):
        value = getattr(rec, name)
        if name == "content" and value == "" and empty_ok:
            continue
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} must be a non-empty string")
    for name in ("at", "recorded_at", "updated_at"):
        if not isinstance(getattr(rec, name), datetime):
            raise ValueError(f"{name} is missing")
    return _in_utc(rec)


def _in_utc(rec: Record) -> Record:
    """The record with each time that has no time zone read as UTC (clock.aware)."""
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(rec):
        value = getattr(rec, f.name)
        if isinstance(value, datetime) and value.tzinfo is None:
            changes[f.name] = aware(value, f.name)
    if any(t.tzinfo is None for t in rec.last_uses):
        changes["last_uses"] = type(rec.last_uses)(aware(t, "last_uses") for t in rec.last_uses)
    return rec.replace(**changes) if changes else rec


def _triples_of(store: Any, scope: Scope, ids: list[str]) -> dict[str, list[dict[str, str]]]:
    """Each memory's triples as the store keeps them (reading them again loads the tagger)."""
    out: dict[str, list[dict[str, str]]] = {}
    for memory_id, triple in store.triples(scope, ids=ids, limit=100 * len(ids)):
        out.setdefault(memory_id, []).append(triple._asdict())
    return out

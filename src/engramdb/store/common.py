"""Code both backends share: the row codec of a memory (its column values, the JSON snapshot in
the event log) and the fixed-width UTC timestamp text that SQLite stores and snapshots carry."""

from __future__ import annotations

import copy
import dataclasses
import json
import operator
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..model import Kind, Layer, Lifecycle, Link, Priority, Record, Scope

ROW_COLUMNS = (
    "id user agent content content_hash kind uri priority lifecycle importance at recorded_at "
    "updated_at invalid_at superseded_by expires_at due_at layer use_count version data"
).split()
DATA_FIELDS = (
    "metadata people places topics keywords context valence intensity source_session source_turn "
    "derived_from last_uses overdue_since at_precision"
).split()


@dataclass(frozen=True)
class Migration:
    """One named step of a backend's schema (sqlite/migrations.py, postgres/migrations.py)."""

    version: int
    name: str
    statements: tuple[str, ...]


def ts(value: datetime | None) -> str | None:
    """UTC timestamps as fixed-width text, so text order is time order."""
    if value is None:
        return None
    value = value.astimezone(UTC)
    if value.year < 1000:  # strftime does not pad the year (and "1-01-01" would not read back)
        return f"{value.year:04d}{value.strftime('-%m-%dT%H:%M:%S.%fZ')}"
    return value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def from_ts(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:  # fromisoformat is ~20x faster than strptime and reads the same fixed-width form
        return datetime.fromisoformat(value)
    except ValueError:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)



def row_values(rec: Record) -> list[Any]:
    data = {f: getattr(rec, f) for f in DATA_FIELDS}
    data["last_uses"] = [ts(t) for t in rec.last_uses]
    data["overdue_since"] = ts(rec.overdue_since)
    return [
        rec.id, rec.user, rec.agent, rec.content, rec.content_hash, rec.kind.value, rec.uri,
        rec.priority.value, rec.lifecycle.value, rec.importance, ts(rec.at), ts(rec.recorded_at),
        ts(rec.updated_at), ts(rec.invalid_at), rec.superseded_by, ts(rec.expires_at),
        ts(rec.due_at), rec.layer.value, rec.use_count, rec.version,
        json.dumps(data, ensure_ascii=False, sort_keys=True),
    ]


def record_from_row(row: sqlite3.Row | dict[str, Any]) -> Record:
    return record_from_values([row[c] for c in ROW_COLUMNS])


# enum lookups by value without Enum.__call__ (a miss still raises the enum's own error)
_KINDS = {m.value: m for m in Kind}
_PRIORITIES = {m.value: m for m in Priority}
_LIFECYCLES = {m.value: m for m in Lifecycle}
_LAYERS = {m.value: m for m in Layer}


_scan_json = json.JSONDecoder().scan_once
_DATA_KEYS = frozenset(DATA_FIELDS)


def _json_object(text: str) -> dict[str, Any]:
    """``json.loads`` of the JSON object a row's data column holds, without its wrapper's
    checks where the text is exactly one object (what ``row_values`` writes); anything
    else goes through ``json.loads`` and its errors."""
    value: Any = None
    try:
        value, end = _scan_json(text, 0)
    except (StopIteration, TypeError):   # not one JSON value, or not text
        end = -1
    if end != len(text) or type(value) is not dict:
        value = json.loads(text)
    return value  # type: ignore[no-any-return]


def record_from_values(values: Sequence[Any]) -> Record:
    """A record from its column values in ``ROW_COLUMNS`` order (a plain tuple row: the fast
    path for reads of many rows)."""
    (id_, user, agent, content, content_hash, kind, uri, priority, lifecycle, importance, at,
     recorded_at, updated_at, invalid_at, superseded_by, expires_at, due_at, layer, use_count,
     version, data_json) = values
    data = _json_object(data_json)
    uses = data.get("last_uses")
    data["last_uses"] = [from_ts(t) for t in uses] if uses else []
    data["overdue_since"] = from_ts(data.get("overdue_since"))
    if data.keys() == _DATA_KEYS:   # as row_values writes it: the fields set without __init__
        rec = object.__new__(Record)   # (which only assigns them), in the class's order
        rec.__dict__.update(
            id=id_, user=user, agent=agent, content=content, kind=_KINDS.get(kind) or Kind(kind),
            uri=uri, priority=_PRIORITIES.get(priority) or Priority(priority),
            lifecycle=_LIFECYCLES.get(lifecycle) or Lifecycle(lifecycle), importance=importance,
            at=from_ts(at), recorded_at=from_ts(recorded_at), updated_at=from_ts(updated_at),
            metadata=data["metadata"], people=data["people"], places=data["places"],
            topics=data["topics"], keywords=data["keywords"], context=data["context"],
            valence=data["valence"], intensity=data["intensity"],
            source_session=data["source_session"], source_turn=data["source_turn"],
            derived_from=data["derived_from"], invalid_at=from_ts(invalid_at),
            superseded_by=superseded_by, expires_at=from_ts(expires_at), due_at=from_ts(due_at),
            layer=_LAYERS.get(layer) or Layer(layer), use_count=use_count,
            last_uses=data["last_uses"], version=version, content_hash=content_hash,
            overdue_since=data["overdue_since"], at_precision=data["at_precision"])
        return rec
    return Record(
        id=id_, user=user, agent=agent, content=content, content_hash=content_hash,
        kind=_KINDS.get(kind) or Kind(kind), uri=uri,
        priority=_PRIORITIES.get(priority) or Priority(priority),
        lifecycle=_LIFECYCLES.get(lifecycle) or Lifecycle(lifecycle),
        importance=importance, at=from_ts(at),  # type: ignore[arg-type]
        recorded_at=from_ts(recorded_at),  # type: ignore[arg-type]
        updated_at=from_ts(updated_at),  # type: ignore[arg-type]
        invalid_at=from_ts(invalid_at), superseded_by=superseded_by,
        expires_at=from_ts(expires_at), due_at=from_ts(due_at),
        layer=_LAYERS.get(layer) or Layer(layer), use_count=use_count, version=version, **data,
    )



_LISTS = ("people", "places", "topics", "keywords", "derived_from", "last_uses")


def copied(rec: Record) -> Record:
    """A copy of ``rec`` that shares nothing mutable with it (its lists and metadata copied
    too): what a store hands out of a cache it keeps."""
    out = object.__new__(Record)
    out.__dict__.update(rec.__dict__)
    for name in _LISTS:
        setattr(out, name, list(getattr(rec, name)))
    meta = rec.metadata
    flat = all(not isinstance(v, dict | list) for v in meta.values())
    out.metadata = dict(meta) if flat else copy.deepcopy(meta)
    return out


# A record packed: its fields by name, in the class's order, each list as a tuple, each enum as
# its value, flat metadata as a tuple of its items. Plain values (strings, numbers, times and
# tuples of them), which the garbage collector stops tracking at its next full collection; a
# Record is eight tracked objects (itself, its __dict__, its six lists), walked at every full
# collection while a cache keeps it.
_FIELDS = tuple(f.name for f in dataclasses.fields(Record))
_values_of = operator.attrgetter(*_FIELDS)
_ENUMS = (("kind", _KINDS), ("priority", _PRIORITIES), ("lifecycle", _LIFECYCLES),
          ("layer", _LAYERS))
_ATOMS = (str, int, float, bool, type(None))


def packed(rec: Record) -> dict[str, Any]:
    """``rec`` as plain values, sharing nothing mutable with it (``unpacked`` makes it again):
    the form the SQLite store's record cache keeps."""
    fields = vars(rec).copy()
    if tuple(fields) != _FIELDS:   # not in the class's order (or more than the fields)
        fields = dict(zip(_FIELDS, _values_of(rec), strict=True))
    for name in _LISTS:
        fields[name] = tuple(fields[name])
    for name, _ in _ENUMS:
        fields[name] = fields[name]._value_
    meta = fields["metadata"]
    flat = all(type(v) in _ATOMS for v in meta.values())
    fields["metadata"] = tuple(meta.items()) if flat else copy.deepcopy(meta)
    return fields


def unpacked(kept: dict[str, Any], shared: bool = False) -> Record:
    """The record ``packed`` made ``kept`` of, with its own lists and metadata (``shared``:
    metadata that is not flat is the packed one, for a reader that changes nothing)."""
    out = object.__new__(Record)
    fields = kept.copy()
    for name, members in _ENUMS:
        fields[name] = members[fields[name]]
    for name in _LISTS:
        items = fields[name]
        fields[name] = list(items) if items else []
    meta = fields["metadata"]
    fields["metadata"] = (dict(meta) if type(meta) is tuple
                          else meta if shared else copy.deepcopy(meta))
    out.__dict__ = fields
    return out


def snapshot_json(rec: Record, values: list[Any] | None = None) -> str:
    """The record as its column values, in JSON (``values``: ``row_values(rec)``, if known)."""
    row = values if values is not None else row_values(rec)
    return json.dumps(dict(zip(ROW_COLUMNS, row, strict=True)), ensure_ascii=False)



def json_list(items: list[str]) -> str:
    return json.dumps(list(items), ensure_ascii=False)


def note_use(rec: Record, at: datetime, debounce_s: float) -> bool:
    """Count one use of ``rec`` at ``at`` (its last eight times kept), unless it was used
    within ``debounce_s`` before; True when counted (record_uses of both backends)."""
    if rec.last_uses and (at - rec.last_uses[-1]).total_seconds() < debounce_s:
        return False
    rec.last_uses = [*rec.last_uses, at][-8:]
    rec.use_count += 1
    return True


def strengthened(old: Link | None, scope: Scope, source: str, target: str, relation: str,
                 step: float, cap: float, at: datetime, debounce_s: float) -> Link | None:
    """The link from ``source`` to ``target`` after one step of strengthen_links (a new one
    starts at ``step``), capped at ``cap``; None when it changed within ``debounce_s``."""
    if old is not None and (at - old.updated_at).total_seconds() < debounce_s:
        return None
    return Link(source, target, relation, min(cap, (old.weight if old else 0.0) + step),
                old.created_at if old else at, at, scope.user, scope.agent)


def link_list_sql(mark: str, relation: str | None, below: float | None, since: Any,
                  limit: int | None) -> tuple[str, list[Any]]:
    """What list_links adds after its scope clause: the filters, the order (weakest first,
    then source, target, relation) and the limit, with the driver's placeholder ``mark``
    ("?" or "%s") and ``since`` already in the backend's time form."""
    sql, args = "", []
    for clause, value in ((f" AND relation = {mark}", relation), (f" AND weight < {mark}", below),
                          (f" AND updated_at >= {mark}", since)):
        if value is not None:
            sql += clause
            args.append(value)
    sql += " ORDER BY weight, source, target, relation"
    if limit is not None:
        sql += f" LIMIT {mark}"
        args.append(limit)
    return sql, args

"""Records to PostgreSQL rows and back, and vectors as pgvector text.

The row keeps SQLite's columns (store/common.py) under the same names, with the scope as
``user_id``/``agent_id`` (``user`` is reserved in SQL) and times as ``timestamptz``; the
remaining fields stay in ``data``, the same JSON text as SQLite's, and event snapshots are
SQLite's snapshot JSON, so exports and the event log read the same on both backends."""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
from psycopg import Cursor
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo

from ...model import Kind, Layer, Lifecycle, Priority, Record
from ..common import DATA_FIELDS, from_ts, ts

COLUMNS = (
    "user_id agent_id id content content_hash kind uri priority lifecycle importance at "
    "recorded_at updated_at invalid_at superseded_by expires_at due_at layer use_count version "
    "data"
).split()
SELECT = ", ".join(COLUMNS)
# binary COPY of COLUMNS, then body, anchors, context, doc_len, anchor_terms, embedding
COPY_TYPES = [
    *["text"] * 9, "float8", *["timestamptz"] * 4, "text", *["timestamptz"] * 2, "text",
    "int4", "int4", "text", "text", "text", "text", "int4", "text[]", "vector",
]
_KINDS = {m.value: m for m in Kind}
_PRIORITIES = {m.value: m for m in Priority}
_LIFECYCLES = {m.value: m for m in Lifecycle}
_LAYERS = {m.value: m for m in Layer}


def data_json(rec: Record) -> str:
    data = {f: getattr(rec, f) for f in DATA_FIELDS}
    data["last_uses"] = [ts(t) for t in rec.last_uses]
    data["overdue_since"] = ts(rec.overdue_since)
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def row_values(rec: Record) -> list[Any]:
    """The record's values in ``COLUMNS`` order."""
    return [
        rec.user, rec.agent, rec.id, rec.content, rec.content_hash, rec.kind.value, rec.uri,
        rec.priority.value, rec.lifecycle.value, rec.importance, rec.at, rec.recorded_at,
        rec.updated_at, rec.invalid_at, rec.superseded_by, rec.expires_at, rec.due_at,
        rec.layer.value, rec.use_count, rec.version, data_json(rec),
    ]


def record_from_values(values: Sequence[Any]) -> Record:
    (user, agent, id_, content, content_hash, kind, uri, priority, lifecycle, importance, at,
     recorded_at, updated_at, invalid_at, superseded_by, expires_at, due_at, layer, use_count,
     version, data_text) = values
    data = json.loads(data_text)
    data["last_uses"] = [from_ts(t) for t in data.get("last_uses", [])]
    data["overdue_since"] = from_ts(data.get("overdue_since"))
    return Record(
        id=id_, user=user, agent=agent, content=content, content_hash=content_hash,
        kind=_KINDS.get(kind) or Kind(kind), uri=uri,
        priority=_PRIORITIES.get(priority) or Priority(priority),
        lifecycle=_LIFECYCLES.get(lifecycle) or Lifecycle(lifecycle),
        importance=importance, at=at, recorded_at=recorded_at, updated_at=updated_at,
        invalid_at=invalid_at, superseded_by=superseded_by, expires_at=expires_at,
        due_at=due_at, layer=_LAYERS.get(layer) or Layer(layer), use_count=use_count,
        version=version, **data,
    )


def vector_text(vector: np.ndarray) -> str:
    """pgvector's text form; float32 values written in full, so they read back exactly."""
    values = np.asarray(vector, dtype=np.float32).ravel()
    if not np.all(np.isfinite(values)):
        raise ValueError("a vector holds NaN or infinity")
    return str(values.tolist())   # "[0.1, -0.2, ...]": Python's repr, in C, exact


def vector_from_text(text: str) -> np.ndarray:
    return np.array(text[1:-1].split(","), dtype=np.float64).astype(np.float32)


class _VectorDumper(Dumper):
    """numpy float32 -> pgvector's binary form (dimensions, 0, big-endian floats): about 400x
    faster than the text form, whose float formatting dominates a bulk load."""

    format = Format.BINARY

    def dump(self, obj: np.ndarray) -> bytes:
        values = np.asarray(obj, dtype=">f4").ravel()
        return struct.pack(">HH", values.size, 0) + values.tobytes()


def register_vector_dumper(cur: Cursor[Any]) -> None:
    """Let this cursor send numpy vectors as ``vector`` in binary (COPY ... FORMAT BINARY)."""
    info = TypeInfo.fetch(cur.connection, "vector")
    if info is None:
        raise ValueError("the vector type is missing")
    info.register(cur)
    dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
    cur.adapters.register_dumper(np.ndarray, dumper)

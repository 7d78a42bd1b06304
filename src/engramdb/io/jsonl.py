"""Lossless JSONL export/import: records, their vectors (with the model id) and the event log.

Line 1 is a header; then one ``memory`` line per record followed by its ``event`` lines."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from ..errors import Invalid
from ..model import Scope
from ..store.base import Event, IndexText, ListFilter
from ..store.sqlite import from_ts, record_from_row, snapshot_json
from ..write.prepare import index_anchors, index_body

if TYPE_CHECKING:
    from ..engine import Memory

FORMAT = "engramdb-jsonl/1"
ALL_LAYERS = ListFilter(layers=())


def _vec(v: np.ndarray) -> str:
    return base64.b64encode(np.asarray(v, dtype=np.float32).tobytes()).decode()


def export_jsonl(mem: Memory, fp: IO[str], scopes: Sequence[Scope]) -> int:
    emb = mem.embedder
    header = {"type": "header", "format": FORMAT, "embedder": emb.model_id,
              "dimensions": emb.dimensions}
    fp.write(json.dumps(header) + "\n")
    n = 0
    for scope in scopes:
        records = list(mem.store.list(scope, ALL_LAYERS))
        vectors = mem.store.vectors(scope, [r.id for r in records])
        for rec in records:
            line: dict[str, Any] = {"type": "memory", "memory": json.loads(snapshot_json(rec))}
            if rec.id in vectors:
                line["vector"] = _vec(vectors[rec.id])
            fp.write(json.dumps(line, ensure_ascii=False) + "\n")
            for ev in mem.store.events(scope, rec.id):
                fp.write(json.dumps(_event_line(ev), ensure_ascii=False) + "\n")
            n += 1
    return n


def _event_line(ev: Event) -> dict[str, Any]:
    return {"type": "event", "memory_id": ev.memory_id, "op": ev.op, "version": ev.version,
            "at": ev.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "snapshot": json.loads(snapshot_json(ev.snapshot)) if ev.snapshot else None}


def import_jsonl(mem: Memory, fp: IO[str],
                 progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Import everything or nothing (one transaction). Records whose id is already stored are
    skipped. Vectors are reused when the file's embedder is the store's, else recomputed."""
    lines = [ln for ln in fp.read().splitlines() if ln.strip()]
    try:
        items = [json.loads(ln) for ln in lines]
    except json.JSONDecodeError as exc:
        raise Invalid(f"not a JSONL export: {exc}") from None
    if not items or items[0].get("type") != "header" or items[0].get("format") != FORMAT:
        raise Invalid(f"not an engramdb export: the first line must be a {FORMAT} header")
    header = items[0]
    same_model = (header.get("embedder"), header.get("dimensions")) == (
        mem.embedder.model_id, mem.embedder.dimensions)
    groups = _group(items[1:])
    counts = {"imported": 0, "skipped": 0, "reembedded": 0}
    with mem.store.transaction():
        for i, (row, vector, events) in enumerate(groups, start=1):
            rec = record_from_row(row)
            if mem.store.get(rec.scope, rec.id) is not None:
                counts["skipped"] += 1
                continue
            if vector is None or not same_model:
                vector = mem.embedder.embed_batch([rec.content])[0]
                counts["reembedded"] += 1
            mem.store.import_record(rec, IndexText(index_body(rec), index_anchors(rec)), vector,
                                    events)
            counts["imported"] += 1
            if progress:
                progress(i, len(groups))
    return counts


def _group(items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any, list[Event]]]:
    groups: list[tuple[dict[str, Any], Any, list[Event]]] = []
    for item in items:
        kind = item.get("type")
        if kind == "memory":
            try:
                vec = item.get("vector")
                vector = np.frombuffer(base64.b64decode(vec), dtype=np.float32) if vec else None
                record_from_row(item["memory"])  # validate early: fail before writing anything
            except (KeyError, ValueError, TypeError) as exc:
                raise Invalid(f"bad memory line: {exc!r}") from None
            groups.append((item["memory"], vector, []))
        elif kind == "event" and groups:
            snap = item.get("snapshot")
            groups[-1][2].append(Event(
                seq=0, memory_id=item["memory_id"], op=item["op"], version=item["version"],
                at=from_ts(item["at"]),  # type: ignore[arg-type]
                snapshot=record_from_row(snap) if snap else None))
        else:
            raise Invalid(f"unexpected line of type {kind!r}")
    return groups

"""Snapshots of one scope: a JSONL export (io/jsonl.py) whose header names the scope, and a
restore that replaces everything the scope holds with the file's memories and logs.

A restore is one transaction: the scope's memories, text, vectors and per-memory events are
dropped (as ``Memory.forget_scope`` does), one scope event ``restore_snapshot`` is logged, and
the snapshot's records and event logs are written back. Either all of it happens or nothing
does. Vectors in the file are reused when it was made with the store's embedder, else
recomputed (before the write lock is taken).

Hard forgets outlive a restore: a memory erased since the snapshot was taken stays a
tombstone. A snapshot file itself still holds what it held: erase old snapshot files too."""

from __future__ import annotations

import io
import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import Invalid
from ..model import Layer, Scope
from ..store.protocol import ListFilter
from ..write.privacy import KEY_ID, scope_key
from .jsonl import Export, embed_missing, export_jsonl, read_export, write_export
from .screen import screen_records

if TYPE_CHECKING:
    from ..facade import Facade

Target = str | os.PathLike[str] | IO[str]


def write_snapshot(mem: Facade, target: Target, scope: Scope, at: datetime) -> int:
    """Write the scope's snapshot to a path (atomically: a temporary file, then renamed) or to
    an open text stream. Returns the number of memories written."""
    buf = io.StringIO()
    extra = {"snapshot": {"user": scope.user, "agent": scope.agent, "at": at.isoformat()}}
    n = export_jsonl(mem, buf, [scope], header_extra=extra, masked=True)
    if not isinstance(target, str | os.PathLike):
        target.write(buf.getvalue())
        return n
    path = Path(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            fp.write(buf.getvalue())
        os.replace(tmp, path)
    except OSError as exc:
        raise Invalid(f"cannot write the snapshot {path}: {exc.strerror or exc}") from None
    return n


def restore_snapshot(mem: Facade, source: Target, scope: Scope, at: datetime,
                     actor: str | None = None) -> dict[str, int]:
    """Replace the scope's memories with the snapshot's; returns {"removed", "restored",
    "reembedded"}."""
    if isinstance(source, str | os.PathLike):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Invalid(f"cannot read the snapshot {source}: {exc}") from None
        source = io.StringIO(text)
    export = read_export(mem, source)
    taken = _check_scope(export.header, [(r.user, r.agent) for r in export.records], scope)
    keys = {scope: _key(mem, export, scope)}
    screen_records(mem, export.records, export.events, export.vectors, export.pii, keys)
    # ^ the PII policy (io/screen.py): refused whole, or masked
    reembedded = embed_missing(mem, export, skip_stored=False)
    with mem.store.transaction():
        keep_tombstones(mem, scope, export)
        removed = mem.store.drop_scope(scope, at, "restore_snapshot", actor=actor,
                                       reason=f"replaced by a snapshot taken at {taken}")
        mem.store.drop_goals(scope)   # the snapshot's goal stack replaces the scope's
        counts = write_export(mem, export)
        if keys.get(scope) is not None:   # the key the restored placeholders were made with
            mem.store.put_pii(scope, KEY_ID, {"key": ("key", keys[scope].hex())})
    return {"removed": removed, "restored": counts["imported"], "reembedded": reembedded}


def _key(mem: Facade, export: Export, scope: Scope) -> bytes | None:
    """The placeholder key of the restored scope (write/privacy.py): the snapshot's, else the
    scope's own (a snapshot made before keys existed)."""
    line = export.pii.pop(KEY_ID, None)
    if line is not None:
        return bytes.fromhex(line["key"])
    return scope_key(mem.store, scope, create=False)


def keep_tombstones(mem: Facade, scope: Scope, export: Export) -> None:
    """An erasure outlives a restore: a memory hard-forgotten since the snapshot was taken
    stays a tombstone (with its scrubbed log) instead of coming back from the file."""
    position = {rec.id: i for i, rec in enumerate(export.records)}
    for tomb in mem.store.list(scope, ListFilter(layers=(Layer.DELETED,))):
        if not tomb.erased:
            continue
        events = mem.store.events(scope, tomb.id)
        i = position.get(tomb.id)
        if i is None:
            export.records.append(tomb)
            export.vectors.append(None)
            export.events.append(events)
        else:
            export.records[i], export.vectors[i], export.events[i] = tomb, None, events


def _check_scope(header: dict[str, Any], scopes: list[tuple[str, str]], scope: Scope) -> str:
    """The snapshot must be of ``scope`` (its header says so, and so does every record); an
    export without a snapshot header is accepted if every record is of ``scope`` and there is
    at least one. Returns when the snapshot was taken ("unknown" for a plain export)."""
    named = header.get("snapshot")
    want = (scope.user, scope.agent)
    if isinstance(named, dict):
        if (named.get("user"), named.get("agent")) != want:
            raise Invalid(f"this snapshot is of user={named.get('user')} "
                          f"agent={named.get('agent')}, not of user={scope.user} "
                          f"agent={scope.agent}")
    elif not scopes:
        raise Invalid("this export is empty and names no scope: nothing says what to replace")
    others = sorted({s for s in scopes if s != want})
    if others:
        raise Invalid(f"the file holds memories of user={others[0][0]} agent={others[0][1]}, "
                      f"not only of user={scope.user} agent={scope.agent}")
    return str(named.get("at", "unknown")) if isinstance(named, dict) else "unknown"

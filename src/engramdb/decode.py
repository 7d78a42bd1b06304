"""Domain objects back from their ``to_dict()`` form, as the HTTP API sends them: the CLI asking
a running server (cli/remote.py) formats what it gets with the same code as the answers of a
memory opened in the process."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .model import (
    Action,
    Explanation,
    Hit,
    Hits,
    Kind,
    Layer,
    LegScore,
    Lifecycle,
    Priority,
    Record,
    Stats,
    WriteResult,
)

if TYPE_CHECKING:
    from .verdict import Verdict

TIMES = {"at", "recorded_at", "updated_at", "invalid_at", "expires_at", "due_at",
         "overdue_since"}
ENUMS: dict[str, Any] = {"kind": Kind, "priority": Priority, "lifecycle": Lifecycle,
                         "layer": Layer}
FIELDS = {f.name for f in dataclasses.fields(Record)}


def record(data: dict[str, Any]) -> Record:
    """A Record from ``Record.to_dict()``; a field the sender has and this version lacks is
    left out."""
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in FIELDS:
            continue
        if name in TIMES:
            value = None if value is None else datetime.fromisoformat(value)
        elif name == "last_uses":
            value = [datetime.fromisoformat(v) for v in value]
        elif name in ENUMS:
            value = ENUMS[name](value)
        values[name] = value
    return Record(**values)


def explanation(data: dict[str, Any], why: str = "") -> Explanation:
    return Explanation(legs={k: LegScore(v["rank"], v["score"])
                             for k, v in data.get("legs", {}).items()},
                       fused=data.get("fused", 0.0), strength=data.get("strength", 0.0),
                       terms=dict(data.get("terms", {})), final=data.get("final", 0.0),
                       notes=list(data.get("notes", [])), summary=why)


def hits(data: dict[str, Any]) -> Hits:
    """Hits from ``Hits.to_dict()``: each hit's one-line why is its explanation's summary."""
    return Hits([Hit(record(h["memory"]), h["score"],
                     explanation(h["explanation"], h.get("why", "")), h.get("woken", False),
                     verdict(h.get("verdict")))
                 for h in data["hits"]],
                abstained=data.get("abstained", False), note=data.get("note", ""),
                plan=data.get("plan") or {})


def verdict(data: dict[str, Any] | None) -> Verdict | None:
    if not data:
        return None
    from .verdict import Reason, Verdict

    return Verdict(data["label"], data["confidence"], data["doubt"],
                   [Reason(r["code"], r["weight"], r.get("detail", ""))
                    for r in data.get("reasons", [])], data.get("lang", "en"))


def write_result(data: dict[str, Any]) -> WriteResult:
    return WriteResult(Action(data["action"]), data["rule"], record(data["memory"]),
                       dict(data.get("evidence") or {}))


def stats(data: dict[str, Any]) -> Stats:
    known = {f.name for f in dataclasses.fields(Stats)}
    return Stats(**{k: v for k, v in data.items() if k in known})

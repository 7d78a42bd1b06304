"""The MCP tools: each one a ``Verb`` mapping its arguments (schema.py) to one engine verb, whose
``to_dict()`` comes back as structured content (results.py) plus readable text (text.py).
The tools for association, context, conversations and attention are in agent_tools.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..clock import parse_time
from ..errors import Invalid
from ..io import snapshots
from ..model import Draft
from . import agent_tools
from . import results as o
from . import schema as s
from .door import Call
from .text import (
    boot_text,
    history_text,
    line,
    lines,
    recall_text,
    sleep_text,
    snapshot_text,
    stats_text,
    strength_text,
    write_text,
)

TIMES = ("at", "expires_at", "due_at", "since", "until")


def fields(args: Any, *skip: str) -> dict[str, Any]:
    """The arguments as engine keywords: scope fields dropped, ISO times parsed."""
    out = {k: getattr(args, k) for k in type(args).model_fields
           if k not in ("user", "agent", *skip)}
    for name in TIMES:
        if out.get(name) is not None:
            out[name] = parse_time(out[name], name)
    return out


def drafts(args: s.RememberManyArgs) -> list[Draft]:
    return [Draft(**fields(item)) for item in args.items]


def listed(c: Call, a: s.ListArgs) -> dict[str, Any]:
    kw = fields(a)
    records = list(c.me.list(**kw))
    total = c.me.count(kind=kw["kind"], uri_prefix=kw["uri_prefix"], since=kw["since"],
                       until=kw["until"], layer=kw["layer"])
    return {"memories": [r.to_dict() for r in records], "total": total}


def snapshot(c: Call, a: s.SnapshotArgs) -> dict[str, Any]:
    mem, folder = c.me.memory, c.door.snapshot_folder()
    scope = {"user": c.me.user, "agent": c.me.agent}
    if a.action == "take":
        return {"action": "take", "snapshots": [snapshots.take(mem, folder, **scope).to_dict()]}
    if a.action == "list":
        found = snapshots.listing(mem, folder, **scope)
        return {"action": "list", "snapshots": [i.to_dict() for i in found]}
    if not a.name:
        raise Invalid("restore needs the name of a snapshot (see action 'list')")
    info = [i for i in snapshots.listing(mem, folder, **scope) if i.name == a.name]
    restored = snapshots.restore(mem, folder, a.name, **scope)
    return {"action": "restore", "snapshots": [i.to_dict() for i in info],
            "restored": restored}


@dataclass(frozen=True)
class Verb:
    """One tool: its arguments, its result schema, the engine call, and its readable text.
    To add a verb, append one Verb (and its Args/Out models in schema.py and results.py)."""

    name: str
    doc: str
    args: type[s.Args]
    out: type[o.Out]
    run: Callable[[Call, Any], dict[str, Any]]
    text: Callable[[dict[str, Any]], str]
    read_only: bool = False
    destructive: bool = False


def _one(c: Call, a: Any) -> dict[str, Any]:
    return c.me.get(a.id).to_dict()


VERBS: list[Verb] = [
    Verb("remember", "Remember one memory (fact, preference, event, ...). Says what the write "
         "did: add, update (same URI or same slot), supersede (a newer value), noop "
         "(already known) or reject (nothing stored), and why.",
         s.RememberArgs, o.WriteOut, lambda c, a: c.me.remember(**fields(a)).to_dict(),
         write_text),
    Verb("remember_many", "Remember several memories in one transaction; one invalid item "
         "rejects them all and nothing is written.",
         s.RememberManyArgs, o.WritesOut,
         lambda c, a: {"results": [r.to_dict() for r in c.me.remember_many(drafts(a))]},
         lambda r: "\n".join(write_text(x) for x in r["results"])),
    Verb("recall", "Find the memories that best answer a query (hybrid BM25 + dense + "
         "metadata, English and 中文), best first, each with its score and why. Tracked "
         "recalls strengthen what they return.",
         s.RecallArgs, o.RecallOut,
         lambda c, a: c.me.recall(a.query, a.k, track=a.track, preset=a.preset,
                                  kinds=a.kinds).to_dict(), recall_text),
    Verb("get", "One memory by id or URI (core://user/name).", s.RefArgs, o.MemoryOut, _one,
         line, read_only=True),
    Verb("list", "List memories with filters (kind, URI prefix, time, layer), oldest first "
         "unless newest_first, a page at a time (limit, offset); total counts every page.",
         s.ListArgs, o.ListOut, listed,
         lambda r: lines(r["memories"], "no memories") + f"\n({len(r['memories'])} of "
         f"{r['total']})", read_only=True),
    Verb("update", "Change fields of a memory in place, as a new version.", s.UpdateArgs,
         o.MemoryOut, lambda c, a: c.me.update(**{"memory_id": a.id, **fields(a, "id")})
         .to_dict(), line),
    Verb("forget", "Forget a memory: it leaves every search and `restore` brings it back. "
         "hard=true erases it for good (content and history; a tombstone stays).",
         s.ForgetArgs, o.MemoryOut,
         lambda c, a: c.me.forget(a.id, hard=a.hard, reason=a.reason).to_dict(),
         lambda r: f"{'erased' if not r['content'] else 'forgot'} {r['id']}", destructive=True),
    Verb("restore", "Bring a forgotten or archived memory back.", s.RestoreArgs, o.MemoryOut,
         lambda c, a: c.me.restore(a.id).to_dict(), lambda r: f"restored {line(r)}"),
    Verb("history", "Every version of a memory, oldest first, with what changed it, who and "
         "why; a superseded fact shows its whole chain (Lisbon -> Berlin -> Oslo).",
         s.RefArgs, o.HistoryOut,
         lambda c, a: {"versions": [v.to_dict() for v in c.me.history(a.id)]}, history_text,
         read_only=True),
    Verb("rollback", "Make a memory say again what one of its versions said, as a new "
         "version (see history for the numbers).", s.RollbackArgs, o.MemoryOut,
         lambda c, a: c.me.rollback(a.id, a.version, reason=a.reason).to_dict(),
         lambda r: f"now version {r['version']}: {line(r)}"),
    Verb("boot", "What an agent loads at start: identity (P0) memories, core://agent/ and "
         "core://user/ memories, then the URIs listed at system://boot, within a token "
         "budget.", s.BootArgs, o.BootOut, lambda c, a: c.me.boot(a.budget).to_dict(),
         boot_text, read_only=True),
    Verb("sleep", "Maintenance: sync, decay (archive what grew weak), tidy (expired, "
         "overdue), govern; or one phase. Reports what each phase changed.",
         s.SleepArgs, o.SleepOut, lambda c, a: c.me.sleep(a.phase).to_dict(), sleep_text),
    Verb("status", "Counts by layer and kind, events, the embedder and the store.",
         s.NoArgs, o.StatsOut, lambda c, a: c.me.stats().to_dict(), stats_text,
         read_only=True),
    Verb("explain", "Why a memory weighs what it weighs: layer, retention, uses, half-life "
         "and weight.", s.RefArgs, o.StrengthOut, lambda c, a: c.me.explain(a.id).to_dict(),
         strength_text, read_only=True),
    Verb("snapshot", "Snapshots of the whole scope: take one, list them (newest first), or "
         "restore one (everything the scope holds is replaced by it, in one transaction).",
         s.SnapshotArgs, o.SnapshotOut, snapshot, snapshot_text, destructive=True),
]
VERBS += [Verb(name, doc, args, out, run, text, read_only=ro, destructive=de)
          for name, doc, args, out, run, text, ro, de in agent_tools.TABLE]

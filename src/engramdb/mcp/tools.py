"""The MCP tools: each one a ``Verb`` mapping its arguments (schema.py) to one engine verb, whose
``to_dict()`` comes back as structured content (results.py) plus readable text (text.py).
The tools for association, context, conversations and attention are in agent_tools.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import Invalid
from ..io import snapshots
from ..model import Draft
from . import agent_tools
from . import results as o
from . import schema as s
from .door import Call
from .text import (
    boot_text,
    confirm_text,
    entity_text,
    history_text,
    line,
    lines,
    profile_text,
    recall_text,
    review_text,
    sleep_text,
    snapshot_text,
    stats_text,
    still_true_text,
    strength_text,
    write_text,
)


def fields(args: Any, *skip: str) -> dict[str, Any]:
    """The arguments as engine keywords, scope fields dropped; times stay ISO 8601 text, which
    the engine reads as every door does (clock.aware: no time zone is UTC)."""
    return {k: getattr(args, k) for k in type(args).model_fields
            if k not in ("user", "agent", *skip)}


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
    return c.me.get(a.id, reveal=a.reveal).to_dict()


VERBS: list[Verb] = [
    Verb("remember", "Save one thing worth knowing in a later conversation: a fact about the "
         "user, a preference, an event, a rule to follow, a pending task. Use the user's own "
         "words (any language), one memory per call; give `kind` when you know it. For a "
         "value that has one current answer, give a `uri` such as core://user/city: "
         "remembering it again replaces the value and keeps the old one in history. Returns "
         "what happened: add, update, supersede, noop (already known) or reject (not stored, "
         "with why).",
         s.RememberArgs, o.WriteOut, lambda c, a: c.me.remember(**fields(a)).to_dict(),
         write_text),
    Verb("remember_many", "Remember several memories in one transaction; one invalid item "
         "rejects them all and nothing is written.",
         s.RememberManyArgs, o.WritesOut,
         lambda c, a: {"results": [r.to_dict() for r in c.me.remember_many(drafts(a))]},
         lambda r: "\n".join(write_text(x) for x in r["results"])),
    Verb("recall", "Search long-term memory before you answer anything that depends on the "
         "user's past, preferences or earlier work. Ask in plain words (English, 中文); "
         "time words (\"last May\", \"before 2024\") narrow the search. Returns the best "
         "matches first, each with its id (for get, update, forget) and score; `abstained` "
         "with a note when nothing fits. Found memories get stronger.",
         s.RecallArgs, o.RecallOut,
         lambda c, a: c.me.recall(a.query, a.k, track=a.track, preset=a.preset,
                                  kinds=a.kinds, uri_prefix=a.uri_prefix, reveal=a.reveal,
                                  keywords=a.keywords, time_context=a.time_context,
                                  relevance_floor=c.me.memory.config.answer_floor,
                                  include_cold=a.include_cold)
         .to_dict(), recall_text),
    Verb("get", "Read one memory in full, by the id a recall returned or by its URI "
         "(core://user/name).", s.GetArgs, o.MemoryOut, _one,
         line, read_only=True),
    Verb("list", "List memories with filters (kind, URI prefix, time, layer), oldest first "
         "unless newest_first, a page at a time (limit, offset); total counts every page.",
         s.ListArgs, o.ListOut, listed,
         lambda r: lines(r["memories"], "no memories") + f"\n({len(r['memories'])} of "
         f"{r['total']})", read_only=True),
    Verb("update", "Correct a memory when the user says it is wrong or has changed: its id "
         "and the new content (or other fields). The old text stays in its history.",
         s.UpdateArgs,
         o.MemoryOut, lambda c, a: c.me.update(**{"memory_id": a.id, **fields(a, "id")})
         .to_dict(), line),
    Verb("forget", "Forget a memory the user wants gone or that is simply wrong: it leaves "
         "every search (it can be restored). hard=true erases it for good, content and "
         "history: only when the user asks for that.",
         s.ForgetArgs, o.MemoryOut,
         lambda c, a: c.me.forget(a.id, hard=a.hard, reason=a.reason).to_dict(),
         lambda r: f"{'erased' if not r['content'] else 'forgot'} {r['id']}", destructive=True),
    Verb("feedback", "Say whether a memory you recalled helped: useful=true strengthens it, "
         "useful=false weakens it, so what helps comes first next time.", s.FeedbackArgs,
         o.FeedbackOut, lambda c, a: c.me.feedback(a.id, a.useful).to_dict(),
         lambda r: f"{'strengthened' if r['useful'] else 'weakened'} {r['id']}: importance "
                   f"{r['importance_before']:.2f} -> {r['importance']:.2f}"),
    Verb("restore", "Bring a forgotten or archived memory back.", s.RestoreArgs, o.MemoryOut,
         lambda c, a: c.me.restore(a.id).to_dict(), lambda r: f"restored {line(r)}"),
    Verb("history", "Every version of a memory, oldest first, with what changed it, who and "
         "why; a superseded fact shows its whole chain (Lisbon -> Berlin -> Oslo).",
         s.GetArgs, o.HistoryOut,
         lambda c, a: {"versions": [v.to_dict() for v in c.me.history(a.id, reveal=a.reveal)]},
         history_text,
         read_only=True),
    Verb("rollback", "Make a memory say again what one of its versions said, as a new "
         "version (see history for the numbers).", s.RollbackArgs, o.MemoryOut,
         lambda c, a: c.me.rollback(a.id, a.version, reason=a.reason).to_dict(),
         lambda r: f"now version {r['version']}: {line(r)}"),
    Verb("boot", "Call once at the start of a conversation: who the user is, your standing "
         "rules and the core facts to keep in mind, within `budget` tokens; also memories "
         "due for review and warnings about the profile.", s.BootArgs, o.BootOut,
         lambda c, a: c.me.boot(a.budget).to_dict(), boot_text, read_only=True),
    Verb("sleep", "Maintenance: sync, decay (archive what grew weak), tidy (expired, "
         "overdue), lessons (old lessons become rules), consolidate (merge duplicates, "
         "gists), govern; or one phase. Incremental after the first unless full. Reports "
         "what each phase changed.",
         s.SleepArgs, o.SleepOut, lambda c, a: c.me.sleep(a.phase, full=a.full).to_dict(),
         sleep_text),
    Verb("reflect", "The same maintenance as sleep (the design's name for it).",
         s.SleepArgs, o.SleepOut, lambda c, a: c.me.reflect(a.phase, full=a.full).to_dict(),
         sleep_text),
    Verb("due_for_review", "The memories most in need of review now (FSRS over their uses), "
         "least retrievable first: bring them up, and a recall that finds one counts as a "
         "review.", s.ReviewArgs, o.ReviewsOut,
         lambda c, a: {"reviews": [r.to_dict() for r in c.me.due_for_review(a.k)]},
         review_text, read_only=True),
    Verb("review_queue", "Facts and preferences gone unconfirmed for long (the \"still "
         "true?\" queue), the longest overdue first: ask the user whether each still holds, "
         "then confirm it, update it or forget it.", s.ReviewArgs, o.StillTrueQueueOut,
         lambda c, a: {"queue": [x.to_dict() for x in c.me.review_queue(a.k)]},
         still_true_text, read_only=True),
    Verb("confirm", "Say that a memory still holds (the user confirmed it): it leaves the "
         "\"still true?\" queue until its period passes again; with `content`, in these "
         "words now.", s.ConfirmArgs, o.StillTrueOut,
         lambda c, a: c.me.confirm(a.id, content=a.content).to_dict(), confirm_text),
    Verb("profile_check", "The profile's (MEMORY.md) size against its token budget and its "
         "open pending items, with the warnings they give.", s.ProfileArgs,
         o.ProfileCheckOut, lambda c, a: c.me.profile_check(a.budget).to_dict(),
         profile_text, read_only=True),
    Verb("entity", "Everything remembered about one person, place, project or topic: its "
         "aliases, first and last seen, the facts that hold now, recent events and how its "
         "facts changed.", s.EntityArgs, o.EntityOut,
         lambda c, a: c.me.entity(a.name).to_dict(), entity_text, read_only=True),
    Verb("status", "How much is remembered (counts by kind and layer, events), the "
         "embedder and the store: a cheap check that memory works.",
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

"""The MCP tools for association, context, conversations, working memory and attention.

Each row of ``TABLE`` becomes one ``tools.Verb``: a name, a description, its argument and
result models (schema.py, results.py), the engine call and its readable text (text.py). Like
tools.py, nothing
here decides anything: arguments map to one engine verb, its ``to_dict()`` comes back.
Actions that take a field the others do not (goal, session, procedure) leave the check to
the engine, which says what is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Invalid
from . import results as o
from . import schema as s
from .text import (
    context_text,
    focus_text,
    goals_text,
    hits_text,
    ingest_text,
    links_text,
    memories_text,
    procedures_text,
    session_text,
)

Row = tuple[str, str, type[s.Args], type[o.Out], Callable[[Any, Any], dict[str, Any]],
            Callable[[dict[str, Any]], str], bool, bool]


def _need(value: Any, what: str, action: str) -> Any:
    if value is None:
        raise Invalid(f"{action} needs {what}")
    return value


# ---------------------------------------------------------------- association


def link(c: Any, a: s.LinkArgs) -> dict[str, Any]:
    return c.me.link(a.source, a.target, a.relation, a.weight).to_dict()


def unlink(c: Any, a: s.UnlinkArgs) -> dict[str, Any]:
    return {"links": [], "removed": c.me.unlink(a.source, a.target, a.relation)}


# ---------------------------------------------------------------- context and conversations


def context(c: Any, a: s.ContextArgs) -> dict[str, Any]:
    return c.me.context(a.query, a.budget, session=a.session, k=a.k, track=a.track,
                        encoding=a.encoding).to_dict()


def ingest(c: Any, a: s.IngestArgs) -> dict[str, Any]:
    messages = [{k: v for k, v in m.model_dump().items() if v is not None} for m in a.messages]
    return c.me.ingest(messages, session=a.session, at=a.at, extractor=a.extractor,
                       keep_turns=a.keep_turns).to_dict()


# ---------------------------------------------------------------- attention


def goal(c: Any, a: s.GoalArgs) -> dict[str, Any]:
    me, act = c.me, a.action
    if act == "list":
        found = me.goals(a.status)
    elif act == "start":
        found = [me.goal_start(_need(a.title, "a title", act), constraints=a.constraints,
                               open_loops=a.open_loops)]
    elif act == "pause":
        found = [me.goal_pause(a.id)]
    elif act == "resume":
        found = [me.goal_resume(_need(a.id, "the goal's id", act))]
    elif act == "done":
        found = [me.goal_done(a.id, evidence=a.evidence)]
    else:
        found = [me.goal_note(a.id, evidence=a.evidence, open_loops=a.open_loops,
                              close_loops=a.close_loops, constraints=a.constraints)]
    active = me.active_goal()
    return {"action": act, "goals": [g.to_dict() for g in found],
            "active": active.to_dict() if active else None}


def session(c: Any, a: s.SessionArgs) -> dict[str, Any]:
    me, act = c.me, a.action
    if act == "list":
        return {"action": act, "sessions": me.sessions()}
    sid = _need(a.id, "a session id", act)
    if act == "add":  # checked before the session is opened (and created)
        role, content = _need(a.role, "a role", act), _need(a.content, "content", act)
        with me.memory.store.transaction():  # a turn refused creates no session
            wm = me.session(sid)
            turn = wm.add(role, content, pin=a.pin)
        return {"action": act, "turn": turn.to_dict(), "session": wm.to_dict()}
    wm = me.session(sid, create=False)
    if act == "end":
        return {"action": act, "handover": wm.end().to_dict()}
    if act == "fetch":
        return {"action": act, "content": wm.fetch(_need(a.ref, "a ref (wm-...)", act))}
    return {"action": act, "session": wm.to_dict()}


def procedure(c: Any, a: s.ProcedureArgs) -> dict[str, Any]:
    me, act = c.me, a.action
    if act == "list":
        found = me.procedures()
    elif act == "add":
        found = [me.add_procedure(_need(a.title, "a title", act),
                                  _need(a.steps, "steps", act),
                                  _need(a.triggers, "triggers", act), confidence=a.confidence)]
    elif act == "outcome":
        found = [me.procedure_outcome(_need(a.id, "the procedure's id", act),
                                      _need(a.success, "success", act))]
    else:
        found = me.triggered_procedures(a.query or "")
    return {"action": act, "procedures": [p.to_dict() for p in found]}


def markdown(c: Any, a: s.MarkdownArgs) -> dict[str, Any]:
    text = c.me.export_memory_md(uris=a.uris) if a.format == "memory-md" else c.me.agents_md()
    return {"format": a.format, "text": text}


# ---------------------------------------------------------------- the table

TABLE: list[Row] = [
    ("link", "Link two memories (related, caused, reminds, evolved, contradicts, ...); "
     "linking them again with the same relation updates its weight.",
     s.LinkArgs, o.LinkOut, link,
     lambda r: f"{r['source']} -{r['relation']} ({r['weight']})-> {r['target']}", False, False),
    ("unlink", "Remove the links between two memories, both ways (one relation or all).",
     s.UnlinkArgs, o.LinksOut, unlink, links_text, False, True),
    ("links", "Every link from or to a memory.", s.RefArgs, o.LinksOut,
     lambda c, a: {"links": [x.to_dict() for x in c.me.links(a.id)]}, links_text, True, False),
    ("related", "Memories linked to this one (both ways, up to `hops` links away), strongest "
     "path first.", s.RelatedArgs, o.PathHitsOut,
     lambda c, a: {"hits": [h.to_dict() for h in c.me.related(a.id, a.hops)]}, hits_text,
     True, False),
    ("recall_path", "The memory at a URI, or every memory under a prefix ending in /, then "
     "what is linked to them (hops).", s.PathArgs, o.PathHitsOut,
     lambda c, a: {"hits": [h.to_dict() for h in c.me.recall_path(a.uri, a.hops)]},
     hits_text, True, False),
    ("context", "The block to put in the prompt at the start of a turn, within a token "
     "budget: identity, rules, active goal, triggered procedures, relevant memories with "
     "dates, a session's summary and recent turns; lists what was cut.",
     s.ContextArgs, o.ContextOut, context, context_text, False, False),
    ("ingest", "Read a conversation (role, content, at): keep its turns as events and extract "
     "facts, preferences, lessons, pending items and dated episodes, each linked to its turn; "
     "one transaction.", s.IngestArgs, o.IngestOut, ingest, ingest_text, False, False),
    ("sources", "The conversation turns a memory was extracted from.", s.RefArgs,
     o.MemoriesOut, lambda c, a: {"memories": [m.to_dict() for m in c.me.sources(a.id)]},
     memories_text, True, False),
    ("focus", "The attention workspace for a query: the active goal, triggered procedures, "
     "the memories chosen by the attention score and every candidate's breakdown.",
     s.FocusArgs, o.WorkspaceOut,
     lambda c, a: c.me.focus(a.query, a.k, track=a.track).to_dict(), focus_text, False, False),
    ("goal", "The goal stack: start, pause, resume, done, note (evidence, open and closed "
     "loops), list. One goal is active at a time.", s.GoalArgs, o.GoalsOut, goal, goals_text,
     False, False),
    ("session", "Working memory: add a turn, show the window (within its token budget), end "
     "the session (its turns go to long-term memory), fetch an offloaded turn, list sessions.",
     s.SessionArgs, o.SessionOut, session, session_text, False, False),
    ("procedure", "Procedures: add (steps and trigger words), list, record an outcome "
     "(confidence follows), or the ones a query triggers.", s.ProcedureArgs, o.ProceduresOut,
     procedure, procedures_text, False, False),
    ("learn", "Learn from a mistake: keep the rule that avoids it (a rule memory; the same "
     "rule again is not added twice).", s.LearnArgs, o.LearnOut,
     lambda c, a: c.me.learn_from_mistake(a.mistake, a.rule).to_dict(),
     lambda r: f"{'learned' if r['added'] else 'already known'}: {r['rule']}", False, False),
    ("markdown", "The scope as MEMORY.md (zoned profile) or its rules as an AGENTS.md block.",
     s.MarkdownArgs, o.MarkdownOut, markdown, lambda r: r["text"] or "(empty)", True, False),
]

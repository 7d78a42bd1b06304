"""Evaluate a turn, remember it as an experience episode, and consolidate experiences.

An experience is an event memory at ``system://agent/experience/<id>`` (metadata
``agent_trace: "experience"`` and ``experience``: situation, action, result, reward, success,
lesson, strategy, tools, failures, used memory ids, language), linked (``derived_from``) to
every memory the turn used. It is a runtime trace, kept apart from the user's words by that URI
prefix and metadata: the agent's ``recall`` tool leaves traces out, and a caller can do the same
with ``is_trace``.

Consolidation runs at the end of every turn (and in ``Agent.sleep``): the same strategy (the
same sequence of tools) succeeding ``SUCCESS_REPEAT`` times becomes a procedure (triggers: the
words its situations share); once it exists, every later turn with that strategy records its
outcome on the procedure. The same tool failing with the same kind of error
``FAILURE_REPEAT`` times becomes a learned rule (``learn_from_mistake``, which keeps a rule
once)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..attention.procedures import slug
from ..ids import new_id
from ..model import Kind, Record, Scope
from ..store.protocol import ListFilter
from ..text.tokenize import tokenize
from .result import Evaluation, Step
from .state import PREFIX
from .texts import (
    EXPERIENCE,
    LESSON_PLAN,
    LESSON_STEPS,
    LESSON_SUFFIX,
    LESSON_TOOL,
    PROCEDURE_TITLE,
    REFLECTION,
    RULE_FROM_FAILURES,
)

if TYPE_CHECKING:
    from ..engine import Memory

EXPERIENCES = PREFIX + "experience/"
SUCCESS_REPEAT, FAILURE_REPEAT = 3, 2
RECENT = 200           # experiences consolidation looks at
CLIP = 200             # characters of the situation and result kept in the content
DIRECT = "answer"      # the strategy of a turn that used no tool


def is_trace(rec: Record) -> bool:
    """A runtime trace of the agent (experience, belief, persona, question, reflection)."""
    return bool(rec.uri and rec.uri.startswith(PREFIX)) or "agent_trace" in rec.metadata


def evaluate(steps: Sequence[Step], ended: str, why: str, lang: str,
             max_steps: int) -> Evaluation:
    """``ended``: answer | finish | fallback | fallback_infra | limit."""
    ran = [s for s in steps if s.kind == "tool"]
    failed = [s for s in ran if not s.ok]
    tools = [s.tool for s in ran if s.ok]
    failures = [{"tool": s.tool, "error": s.error, "args": str(s.args)[:80]} for s in failed]
    refused = sum(1 for s in steps if s.kind == "refused")
    success = ended in ("answer", "finish")
    if success:
        reward = max(0.25, 1.0 - 0.25 * len(failed) - 0.1 * refused)
    else:
        reward = {"fallback_infra": -0.5, "limit": -0.75}.get(ended, -1.0)
    lesson = ""
    if failed:
        s = failed[0]
        lesson = LESSON_TOOL[lang].format(tool=s.tool, error=s.error, args=str(s.args)[:80])
    elif ended == "fallback":
        lesson = LESSON_PLAN[lang].format(why=why)
    elif ended == "limit":
        lesson = LESSON_STEPS[lang].format(n=max_steps)
    return Evaluation(success, round(reward, 4), lesson, " -> ".join(tools) or DIRECT, tools,
                      failures)


def remember(memory: Memory, scope: Scope, situation: str, result: str, ev: Evaluation,
             used: Sequence[str], lang: str, steps: Sequence[Step]) -> Record:
    """Store the episode and link it to the memories it used."""
    lesson = LESSON_SUFFIX[lang].format(lesson=ev.lesson) if ev.lesson else ""
    content = EXPERIENCE[lang].format(situation=_clip(situation), action=ev.strategy,
                                      result=_clip(result), reward=ev.reward, lesson=lesson)
    meta = {"agent_trace": "experience", "experience": {
        "situation": situation[:1000], "action": ev.strategy, "result": result[:1000],
        "reward": ev.reward, "success": ev.success, "lesson": ev.lesson,
        "strategy": ev.strategy, "tools": ev.tools, "failures": ev.failures,
        "used": list(used), "lang": lang, "steps": [s.brief() for s in steps]}}
    # an episode's priority (P3), not its URI domain's (system://, P0): an experience fades as
    # episodes do and is not loaded at boot, nor shown as Identity in every context block
    rec = memory.remember(content, kind=Kind.EVENT, uri=EXPERIENCES + new_id(memory._now()),
                          importance=0.3, metadata=meta, priority="P3", user=scope.user,
                          agent=scope.agent).memory
    for mid in dict.fromkeys(used):
        rec_used = memory.store.get(scope, mid)
        if rec_used is not None and rec_used.current and rec_used.id != rec.id:
            memory.link(rec.id, mid, "derived_from", 0.5, user=scope.user, agent=scope.agent)
    return rec


def experiences(memory: Memory, scope: Scope) -> list[dict[str, Any]]:
    """The recent experience episodes (metadata ``experience``), oldest first."""
    recs = sorted(memory.store.list(scope, ListFilter(uri_prefix=EXPERIENCES,
                                                      current_only=True)),
                  key=lambda r: (r.recorded_at, r.id))
    return [{**r.metadata.get("experience", {}), "id": r.id} for r in recs[-RECENT:]]


def consolidate(memory: Memory, scope: Scope, lang: str,
                latest: Evaluation | None = None) -> dict[str, list[str]]:
    """Procedures from repeated successes, rules from repeated failures; what was done."""
    done: dict[str, list[str]] = {"procedures": [], "outcomes": [], "rules": []}
    past = experiences(memory, scope)
    _procedures(memory, scope, past, lang, latest, done)
    _rules(memory, scope, past, lang, done)
    return done


def _procedures(memory: Memory, scope: Scope, past: list[dict[str, Any]], lang: str,
                latest: Evaluation | None, done: dict[str, list[str]]) -> None:
    wins: dict[str, list[dict[str, Any]]] = {}
    for e in past:
        if e.get("success") and e.get("tools"):
            wins.setdefault(str(e.get("strategy")), []).append(e)
    for strategy, group in wins.items():
        title = PROCEDURE_TITLE[group[-1].get("lang", lang)].format(tools=strategy)
        uri = "procedure://" + slug(title)
        exists = memory.store.get_by_uri(scope, uri) is not None
        if not exists and len(group) >= SUCCESS_REPEAT:
            memory.add_procedure(title, [str(t) for t in group[-1]["tools"]],
                                 _triggers(group), user=scope.user, agent=scope.agent)
            done["procedures"].append(title)
        elif exists and latest is not None and latest.strategy == strategy:
            memory.procedure_outcome(uri, latest.success, user=scope.user, agent=scope.agent)
            done["outcomes"].append(title)


def _triggers(group: list[dict[str, Any]]) -> list[str]:
    """Words every situation of the group shares (else the commonest), at most five."""
    words = [set(tokenize(str(e.get("situation", "")))) for e in group]
    shared = set.intersection(*words) if words else set()
    counts = Counter(w for ws in words for w in ws)
    ranked = sorted(shared or {w for w, n in counts.items() if n > 1},
                    key=lambda w: (-counts[w], w))
    return ranked[:5] or [str(t) for t in group[-1].get("tools", [])][:5]


def _rules(memory: Memory, scope: Scope, past: list[dict[str, Any]], lang: str,
           done: dict[str, list[str]]) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    lesson: dict[tuple[str, str], str] = {}
    for e in past:
        for f in e.get("failures") or []:
            key = (str(f.get("tool")), _error_kind(str(f.get("error"))))
            counts[key] += 1
            lesson[key] = str(e.get("lesson") or f.get("error"))
    for (tool, kind), n in counts.items():
        if n >= FAILURE_REPEAT:
            # worded with the threshold, not the count: the same rule is kept once
            rule = RULE_FROM_FAILURES[lang].format(tool=tool, n=FAILURE_REPEAT, error=kind)
            learned = memory.learn_from_mistake(lesson[(tool, kind)], rule, user=scope.user,
                                                agent=scope.agent)
            if learned.added:
                done["rules"].append(rule)


def _error_kind(error: str) -> str:
    return error.split(":", 1)[0].strip()[:60] or "error"


def reflection_text(past: list[dict[str, Any]], lang: str, n: int = 20) -> str | None:
    recent = past[-n:]
    if not recent:
        return None
    ok = sum(1 for e in recent if e.get("success"))
    mean = sum(float(e.get("reward", 0.0)) for e in recent) / len(recent)
    lessons = list(dict.fromkeys(str(e["lesson"]) for e in recent if e.get("lesson")))[-2:]
    return REFLECTION[lang].format(n=len(recent), ok=ok, bad=len(recent) - ok, mean=mean,
                                   lessons=(" " + " ".join(lessons)) if lessons else "")


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLIP else text[: CLIP - 1] + "…"

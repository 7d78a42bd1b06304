"""A reflection note after each action: its outcome, the insight drawn from it, how uncertain
the agent is now, and the next question it leaves.

Actions are the planner's choices that the loop carries out: a tool call, a refused finish, the
answer (or ``finish``) and a fallback. A note is built from the action's structured outcome,
never from its wording:

- a tool call: ok or the error, time and output tokens; the insight compares the outcome with
  the tool's prior before the call (as predicted, or against it, with the predicted success
  before and after) and names the beliefs the output confirmed or contradicted; uncertainty is
  the tool's prior uncertainty after the call, or more where a belief was contradicted (1 minus
  its new confidence); the question asks which value is right (a contradiction), what must hold
  before the tool is called again (a failure), or where else to look (an empty output);
- a refusal, the answer, a fallback: the turn's actions so far; uncertainty is the posterior
  chance of a bad action, (bad + 1) / (actions + 2).

When the planner gave a rationale (an LLM's ``rationale``), the insight starts with it. Every
text is in the turn's language. One event memory per note at ``system://agent/note/<id>``
(metadata ``note``); the cognitive state shows the last ``SHOWN``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ids import new_id
from ..model import Kind, Record, Scope
from ..store.protocol import ListFilter
from .priors import Prior
from .result import Step
from .texts import NOTE, NOTE_TEXTS
from .tools import Outcome
from .uris import PREFIX

if TYPE_CHECKING:
    from ..engine import Memory

NOTES = PREFIX + "note/"
SHOWN = 3
ACTIONS = ("tool", "refused", "answer", "fallback")   # the step kinds that are actions


@dataclass(frozen=True)
class Note:
    step: int
    action: str          # the tool's name, or answer | finish | refused | fallback
    ok: bool
    outcome: str
    insight: str
    uncertainty: float
    question: str
    lang: str = "en"
    id: str = ""

    def text(self) -> str:
        return NOTE[self.lang].format(outcome=self.outcome, insight=self.insight,
                                      u=self.uncertainty, question=self.question)

    def meta(self) -> dict[str, Any]:
        return {"step": self.step, "action": self.action, "ok": self.ok,
                "outcome": self.outcome, "insight": self.insight,
                "uncertainty": round(self.uncertainty, 4), "question": self.question,
                "lang": self.lang}

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, **self.meta()}

    @classmethod
    def from_record(cls, rec: Record) -> Note:
        m = rec.metadata.get("note") or {}
        return cls(int(m.get("step", 0)), str(m.get("action", "")), bool(m.get("ok")),
                   str(m.get("outcome", "")), str(m.get("insight", "")),
                   float(m.get("uncertainty", 0.5)), str(m.get("question", "")),
                   str(m.get("lang", "en")), rec.id)


def after_tool(out: Outcome, before: Prior, after: Prior, seconds: float, tokens: int,
               beliefs: Sequence[dict[str, Any]], rationale: str, step: int,
               lang: str) -> Note:
    """The note on one tool call. ``before``/``after``: the tool's prior around it;
    ``beliefs``: what the output did to the beliefs (state.meet)."""
    t, tool = NOTE_TEXTS[lang], out.tool
    empty = out.ok and out.output in (None, "", [], {})
    if not out.ok:
        outcome = t["failed"].format(tool=tool, error=out.error)
    else:
        outcome = t["empty" if empty else "ok"].format(tool=tool, secs=seconds, tokens=tokens)
    insight = [t["because"].format(rationale=rationale)] if rationale else []
    if before.calls == 0:
        insight.append(t["first"].format(tool=tool, after=after.success))
    else:
        expected = (before.success >= 0.5) == out.ok
        key = ("ok_" if out.ok else "fail_") + ("expected" if expected else "surprise")
        insight.append(t[key].format(tool=tool, before=before.success, after=after.success))
    insight += [t["contradicts" if c["contradicted"] else "confirms"].format(**c)
                for c in beliefs]
    contradicted = [c for c in beliefs if c["contradicted"]]
    uncertainty = max([after.uncertainty] + [1 - c["confidence"] for c in contradicted])
    if contradicted:
        question = t["q_which"].format(**contradicted[0])
    elif not out.ok:
        question = t["q_failed"].format(tool=tool, kind=out.error.split(":", 1)[0][:60])
    elif empty:
        question = t["q_empty"].format(tool=tool, args=_args(out.args))
    else:
        question = t["q_none"]
    sep = "；" if lang == "zh" else "; "
    return Note(step, tool, out.ok, outcome, sep.join(insight), uncertainty, question, lang)


def after_end(kind: str, steps: Sequence[Step], used: int, detail: str, rationale: str,
              lang: str) -> Note:
    """The note on a refusal (``detail``: the missing tools), the answer or ``finish``
    (``used``: memories it rests on) or a fallback (``detail``: why), the last of ``steps``."""
    t = NOTE_TEXTS[lang]
    acts = [s for s in steps if s.kind in ACTIONS]
    bad = [s for s in acts if not s.ok]
    calls = [s for s in acts if s.kind == "tool"]
    failed = list(dict.fromkeys(s.tool for s in calls if not s.ok))
    insight = [t["because"].format(rationale=rationale)] if rationale else []
    if kind == "refused":
        outcome, question = t["refused"].format(missing=detail), t["q_refused"].format(
            missing=detail)
        insight.append(t["needs"].format(missing=detail))
    elif kind == "fallback":
        outcome, question = t["fell_back"].format(why=detail), t["q_fallback"]
        insight.append(t["no_action"].format(n=len(acts)))
    else:
        outcome = t["answered"].format(n=len(acts))
        question = t["q_answer"].format(tools=", ".join(failed)) if failed else t["q_none"]
        insight.append(t["turn"].format(ok=len(calls) - len([s for s in calls if not s.ok]),
                                        n=len(calls), used=used))
    sep = "；" if lang == "zh" else "; "
    return Note(steps[-1].n if steps else 0, kind, kind in ("answer", "finish"), outcome,
                sep.join(insight), (len(bad) + 1) / (len(acts) + 2), question, lang)


def _args(args: dict[str, Any]) -> str:
    text = ", ".join(f"{k}={v}" for k, v in args.items())
    return text if len(text) <= 80 else text[:79] + "…"


def save(memory: Memory, scope: Scope, note: Note) -> Note:
    rec = memory.remember(note.text(), kind=Kind.EVENT, uri=NOTES + new_id(memory._now()),
                          priority="P3", importance=0.2,
                          metadata={"agent_trace": "note", "note": note.meta()},
                          user=scope.user, agent=scope.agent).memory
    return Note.from_record(rec)


def recent(memory: Memory, scope: Scope, n: int) -> list[Note]:
    """The last ``n`` notes of the scope, oldest first."""
    recs = memory.store.list(scope, ListFilter(uri_prefix=NOTES, current_only=True, limit=n,
                                               newest_first=True))
    return [Note.from_record(r) for r in reversed(list(recs))]

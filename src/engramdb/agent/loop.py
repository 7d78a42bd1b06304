"""The agent: one turn is Observe -> Goal -> Focus -> (cache) -> Plan -> Act -> Evaluate ->
Remember -> Consolidate.

- Observe: the user's message goes into the session's working memory (with ``session``) and a
  reaction to unprompted memories moves the persona; at the end of the turn it is ingested
  (turn event + rule-extracted facts) in the same transaction as the turn's record.
- Goal: ``goal`` starts that goal unless it is the active one already.
- Focus: the attention workspace (``focus``, with its audit) picks the memories the turn uses.
- Cache: a question close in meaning to one answered before, on unchanged memories, is answered
  from the semantic cache (cache.py) without the LLM. A cached answer is linked to the pending
  items and lessons its prompt showed (the context's and the cognitive state's); it is dropped
  when one of them closes.
- Plan / Act: up to ``max_steps`` planner actions. A tool runs (its result goes back to the
  planner and meets the beliefs, state.py); ``plan`` declares the tools required; ``finish``
  (or a plain answer) ends the turn unless a required tool has not run yet: then it is refused
  and the planner is told which. A fallback action (the planner could not plan) ends the turn
  with its safe answer; running out of steps ends it with a message saying so.
- After each action (a tool call, a refused finish, the answer, a fallback): the tool's prior
  (priors.py), a reflection note (notes.py) and the drives (drives.py) are written, and the
  planner's next call reads them in the cognitive state; a tool whose prior is low is flagged
  when chosen.
- Evaluate / Remember / Consolidate: success, reward and lesson (experience.py); feedback on the
  memories used (useful on success, useless on a failure that was not the endpoint's); the
  experience episode linked to them; procedures and rules from repeated outcomes. All of it in
  one transaction: a failure leaves nothing of it written and is reported in ``error``.

``turn`` raises only for bad arguments (Invalid); whatever the endpoint or a tool does, it
returns a TurnResult."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import httpx

from ..dynamics.feedback import Feedback
from ..engine import Memory, ScopedMemory
from ..errors import EngramError, Invalid
from ..model import Scope
from ..text.tokens import count_tokens
from . import drives as drv
from . import notes as nts
from . import persona as pers
from . import priors as pri
from . import selfmodel
from . import state as cog
from .builtins import install
from .cache import SemanticCache, linkable
from .experience import consolidate, evaluate, experiences, is_trace, reflection_text, remember
from .planner import Action, Done, Endpoint, Planner
from .result import Step, TurnResult
from .texts import FINISH_REFUSED, FROM_CACHE, LOW_PRIOR, STEP_LIMIT, lang_of
from .tools import CONTROL, FINISH, PLAN, ToolRegistry

MAX_STEPS_LIMIT = 50


class Agent:
    """An agent over a Memory (or a ScopedMemory: its scope is used)."""

    def __init__(self, memory: Memory | ScopedMemory, *, user: str | None = None,
                 agent: str | None = None, planner: Planner | None = None,
                 endpoint: Endpoint | None = None, mode: str = "auto", max_steps: int = 6,
                 budget: int = 1200, k: int = 8, cache: SemanticCache | bool = True,
                 observe: bool = True, client: httpx.Client | None = None) -> None:
        if isinstance(memory, ScopedMemory):
            user, agent, memory = memory.user, memory.agent, memory.memory
        self.memory: Memory = memory
        self.scope: Scope = memory._scope(user, agent)
        self.max_steps = _check_steps(max_steps)
        self.budget, self.k, self.observe = budget, k, observe
        self.planner = planner or Planner(endpoint or Endpoint.resolve(memory.config),
                                          mode=mode, client=client)
        self.tools = ToolRegistry()
        install(self.tools, memory, self.scope, lambda: self.introspect().to_dict())
        self.cache: SemanticCache | None = (SemanticCache(memory._embed_query) if cache is True
                                            else cache or None)
        self._unprompted: set[str] = set()   # memories the last context brought up unprompted
        self._cautions: list[str] = []        # this turn's choices of a tool with a low prior
        self._shown: list[str] = []   # the memories the turn's prompt showed (context, state)

    # ------------------------------------------------------------ tools and state

    def tool(self, fn: Callable[..., Any] | None = None, **kw: Any) -> Any:
        """Register a Python callable as a tool (``ToolRegistry.register``); a decorator too."""
        return self.tools.register(fn, **kw)

    def introspect(self) -> cog.CognitiveState:
        return cog.introspect(self.memory, self.scope, self.tools.names(),
                              self.persona().to_dict(), self._cautions)

    def set_mission(self, mission: str | None) -> str | None:
        """Set the self model's mission (None clears it); kept in the scope."""
        return selfmodel.set_mission(self.memory, self.scope, mission)

    def set_limits(self, limits: Sequence[str]) -> list[str]:
        """Set the self model's limits, a list of texts (an empty list clears them)."""
        return selfmodel.set_limits(self.memory, self.scope, limits)

    def drives(self) -> drv.Drives:
        """Coherence, competence and curiosity now (drives.py)."""
        return cog.drives_now(self.memory, self.scope)

    def priors(self) -> dict[str, pri.Prior]:
        """Each tool's record: calls, predicted success, mean time and output tokens."""
        return pri.load_all(self.memory, self.scope)

    def notes(self, n: int = nts.SHOWN) -> list[nts.Note]:
        """The last ``n`` reflection notes (1 to 100), oldest first."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100:
            raise Invalid(f"n must be an integer from 1 to 100, got {n!r}")
        return nts.recent(self.memory, self.scope, n)

    def believe(self, key: str, value: object, confidence: float = 0.8) -> cog.Belief:
        return cog.believe(self.memory, self.scope, key, value, confidence)

    def ask(self, question: str) -> str:
        """Keep an open question in the cognitive state."""
        return cog.ask(self.memory, self.scope, question)

    def persona(self) -> pers.Persona:
        return pers.load(self.memory, self.scope)

    def persona_feedback(self, wants_old_memories: bool) -> pers.Persona:
        """Explicit feedback: does the user want old memories brought up unprompted?"""
        if not isinstance(wants_old_memories, bool):
            raise Invalid("wants_old_memories must be true or false")
        return pers.vote(self.memory, self.scope, wants_old_memories, pers.EXPLICIT)

    def feedback(self, memory_id: str, useful: bool) -> Feedback:
        """Recall feedback (Memory.feedback); on a memory the last turn brought up unprompted
        it is also a reaction that moves the persona."""
        done = self.memory.feedback(memory_id, useful, user=self.scope.user,
                                    agent=self.scope.agent)
        if memory_id in self._unprompted:
            pers.vote(self.memory, self.scope, useful, pers.REACTION)
        return done

    def consolidate(self, lang: str = "en") -> dict[str, list[str]]:
        return consolidate(self.memory, self.scope, lang)

    def reflect(self, lang: str = "en") -> str | None:
        """Write a reflection on the recent experiences (None when there are none)."""
        text = reflection_text(experiences(self.memory, self.scope), lang)
        if text is not None:
            cog.reflect(self.memory, self.scope, text)
        return text

    def sleep(self, lang: str = "en") -> dict[str, Any]:
        """The memory's sleep, then consolidation and a reflection."""
        report = self.memory.sleep(user=self.scope.user, agent=self.scope.agent)
        return {"sleep": report, "consolidated": self.consolidate(lang),
                "reflection": self.reflect(lang)}

    # ------------------------------------------------------------ one turn

    def turn(self, message: str, *, session: str | None = None, goal: str | None = None,
             requires: Sequence[str] = (), max_steps: int | None = None) -> TurnResult:
        """Answer ``message``: see the module docstring. ``requires``: tools that must run
        before the turn may finish."""
        if not isinstance(message, str) or not message.strip():
            raise Invalid("message is empty")
        self._cautions = []
        steps_allowed = self.max_steps if max_steps is None else _check_steps(max_steps)
        required = self._check_requires(requires)
        lang = lang_of(message)
        kw = {"user": self.scope.user, "agent": self.scope.agent}
        wm = self.memory.session(session, **kw) if session is not None else None
        if wm is not None:
            wm.add("user", message)
        cue = pers.reaction(message)
        if cue is not None:
            pers.vote(self.memory, self.scope, cue, pers.REACTION)
        if goal is not None:
            active = self.memory.active_goal(**kw)
            if active is None or active.title != goal.strip():
                self.memory.goal_start(goal, **kw)
        steps: list[Step] = []
        self._shown = []
        used = self._focus(message, steps)
        hit = self.cache.lookup(self.memory.store, self.scope, message,
                                self.memory._now()) if self.cache else None
        if hit is not None:
            note = FROM_CACHE[lang].format(sim=hit.similarity, q=hit.question)
            steps.append(Step(len(steps) + 1, "cache", output=hit.answer, note=note))
            result = TurnResult(hit.answer, True, "cache", lang, steps, used=hit.supports,
                                note=note)
            self._record(result, message, session, None)
            return self._close(result, wm)
        result = self._act(message, session, lang, steps, used, required, steps_allowed)
        return self._close(result, wm)

    def _focus(self, message: str, steps: list[Step]) -> list[str]:
        ws = self.memory.focus(message, 5, user=self.scope.user, agent=self.scope.agent)
        used = [s.memory.id for s in ws.memories if not is_trace(s.memory)]
        steps.append(Step(1, "focus", data={
            "goal": ws.goal.title if ws.goal else None, "memories": used,
            "procedures": [t.procedure.title for t in ws.procedures],
            "audit": [s.to_dict() for s in ws.audit]}))
        return used

    def _context(self, message: str, session: str | None) -> str:
        proactive = self.persona().proactive
        ctx = self.memory.context(message, self.budget, session=session,
                                  k=self.k if proactive else 0, user=self.scope.user,
                                  agent=self.scope.agent)
        self._shown = list(ctx.memory_ids)
        return ctx.text

    def _act(self, message: str, session: str | None, lang: str, steps: list[Step],
             used: list[str], required: set[str], allowed: int) -> TurnResult:
        proactive = self.persona().proactive
        self._unprompted = set(used) if proactive else set()
        memories = self._context(message, session)
        done: list[Done] = []
        ran: set[str] = set()
        beliefs: list[dict[str, Any]] = []
        for _ in range(allowed):
            state = self.introspect()   # read again each step: priors, notes, drives move
            self._shown += [i for i in state.sources if i not in self._shown]
            context = memories + "\n\n" + state.lines(lang)
            action = self.planner.plan(context, message, done, self.tools, lang,
                                       priors={p.tool: p for p in state.priors})
            n = len(steps) + 1
            if action.kind == "fallback":
                steps.append(Step(n, "fallback", ok=False, error=action.error,
                                  output=action.text, data=action.to_dict()))
                ended = "fallback_infra" if action.infra else "fallback"
                return self._end(message, session, lang, steps, used, ended, action.text,
                                 action.error, beliefs, allowed)
            final = action.text if action.kind == "answer" else (
                str(action.args.get("answer", "")) if action.tool == FINISH else None)
            if final is not None:
                missing = sorted(required - ran)
                if not missing:
                    steps.append(Step(n, "answer", tool=action.tool, output=final,
                                      data=action.to_dict()))
                    return self._end(message, session, lang, steps, used,
                                     "finish" if action.tool == FINISH else "answer", final,
                                     "", beliefs, allowed)
                why = FINISH_REFUSED[lang].format(missing=", ".join(missing))
                steps.append(Step(n, "refused", tool=FINISH, ok=False, error=why,
                                  output=final))
                self._reflect(steps[-1], nts.after_end("refused", steps, 0, ", ".join(missing),
                                                       action.rationale, lang), None, lang)
                done.append(Done(Action("tool", tool=FINISH, args={"answer": final},
                                        call_id=action.call_id), why))
                continue
            if action.tool == PLAN:
                text = self._plan_step(action, required)
                steps.append(Step(n, "plan", tool=PLAN, args=action.args, output=text,
                                  data=_why(action)))
                done.append(Done(action, text))
                continue
            before = self.priors().get(action.tool) or pri.Prior(action.tool)
            caution = self._caution(before, lang)
            started = self.memory._now()
            out = self.tools.call(action.tool, action.args)
            seconds = (self.memory._now() - started).total_seconds()
            met: list[dict[str, Any]] = []
            if out.ok:
                ran.add(action.tool)
                used += [i for i in out.memory_ids if i not in used]
                met = cog.meet(self.memory, self.scope, out.output, action.tool)
                beliefs += met
            steps.append(Step(n, "tool", tool=action.tool, args=out.args, ok=out.ok,
                              output=out.text, error=out.error,
                              data={"pure": self.tools.get(action.tool).pure,
                                    **_why(action), **caution}))
            tokens = count_tokens(out.text, self.memory.config.encoding)
            after = before.seen(out.ok, seconds, tokens)
            self._reflect(steps[-1], nts.after_tool(out, before, after, seconds, tokens, met,
                                                    action.rationale, n, lang), after, lang)
            done.append(Done(action, out.text))
        why = ", ".join(sorted(required - ran)) or "no finish"
        text = STEP_LIMIT[lang].format(n=allowed, why=why)
        steps.append(Step(len(steps) + 1, "limit", ok=False, error=why, output=text))
        return self._end(message, session, lang, steps, used, "limit", text, why, beliefs,
                         allowed)

    def _caution(self, prior: pri.Prior, lang: str) -> dict[str, str]:
        """A warning, kept for the state and the step, when the chosen tool's prior is low."""
        if not prior.low:
            return {}
        text = LOW_PRIOR[lang].format(tool=prior.tool, p=prior.success, ok=prior.ok,
                                      n=prior.calls)
        self._cautions.append(text)
        return {"caution": text}

    def _reflect(self, step: Step, note: nts.Note, prior: pri.Prior | None,
                 lang: str) -> None:
        """After an action: the tool's prior, the note and the drives, all or nothing; the
        note goes into the step's data (a failure to write says so there instead)."""
        try:
            with self.memory.store.transaction():
                self._keep(note, prior, lang)
            step.data["note"] = note.meta()
        except EngramError as exc:
            step.data["note_error"] = str(exc)

    def _keep(self, note: nts.Note, prior: pri.Prior | None, lang: str) -> nts.Note:
        if prior is not None:
            pri.save(self.memory, self.scope, prior, lang)
        kept = nts.save(self.memory, self.scope, note)
        drv.save(self.memory, self.scope, cog.drives_now(self.memory, self.scope), lang)
        return kept

    def _plan_step(self, action: Action, required: set[str]) -> str:
        names = action.args.get("requires") or []
        known = [x for x in names if x in self.tools and x not in CONTROL]
        unknown = [x for x in names if x not in known]
        required.update(known)
        text = "ok: finish needs " + (", ".join(sorted(required)) or "nothing")
        return text + (f"; unknown tool(s) ignored: {', '.join(map(str, unknown))}"
                       if unknown else "")

    def _end(self, message: str, session: str | None, lang: str, steps: list[Step],
             used: list[str], ended: str, answer: str, why: str,
             beliefs: list[dict[str, Any]], allowed: int) -> TurnResult:
        ev = evaluate(steps, ended, why, lang, allowed)
        source = {"fallback": "fallback", "fallback_infra": "fallback", "limit": "limit"}.get(
            ended, "llm")
        result = TurnResult(answer, ev.success, source, lang, steps, ev, used=list(used),
                            beliefs=beliefs, error=why if not ev.success else "")
        self._record(result, message, session, ended)
        if ev.success and self.cache is not None and not result.error and self._pure(steps):
            self._cache_put(message, answer, used)
        return result

    def _record(self, result: TurnResult, message: str, session: str | None,
                ended: str | None) -> None:
        """The observation, feedback, experience, the last action's note and consolidation:
        all or nothing."""
        ev, kw = result.evaluation, {"user": self.scope.user, "agent": self.scope.agent}
        try:
            with self.memory.store.transaction():
                if self.observe:
                    self.memory.ingest([{"role": "user", "content": message}], session=session,
                                       extractor="rules", **kw)
                if ev is None:
                    return
                if ev.success or ended != "fallback_infra":
                    for mid in self._live(result.used):
                        self.memory.feedback(mid, ev.success, **kw)
                exp = remember(self.memory, self.scope, message, result.answer, ev,
                               self._live(result.used), result.lang, result.steps)
                note = self._end_note(result, ended or "answer")
                result.consolidated = consolidate(self.memory, self.scope, result.lang, ev)
                result.experience_id = exp.id
            if note is not None:   # shown only once it is kept
                result.steps[-1].data["note"] = note.meta()
        except EngramError as exc:
            result.experience_id, result.consolidated = None, {}
            result.error = (result.error + "; " if result.error else "") + (
                f"the turn's record could not be written (nothing of it was): {exc}")

    def _end_note(self, result: TurnResult, ended: str) -> nts.Note | None:
        """The note on the turn's last action (none at the step limit: that was a tool call,
        noted already)."""
        if ended == "limit":
            return None
        last = result.steps[-1]
        kind = "fallback" if ended.startswith("fallback") else ended
        note = nts.after_end(kind, result.steps, len(result.used), last.error,
                             str(last.data.get("rationale", "")), result.lang)
        return self._keep(note, None, result.lang)

    def _live(self, ids: Sequence[str]) -> list[str]:
        found = self.memory.store.get_many(self.scope, list(dict.fromkeys(ids)))
        return [i for i in dict.fromkeys(ids) if i in found and found[i].current]

    def _pure(self, steps: list[Step]) -> bool:
        return all(s.data.get("pure", True) for s in steps if s.kind == "tool")

    def _cache_put(self, message: str, answer: str, used: list[str]) -> None:
        assert self.cache is not None
        found = self.memory.store.get_many(self.scope, list(dict.fromkeys(used + self._shown)))
        supports = {i: found[i].version for i in dict.fromkeys(used)
                    if i in found and found[i].current}
        links = {i: r.version for i, r in found.items() if linkable(r)}  # cache.py
        self.cache.put(self.scope, message, answer, supports, self.memory._now(), links)

    def _close(self, result: TurnResult, wm: Any) -> TurnResult:
        self._cautions = []   # a caution is about this turn's choices
        if wm is not None:
            wm.add("assistant", result.answer)
        return result

    def _check_requires(self, requires: Sequence[str]) -> set[str]:
        if isinstance(requires, str):
            raise Invalid("requires must be a list of tool names, not one name")
        unknown = [r for r in requires if r not in self.tools or r in CONTROL]
        if unknown:
            raise Invalid(f"requires names unknown tool(s): {', '.join(map(str, unknown))}")
        return set(requires)


def _why(action: Action) -> dict[str, str]:
    """The model's rationale for an action, for its step's data (when it gave one)."""
    return {"rationale": action.rationale} if action.rationale else {}


def _check_steps(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= \
            MAX_STEPS_LIMIT:
        raise Invalid(f"max_steps must be an integer from 1 to {MAX_STEPS_LIMIT}, got "
                      f"{value!r}")
    return value

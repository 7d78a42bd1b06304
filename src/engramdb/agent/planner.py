"""The LLM planner: one action per call, from any OpenAI-compatible chat endpoint.

Settings: ``Endpoint.resolve`` (llm/chat.py): the Config's ``llm_*``, else the environment's
``OPENAI_COMPATIBLE_*``, else ``OPENAI_*``. The request goes through ``llm.chat.message`` (the
client extraction and summaries use).

Mode ``auto`` (default) sends the tools natively (``tools`` in the request, ``tool_calls`` in
the answer); an endpoint that refuses them (HTTP 400, 422 or 501) is asked again in ``json``
mode, and this planner stays in JSON mode from then on. In JSON mode the tools' schemas are in
the system prompt and the model answers one JSON object (texts.JSON_FORMAT). A native answer
with text and no tool call is an answer (or a JSON action, if the text is one). A JSON action
may also come in the cognitive-agent planner's own shape, ``{"name": TOOL, "arguments": {...}
or "<JSON text>", "rationale": "..."}``: an alias of ``{"action": "tool", ...}``. A
``rationale`` (in either shape), or the text a native reply gives beside its tool call, is
kept on the action, and so in the turn's steps and the action's reflection note.

With ``priors`` (the agent's record of each tool, priors.py), every tool the agent has called
before is described with its record: calls, predicted success, mean time and output tokens, in
the native tool list and in the JSON mode's list alike.

Every reply is validated (a known tool, arguments that fit its schema, a non-empty answer). An
invalid reply is retried once with the validation error; a second invalid reply, or an
endpoint that cannot be reached, times out or fails, gives a ``fallback`` action: an answer
saying it could not plan and why. ``plan`` never raises."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from ..errors import Invalid
from ..llm.chat import ChatFailed, Endpoint
from .priors import Prior
from .texts import CANNOT_PLAN, JSON_FORMAT, RETRY, SYSTEM
from .tools import FINISH, Tool, ToolRegistry

REFUSES_TOOLS = (400, 422, 501)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


@dataclass
class Action:
    """What the planner chose. kind: tool | answer | finish | fallback."""

    kind: str
    tool: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    call_id: str = ""
    attempts: int = 1
    error: str = ""          # why a fallback, or the first attempt's validation error
    infra: bool = False      # the endpoint failed (not the model's answer)
    mode: str = "native"
    rationale: str = ""      # why, when the model said (a JSON action's "rationale")

    def to_dict(self) -> dict[str, Any]:
        found = {"kind": self.kind, "tool": self.tool, "args": self.args, "text": self.text,
                 "attempts": self.attempts, "error": self.error, "mode": self.mode}
        return found | ({"rationale": self.rationale} if self.rationale else {})


@dataclass(frozen=True)
class Done:
    """One step already taken, for the next request: the action and the tool's result."""

    action: Action
    result: str


class Planner:
    def __init__(self, endpoint: Endpoint, *, mode: str = "auto",
                 client: httpx.Client | None = None) -> None:
        if mode not in ("auto", "native", "json"):
            raise Invalid(f"planner mode must be auto, native or json, got {mode!r}")
        self.endpoint, self.mode, self.client = endpoint, mode, client
        self._listed: list[Tool] = []

    @property
    def native(self) -> bool:
        return self.mode != "json"

    def plan(self, context: str, request: str, done: list[Done], tools: ToolRegistry,
             lang: str = "en", priors: Mapping[str, Prior] | None = None) -> Action:
        """The next action; a ``fallback`` action when none could be had. ``priors``: each
        tool's record, shown with the tool."""
        self._listed = described(tools, priors or {}, lang)
        try:
            return self._plan(context, request, done, tools, lang)
        except Exception as exc:  # noqa: BLE001 - the planner never raises in the user's face
            return _fallback(f"{type(exc).__name__}: {exc}", lang, 1, self.native, infra=True)

    def _plan(self, context: str, request: str, done: list[Done], tools: ToolRegistry,
              lang: str) -> Action:
        retry: str | None = None
        errors: list[str] = []
        for attempt in (1, 2):
            def build(r: str | None = retry) -> list[dict[str, Any]]:
                return self._messages(context, request, done, tools, lang, r)
            try:
                reply = self._ask(build, tools)
            except ChatFailed as exc:
                return _fallback(str(exc), lang, attempt, self.native, infra=True)
            try:
                action = parse(reply, tools, native=self.native)
            except Invalid as exc:
                errors.append(str(exc))
                retry = RETRY[lang].format(error=exc)
                continue
            action.attempts, action.error = attempt, errors[0] if errors else ""
            action.mode = "native" if self.native else "json"
            return action
        return _fallback(f"no valid action after a retry: {errors[-1]}", lang, 2, self.native)

    def _ask(self, build: Callable[[], list[dict[str, Any]]],
             tools: ToolRegistry) -> dict[str, Any]:
        """The reply to the messages ``build`` makes (built again after a switch to JSON)."""
        ep = self.endpoint
        if self.native:
            try:
                return ep.message(build(), client=self.client, tools=[
                    t.to_openai() for t in self._listed])
            except ChatFailed as exc:
                if self.mode != "auto" or exc.status not in REFUSES_TOOLS:
                    raise
            self.mode = "json"  # the endpoint refuses native tools: JSON from now on
        return ep.message(build(), client=self.client)

    def _messages(self, context: str, request: str, done: list[Done], tools: ToolRegistry,
                  lang: str, retry: str | None) -> list[dict[str, Any]]:
        system = SYSTEM[lang].format(context=context or "(nothing yet)")
        if not self.native:
            system += "\n\n" + JSON_FORMAT[lang].format(tools=_tool_text(self._listed))
        msgs: list[dict[str, Any]] = [{"role": "system", "content": system},
                                      {"role": "user", "content": request}]
        for n, step in enumerate(done, 1):
            msgs += _rendered(step, n, self.native)
        if retry:
            msgs.append({"role": "user", "content": retry})
        return msgs


def described(tools: ToolRegistry, priors: Mapping[str, Prior], lang: str) -> list[Tool]:
    """The tools as the model sees them: a called tool's description ends with its record."""
    return [replace(t, description=f"{t.description} [{priors[t.name].line(lang)}]")
            if t.name in priors and priors[t.name].calls else t for t in tools.tools()]


def _tool_text(tools: list[Tool]) -> str:
    return "\n".join(json.dumps({"name": t.name, "description": t.description,
                                 "parameters": t.parameters}, ensure_ascii=False)
                     for t in tools)


def _rendered(step: Done, n: int, native: bool) -> list[dict[str, Any]]:
    a = step.action
    call_id = a.call_id or f"call_{n}"
    if native:
        return [{"role": "assistant", "content": None, "tool_calls": [{
                    "id": call_id, "type": "function", "function": {
                        "name": a.tool, "arguments": json.dumps(a.args, ensure_ascii=False)}}]},
                {"role": "tool", "tool_call_id": call_id, "content": step.result}]
    said = json.dumps({"action": "tool", "tool": a.tool, "args": a.args}, ensure_ascii=False)
    return [{"role": "assistant", "content": said},
            {"role": "user", "content": f"Result of {a.tool}: {step.result}"}]


def parse(reply: dict[str, Any], tools: ToolRegistry, *, native: bool) -> Action:
    """The action in a chat message; Invalid saying what is wrong with it."""
    calls = reply.get("tool_calls") or []
    if calls:
        if not isinstance(calls, list) or not isinstance(calls[0], dict):
            raise Invalid("tool_calls must be a list of calls")
        fn = calls[0].get("function") or {}
        raw = fn.get("arguments") or "{}"
        try:
            args = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError:
            raise Invalid(f"the arguments of {fn.get('name')!r} are not JSON: "
                          f"{str(raw)[:80]}") from None
        action = _tool_action(fn.get("name"), args, tools, str(calls[0].get("id") or ""))
        said = reply.get("content")
        if isinstance(said, str) and said.strip():   # text beside a native call: its reason
            action.rationale = said.strip()
        return action
    content = reply.get("content")
    if not isinstance(content, str) or not content.strip():
        raise Invalid("the reply holds neither a tool call nor any text")
    text = _FENCE.sub("", content.strip()).strip()
    found = _json_object(text)
    if found is None:
        if native:
            return Action("answer", text=content.strip())
        raise Invalid(f"the reply is not a JSON object: {content.strip()[:80]!r}")
    return _json_action(found, tools)


def _json_object(text: str) -> dict[str, Any] | None:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = json.loads(text[start:end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not ("action" in value or "name" in value):
        return None
    return value


def _json_action(obj: dict[str, Any], tools: ToolRegistry) -> Action:
    action = _json_kind(obj, tools)
    why = obj.get("rationale")
    if isinstance(why, str):
        action.rationale = why.strip()
    return action


def _json_kind(obj: dict[str, Any], tools: ToolRegistry) -> Action:
    kind = obj.get("action")
    if kind is None:   # the alias {"name", "arguments", "rationale"}: a tool call
        raw = obj.get("arguments", {})
        try:
            args = json.loads(raw) if isinstance(raw, str) and raw.strip() else raw or {}
        except json.JSONDecodeError:
            raise Invalid(f"the arguments of {obj.get('name')!r} are not JSON: "
                          f"{raw[:80]}") from None
        return _tool_action(obj.get("name"), args, tools, "")
    if kind == "tool":
        return _tool_action(obj.get("tool"), obj.get("args", {}), tools, "")
    if kind in ("answer", "finish"):
        text = obj.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Invalid(f"a {kind} action needs a non-empty text")
        if kind == "finish":
            return Action("tool", tool=FINISH, args={"answer": text.strip()})
        return Action("answer", text=text.strip())
    raise Invalid(f"action must be tool, answer or finish, got {kind!r}")


def _tool_action(name: object, args: object, tools: ToolRegistry, call_id: str) -> Action:
    clean = tools.validate(name, args)
    return Action("tool", tool=str(name), args=clean, call_id=call_id)


def _fallback(why: str, lang: str, attempts: int, native: bool, *,
              infra: bool = False) -> Action:
    return Action("fallback", text=CANNOT_PLAN[lang].format(why=why), attempts=attempts,
                  error=why, infra=infra, mode="native" if native else "json")

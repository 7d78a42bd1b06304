"""The agent's tools: a registry of callables with typed JSON schemas.

A schema comes from the callable's signature and docstring (``schema_of``) or is given. The
type hints map to JSON Schema: str -> string, int -> integer, float -> number, bool -> boolean,
list/tuple/Sequence -> array, dict/Mapping -> object; a parameter without a default is
required. The docstring's first paragraph is the description; lines ``name: text`` (under an
``Args:`` heading or anywhere) describe the parameters.

``call`` validates the arguments against the schema first (required, unknown, types) and
never raises: a tool that raises or gets bad arguments gives a failed ``Outcome`` with the
error in words. ``pure`` marks a tool that only reads (its answers may be cached)."""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import Conflict, Invalid, NotFound

FINISH, PLAN = "finish", "plan"
CONTROL = (FINISH, PLAN)
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
MAX_OUTPUT_CHARS = 4000
_JSON = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array",
         tuple: "array", dict: "object"}
_ARG_LINE = re.compile(r"^\s*[-*]?\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any]
    pure: bool = False

    def to_openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters}}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "parameters": self.parameters, "pure": self.pure}


@dataclass(frozen=True)
class Outcome:
    """What a tool call gave: ``ok`` and its output (as text for the model), or the error."""

    tool: str
    args: dict[str, Any]
    ok: bool
    output: Any = None
    error: str = ""
    text: str = ""
    memory_ids: list[str] = field(default_factory=list)   # memories the tool read or wrote

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "args": self.args, "ok": self.ok, "output": self.text,
                "error": self.error, "memory_ids": self.memory_ids}


def _json_type(hint: Any) -> str | None:
    origin = typing.get_origin(hint) or hint
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        kinds = [_json_type(a) for a in typing.get_args(hint) if a is not type(None)]
        return kinds[0] if len(kinds) == 1 else None
    if origin in _JSON:
        return _JSON[origin]
    if isinstance(origin, type) and issubclass(origin, Mapping):
        return "object"
    if isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str:
        return "array"
    return None


def _arg_docs(doc: str) -> dict[str, str]:
    return {m.group(1): m.group(2).strip() for line in doc.splitlines()
            if (m := _ARG_LINE.match(line))}


def schema_of(fn: Callable[..., Any]) -> tuple[str, dict[str, Any]]:
    """The description and the JSON Schema of ``fn``'s parameters."""
    doc = inspect.getdoc(fn) or ""
    description = doc.split("\n\n")[0].strip().replace("\n", " ")
    try:
        hints = typing.get_type_hints(fn)
    except (NameError, TypeError):
        hints = {}
    described = _arg_docs(doc)
    props: dict[str, Any] = {}
    required: list[str] = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        prop: dict[str, Any] = {}
        kind = _json_type(hints.get(p.name, p.annotation))
        if kind:
            prop["type"] = kind
        if p.name in described:
            prop["description"] = described[p.name]
        if p.default is p.empty:
            required.append(p.name)
        props[p.name] = prop
    return description, {"type": "object", "properties": props, "required": required,
                         "additionalProperties": False}


def check_args(schema: Mapping[str, Any], args: object) -> dict[str, Any]:
    """``args`` when they fit ``schema`` (an object schema); Invalid naming what is wrong."""
    if not isinstance(args, dict):
        raise Invalid(f"arguments must be a JSON object, got {type(args).__name__}")
    props = schema.get("properties") or {}
    missing = [n for n in schema.get("required") or [] if n not in args]
    if missing:
        raise Invalid(f"missing argument(s): {', '.join(missing)}")
    if schema.get("additionalProperties") is False:
        unknown = [n for n in args if n not in props]
        if unknown:
            raise Invalid(f"unknown argument(s): {', '.join(unknown)} (known: "
                          f"{', '.join(props) or 'none'})")
    for name, value in args.items():
        want = (props.get(name) or {}).get("type")
        if want and not _fits(value, want):
            raise Invalid(f"argument {name} must be {want}, got {json.dumps(value)[:60]}")
    return dict(args)


def _fits(value: Any, want: str) -> bool:
    if want == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if want == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    checks: dict[str, type | tuple[type, ...]] = {
        "string": str, "boolean": bool, "array": list, "object": dict, "null": type(None)}
    return isinstance(value, checks.get(want, object))


def as_text(value: Any) -> str:
    """A tool's output as the text the model reads (JSON for data), cut to MAX_OUTPUT_CHARS."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= MAX_OUTPUT_CHARS else text[: MAX_OUTPUT_CHARS - 1] + "…"


class ToolRegistry:
    """Named tools; ``register`` any callable (or use it as a decorator)."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def register(self, fn: Callable[..., Any] | None = None, *, name: str | None = None,
                 description: str | None = None, parameters: dict[str, Any] | None = None,
                 pure: bool = False, replace: bool = False) -> Any:
        """Add ``fn`` as a tool (its schema from its signature unless ``parameters`` is
        given). Without ``fn``: a decorator."""
        if fn is None:
            return lambda f: self.register(f, name=name, description=description,
                                           parameters=parameters, pure=pure, replace=replace)
        if not callable(fn):
            raise Invalid(f"a tool must be callable, got {type(fn).__name__}")
        tool_name = name or getattr(fn, "__name__", "")
        if not isinstance(tool_name, str) or not NAME.match(tool_name):
            raise Invalid(f"tool name {tool_name!r} must be letters, digits, _ or - (at most "
                          "64, not starting with a digit)")
        if tool_name in self._tools and not replace:
            raise Conflict(f"a tool named {tool_name!r} is registered already")
        derived, schema = schema_of(fn)
        if parameters is not None:
            if not isinstance(parameters, dict) or parameters.get("type") != "object":
                raise Invalid("parameters must be a JSON Schema of type object")
            schema = parameters
        tool = Tool(tool_name, description or derived or tool_name, schema, fn, pure)
        self._tools[tool_name] = tool
        return fn

    def get(self, name: str) -> Tool:
        if name not in self._tools:
            raise NotFound(f"no tool {name!r} (known: {', '.join(self._tools)})")
        return self._tools[name]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def names(self) -> list[str]:
        return list(self._tools)

    def tools(self) -> list[Tool]:
        return list(self._tools.values())

    def openai_tools(self) -> list[dict[str, Any]]:
        return [t.to_openai() for t in self._tools.values()]

    def validate(self, name: object, args: object) -> dict[str, Any]:
        """The arguments, checked; Invalid for an unknown tool or bad arguments."""
        if not isinstance(name, str) or name not in self._tools:
            raise Invalid(f"unknown tool {name!r}; use one of: {', '.join(self._tools)}")
        return check_args(self._tools[name].parameters, args)

    def call(self, name: str, args: dict[str, Any]) -> Outcome:
        """Run the tool; a failure (bad arguments, an exception) is an outcome, not raised."""
        try:
            clean = self.validate(name, args)
        except Invalid as exc:
            return Outcome(str(name), args if isinstance(args, dict) else {}, False,
                           error=str(exc), text=f"error: {exc}")
        try:
            output = self._tools[name].fn(**clean)
        except Exception as exc:  # noqa: BLE001 - a user's tool may raise anything
            error = f"{type(exc).__name__}: {exc}"
            return Outcome(name, clean, False, error=error, text=f"error: {error}")
        ids = list(getattr(output, "memory_ids", []) or [])
        value = getattr(output, "value", output) if hasattr(output, "memory_ids") else output
        return Outcome(name, clean, True, output=value, text=as_text(value), memory_ids=ids)


@dataclass(frozen=True)
class Read:
    """What a built-in tool gives back: the value for the model and the memories involved."""

    value: Any
    memory_ids: list[str] = field(default_factory=list)

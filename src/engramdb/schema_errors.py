"""Schema errors in words: what the MCP and HTTP doors say when a call's arguments do not fit
their schema (pydantic validates them there). One sentence a field: the field, what was wrong
with it, and what to give instead; never the validator's own text, its error types or its
links. This module reads the plain error dicts (``ValidationError.errors()``) and imports no
validator, so the library does not depend on one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .clock import EXAMPLE

MAX_SHOWN = 5       # fields named in one message
MAX_VALUE = 40      # characters of a value quoted back
HTTP_PLACES = ("body", "query", "path", "header", "cookie")   # where a field came from

TYPES = {
    "string": "text", "int": "a whole number", "float": "a number", "bool": "true or false",
    "dict": "an object ({...})", "list": "a list ([...])", "model": "an object ({...})",
    "model_attributes": "an object ({...})", "tuple": "a list ([...])", "set": "a list ([...])",
    "bytes": "text", "decimal": "a number", "uuid": "a UUID",
}
TIMES = ("datetime", "date", "time", "timezone")


def sentences(errors: Iterable[Mapping[str, Any]], places: tuple[str, ...] = ()) -> str:
    """One message for a call's schema errors, naming up to ``MAX_SHOWN`` fields. ``places``:
    the names that start a location without being a field (HTTP_PLACES at the HTTP door)."""
    said: list[str] = []
    for e in errors:
        line = sentence(e, places)
        if line not in said:
            said.append(line)
    if not said:
        return "the arguments do not fit the schema: check them against it"
    more = f" (and {len(said) - MAX_SHOWN} more)" if len(said) > MAX_SHOWN else ""
    return "; ".join(said[:MAX_SHOWN]) + more


def field_name(loc: Iterable[Any], places: tuple[str, ...] = ()) -> str:
    """``items[1].content`` for pydantic's ``("body", "items", 1, "content")`` (with "body"
    in ``places``)."""
    out = ""
    for i, part in enumerate(loc):
        if i == 0 and part in places:
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        elif "[" in str(part) or str(part) in TYPES or str(part) in ("str", "none"):
            continue   # a union member's tag (str, int, function-after[...]), not a field
        else:
            out += ("." if out else "") + str(part)
    return out


def sentence(e: Mapping[str, Any], places: tuple[str, ...] = ()) -> str:
    """One field's error in words."""
    name = field_name(e.get("loc", ()), places) or "the arguments"
    kind = str(e.get("type", ""))
    ctx = e.get("ctx") or {}
    got = _shown(e.get("input"))
    if kind == "missing":
        return f"{name} is missing: it is required"
    if kind == "extra_forbidden":
        return f"{name} is not a known field: remove it, or check its spelling"
    if kind == "json_invalid":
        return "the body is not valid JSON"
    if kind == "literal_error" or kind == "enum":
        return f"{name} {got} is not one of {_choices(ctx.get('expected', ''))}: use one of these"
    if kind in ("string_too_short", "too_short"):
        least = ctx.get("min_length", 1)
        if least == 1:
            return f"{name} is empty: give at least one {_unit(kind)}"
        return f"{name} is too short: give at least {least} {_unit(kind)}s"
    if kind in ("string_too_long", "too_long"):
        return (f"{name} is too long: at most {ctx.get('max_length')} {_unit(kind)}s; shorten "
                "it or split it")
    for bound, words in (("ge", "at least"), ("gt", "more than"), ("le", "at most"),
                         ("lt", "less than")):
        if bound in ctx and kind.startswith(("greater", "less")):
            return f"{name} is {got}: it must be {words} {ctx[bound]}"
    if kind == "finite_number":
        return f"{name} must be a finite number, not NaN or infinity"
    if kind == "string_unicode":
        return f"{name} is not valid Unicode text"
    if kind.startswith(TIMES):
        return (f"{name} {got} is not a time: give ISO 8601 such as {EXAMPLE} (without a "
                "time zone it is read as UTC)")
    base = kind.split("_")[0] if kind.endswith(("_type", "_parsing", "_from_float")) else ""
    if kind == "model_attributes_type":
        base = "model"
    if base in TYPES:
        return f"{name} must be {TYPES[base]}, not {_what(e.get('input'))}"
    if kind in ("value_error", "assertion_error"):
        reason = str(ctx.get("error") or e.get("msg", "")).removeprefix("Value error, ")
        return f"{name}: {reason.removeprefix('Assertion failed, ')}"
    return f"{name} {got} is not accepted here: check it against the schema"


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    if value is None or isinstance(value, dict | list) or len(text) > MAX_VALUE:
        return f"({_what(value)})"
    return text


def _what(value: Any) -> str:
    """A value's JSON kind, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return f"the number {value}" if len(str(value)) <= MAX_VALUE else "a number"
    if isinstance(value, str):
        return f"the text {value!r}" if len(value) <= MAX_VALUE else "text"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return "another kind of value"


def _choices(expected: str) -> str:
    """pydantic's "'a', 'b' or 'c'" as "a, b, c"."""
    return ", ".join(p.strip().strip("'\"") for p in expected.replace(" or ", ", ").split(","))


def _unit(kind: str) -> str:
    return "character" if kind.startswith("string") else "item"

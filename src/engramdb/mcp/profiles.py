"""Which tools the MCP server lists, and how small their schemas are.

Every tool in ``tools/list`` costs the agent's context on every turn and makes the model's
choice harder, so the server lists a profile: ``core`` (the default) holds what an agent does
every turn; ``all`` every tool. ``--tools`` (Options.tools, ENGRAMDB_MCP_TOOLS) takes a
profile, or a comma-separated list of profiles and tool names ("core,context,sleep").

The schemas are published without what a model does not need: no ``title`` (it repeats the
field's name) and, in arguments, an optional field is its own type rather than "that type or
null" (leaving it out means the same). The argument models still check every call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from .tools import Verb

# What an agent does every turn, at most 8 in all.
CORE = ("remember", "recall", "get", "update", "forget", "feedback", "boot", "status")
PROFILES: dict[str, tuple[str, ...] | None] = {"core": CORE, "all": None}
DEFAULT = "core"
MAX_CORE = 8


def select(spec: str | None, verbs: Sequence[Verb]) -> list[Verb]:
    """The verbs a spec names, in the table's order: a profile, or a comma-separated list of
    profiles and tool names. An unknown name is a ConfigError naming what is known."""
    known = {v.name for v in verbs}
    wanted: set[str] = set()
    for item in (spec if spec is not None else DEFAULT).split(","):
        name = item.strip()
        if name in PROFILES:
            wanted |= set(PROFILES[name] or known)
        elif name in known:
            wanted.add(name)
        else:
            raise ConfigError(f"unknown MCP tool or profile {name!r} in --tools "
                              f"{spec!r}: profiles {', '.join(PROFILES)}; tools "
                              f"{', '.join(sorted(known))}")
    return [v for v in verbs if v.name in wanted]


def compact(schema: dict[str, Any], *, arguments: bool) -> dict[str, Any]:
    """The schema without titles; for ``arguments``, optional fields without their null."""
    return _schema(schema, arguments)


def _schema(node: Any, arguments: bool) -> Any:
    if isinstance(node, list):
        return [_schema(x, arguments) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {name: _schema(sub, arguments) for name, sub in value.items()}
        else:
            out[key] = _schema(value, arguments)
    return _without_null(out) if arguments else out


def _without_null(node: dict[str, Any]) -> dict[str, Any]:
    """``{"anyOf": [X, {"type": "null"}], "default": null, ...}`` -> ``X`` plus the rest
    (``{"anyOf": [X, Y, null], ...}`` -> ``{"anyOf": [X, Y], ...}``)."""
    options = node.get("anyOf")
    if not (isinstance(options, list) and len(options) >= 2 and "default" in node
            and node["default"] is None and {"type": "null"} in options):
        return node
    kept = [o for o in options if o != {"type": "null"}]
    rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
    return {**kept[0], **rest} if len(kept) == 1 else {"anyOf": kept, **rest}

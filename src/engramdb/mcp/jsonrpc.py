"""What the MCP server refuses before the SDK sees a message, on either transport (stdio.py,
http.py), and the JSON-RPC error it answers (issues 18 and 29):

- not JSON (or not UTF-8), or nested deeper than ``MAX_DEPTH`` objects and arrays: ``-32700``
  (parse error), id null;
- larger than ``Config.mcp_max_message_bytes``: ``-32600`` (invalid request), id null (the
  message is not read, so its id is unknown);
- JSON, but not a JSON-RPC 2.0 message (an array, a number, ``"method": 5``, no
  ``"jsonrpc": "2.0"``...): ``-32600``, with the message's id when it has a usable one (a
  string or an integer), else null; an id of another type (an object, a list, a boolean, a
  fraction) is itself an invalid request.

Each message says plainly what was wrong; no validator's text reaches the client."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from ..write.prepare import too_deep

Refusal = tuple[int, str, str | int | None]
MAX_DEPTH = 64   # objects and arrays inside one another; the SDK's parser stops near 200

NOT_UTF8: Refusal = (types.PARSE_ERROR, "Parse error: the message is not UTF-8", None)


def too_large(limit: int) -> Refusal:
    return (types.INVALID_REQUEST, f"Invalid Request: the message is larger than {limit} bytes "
            "(mcp_max_message_bytes); send less in one call", None)


def refusal(text: str) -> Refusal | None:
    """(code, message, id) for a message JSON-RPC refuses, None for one to pass on."""
    try:
        data = json.loads(text)
    except RecursionError:
        data = _DEEP
    except ValueError as exc:
        return types.PARSE_ERROR, f"Parse error: {exc}", None
    if data is _DEEP or too_deep(data, MAX_DEPTH):
        return (types.PARSE_ERROR, f"Parse error: the message nests deeper than {MAX_DEPTH} "
                "levels of objects and arrays", None)
    id_ = data.get("id") if isinstance(data, dict) else None
    if isinstance(id_, bool) or not isinstance(id_, str | int):
        id_ = None
    if isinstance(data, dict) and "id" in data and data["id"] is not None and id_ is None:
        return types.INVALID_REQUEST, "Invalid Request: an id must be a string or an integer", None
    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError:
        return types.INVALID_REQUEST, f"Invalid Request: {_what_is_wrong(data)}", id_
    return None


_DEEP = object()


def _what_is_wrong(data: Any) -> str:
    if not isinstance(data, dict):
        return f"a JSON-RPC 2.0 message is an object, not {_kind(data)}"
    if data.get("jsonrpc") != "2.0":
        return 'a JSON-RPC 2.0 message has "jsonrpc": "2.0"'
    if "method" in data and not isinstance(data["method"], str):
        return '"method" must be a string'
    if "params" in data and not isinstance(data["params"], dict | list):
        return '"params" must be an object'
    return ("not a JSON-RPC 2.0 message: a request has a method (and an id), a notification a "
            "method, a response an id and a result or an error")


def _kind(data: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(data), "a number")


def error(problem: Refusal) -> types.JSONRPCError:
    code, message, id_ = problem
    return types.JSONRPCError(jsonrpc="2.0", id=id_,
                              error=types.ErrorData(code=code, message=message))

"""The MCP stdio transport with JSON-RPC's answers to bad input (issue 18).

The SDK's stdio transport hands a line it cannot read to the server as an exception, which
logs it and answers nothing: a client that sent it waits forever. Here each line is checked
before the SDK sees it:

- not JSON (or not UTF-8): answer ``-32700`` (parse error), id null;
- JSON, but not a JSON-RPC 2.0 message (an array, a number, ``"method": 5``, no
  ``"jsonrpc": "2.0"``...): answer ``-32600`` (invalid request), with the message's id when
  it has a usable one (a string or an integer), else null; an id of another type (an
  object, a list, a boolean, a fraction) is itself an invalid request;
- a blank line: skipped.

Every other line goes on to the SDK unchanged, and the server keeps serving after each
refusal. The answers go out through the SDK's own writer, so lines never interleave."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from typing import Any, BinaryIO

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

Refusal = tuple[int, str, str | int | None]


def refusal(line: str | None) -> Refusal | None:
    """(code, message, id) for a line JSON-RPC refuses (None: a line not in UTF-8), None for
    one to pass on."""
    if line is None:
        return types.PARSE_ERROR, "Parse error: the line is not UTF-8", None
    try:
        data = json.loads(line)
    except ValueError as exc:
        return types.PARSE_ERROR, f"Parse error: {exc}", None
    id_ = data.get("id") if isinstance(data, dict) else None
    if isinstance(id_, bool) or not isinstance(id_, str | int):
        id_ = None
    if isinstance(data, dict) and "id" in data and data["id"] is not None and id_ is None:
        return types.INVALID_REQUEST, "Invalid Request: an id must be a string or an integer", None
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:
        first = str(exc).splitlines()[0]
        return types.INVALID_REQUEST, f"Invalid Request: not a JSON-RPC 2.0 message ({first})", id_
    return None


class CheckedLines:
    """The lines of ``source`` that are JSON-RPC messages; the others are answered on the
    write stream given to ``answer_on``."""

    def __init__(self, source: Any) -> None:
        self._source = source
        self._ready = anyio.Event()
        self._write: Any = None

    def answer_on(self, write: Any) -> None:
        self._write = write
        self._ready.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._source:
            if line is not None and not line.strip():
                continue
            problem = refusal(line)
            if problem is None and line is not None:
                yield line
                continue
            assert problem is not None
            code, message, id_ = problem
            await self._ready.wait()
            error = types.JSONRPCError(jsonrpc="2.0", id=id_,
                                       error=types.ErrorData(code=code, message=message))
            await self._write.send(SessionMessage(error))


async def serve_stdio(server: MCPServer) -> None:
    """Run ``server`` over this process's stdin and stdout until stdin closes."""
    lines = CheckedLines(_lines(sys.stdin.buffer))
    lowlevel = server._lowlevel_server   # the SDK's own run_stdio_async does the same
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.answer_on(write_stream)
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


async def _lines(stdin: BinaryIO) -> AsyncIterator[str | None]:
    """Each line of ``stdin`` decoded, or None for a line that is not UTF-8."""
    while True:
        raw = await anyio.to_thread.run_sync(stdin.readline)
        if not raw:
            return
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield None

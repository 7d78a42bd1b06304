"""The MCP stdio transport with JSON-RPC's answers to bad input (issues 18 and 29).

The SDK's stdio transport hands a line it cannot read to the server as an exception, which
logs it and answers nothing: a client that sent it waits forever. Here each line is checked
before the SDK sees it (jsonrpc.py says what is refused and how it is answered); a blank line is
skipped. A line longer than ``Config.mcp_max_message_bytes`` is not held in memory: its start
is read up to the limit and the rest dropped as it comes.

Every other line goes on to the SDK unchanged, and the server keeps serving after each
refusal. The answers go out through the SDK's own writer, so lines never interleave."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any, BinaryIO

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from .jsonrpc import NOT_UTF8, Refusal, error, refusal, too_large

CHUNK = 1 << 16   # the rest of an over-long line is read (and dropped) this much at a time


class CheckedLines:
    """The lines of ``source`` that are JSON-RPC messages; the others are answered on the
    write stream given to ``answer_on``."""

    def __init__(self, source: AsyncIterator[str | Refusal]) -> None:
        self._source = source
        self._ready = anyio.Event()
        self._write: Any = None

    def answer_on(self, write: Any) -> None:
        self._write = write
        self._ready.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._source:
            if isinstance(line, str):
                if not line.strip():
                    continue
                problem = refusal(line)
                if problem is None:
                    yield line
                    continue
            else:
                problem = line
            await self._ready.wait()
            await self._write.send(SessionMessage(error(problem)))


async def serve_stdio(server: MCPServer, limit: int) -> None:
    """Run ``server`` over this process's stdin and stdout until stdin closes; a line over
    ``limit`` bytes is refused."""
    lines = CheckedLines(_lines(sys.stdin.buffer, limit))
    lowlevel = server._lowlevel_server   # the SDK's own run_stdio_async does the same
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.answer_on(write_stream)
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


async def _lines(stdin: BinaryIO, limit: int) -> AsyncIterator[str | Refusal]:
    """Each line of ``stdin`` decoded, or the refusal of a line that is not UTF-8 or is longer
    than ``limit`` bytes."""
    while True:
        raw = await anyio.to_thread.run_sync(read_line, stdin, limit)
        if raw is None:
            yield too_large(limit)
            continue
        if not raw:
            return
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield NOT_UTF8


def read_line(stdin: BinaryIO, limit: int) -> bytes | None:
    """The next line (b"" at the end), or None for a line over ``limit`` bytes (its newline not
    counted), read to its end and dropped."""
    raw = stdin.readline(limit + 1)
    if len(raw) <= limit or raw.endswith(b"\n"):
        return raw
    while True:
        rest = stdin.readline(CHUNK)
        if not rest or rest.endswith(b"\n"):
            return None

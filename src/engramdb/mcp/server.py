"""The MCP server (`engramdb mcp`): the Memory verbs as tools, over stdio or streamable HTTP;
which tools are listed (the compact `core` set by default, or `all`) is profiles.py's.

Built on the official SDK's ``MCPServer`` (``mcp.server.mcpserver``, SDK v2). This module only
maps: a tool's arguments (schema.py) go to one engine verb, and what the verb returns comes
back as structured content (its ``to_dict()``) plus readable text. Behaviour lives in the engine.

- Scope: every call acts for the server's user and agent (``--user``/``--agent``, else
  ENGRAMDB_USER/ENGRAMDB_AGENT, else "default"). When the operator allows it
  (``--scope-per-call`` or ENGRAMDB_MCP_SCOPE_PER_CALL=1), every tool also takes optional
  ``user`` and ``agent`` arguments; otherwise those arguments are rejected by the schema.
- Errors: an engramdb error comes back as a tool error (isError) reading "<code>: <message>",
  with structured content {"error": {"code", "message"}}; the server keeps serving. Arguments
  that do not fit the schema are rejected before the engine runs, the same way, as
  ``invalid``, in words (schema_errors.py): never the validator's text.
- The store opens on the first call that needs it (listing tools does not); engine calls are
  serialized by one lock, as the SDK runs tools on worker threads.
- stdout carries the protocol only: the SDK diverts file descriptor 1 to stderr while it
  serves, and logs go to stderr.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import (
    ResourceError,
    ResourceNotFoundError,
    ToolError,
    UnexpectedToolError,
)
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ValidationError

import engramdb

from ..config import Config
from ..engine import ScopedMemory
from ..errors import ConfigError, EngramError, Invalid, NotFound
from ..schema_errors import sentences
from ..uri import DOMAINS
from . import auth, profiles, stdio
from . import http as web
from . import schema as s
from .door import Call, Door, Options
from .text import boot_text
from .tools import VERBS, Verb

log = logging.getLogger("engramdb.mcp")
DEFAULT_PORT = 8765
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def invoke(door: Door, verb: Verb, args: Any) -> CallToolResult:
    try:
        with door.lock:
            data = verb.run(Call(door.scoped(args, auth.role_of(verb, args)), door), args)
    except EngramError as exc:
        log.info("tool %s: %s: %s", verb.name, exc.code, exc)
        return error_result(exc)
    return CallToolResult(content=[TextContent(type="text", text=verb.text(data))],
                          structured_content=data)


class Checked(Tool):
    """The SDK's tool, whose arguments that do not fit the schema come back as an ``invalid``
    tool error in words (schema_errors.py), not as the validator's text."""

    async def run(self, arguments: dict[str, Any], context: Any,
                  convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__,
                                                                       ValidationError):
                raise
            message = sentences(exc.__cause__.errors())
            log.info("tool %s: invalid arguments: %s", self.name, message)
            return error_result(Invalid(message))


def error_result(exc: EngramError) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=f"{exc.code}: {exc}")],
        structured_content={"error": {"code": exc.code, "message": str(exc)}},
        is_error=True,
    )


# ---------------------------------------------------------------- the server


def tool(verb: Verb, door: Door) -> Tool:
    model = verb.args
    if door.options.scope_per_call:
        model = type(f"{verb.args.__name__}PerCall", (verb.args, s.ScopeArgs), {})

    def call(**kwargs: Any) -> CallToolResult:
        return invoke(door, verb, model.model_construct(**kwargs))

    return Checked(
        fn=call, name=verb.name, title=verb.name.replace("_", " "), description=verb.doc,
        parameters=profiles.compact(model.model_json_schema(by_alias=True), arguments=True),
        fn_metadata=FuncMetadata(arg_model=model, output_model=verb.out, output_schema=profiles
                                 .compact(verb.out.model_json_schema(by_alias=True),
                                          arguments=False)), is_async=False,
        annotations=ToolAnnotations(read_only_hint=verb.read_only,
                                    destructive_hint=verb.destructive),
    )


def read(door: Door, fn: Callable[[ScopedMemory], str]) -> str:
    """A resource read in the server's scope; engramdb errors become resource errors."""
    try:
        with door.lock:
            return fn(door.scoped(None))
    except NotFound as exc:
        raise ResourceNotFoundError(f"{exc.code}: {exc}") from None
    except EngramError as exc:
        raise ResourceError(f"{exc.code}: {exc}") from None


def add_resources(server: MCPServer, door: Door) -> None:
    @server.resource("engramdb://boot", name="boot", mime_type="text/plain",
                     description="What the agent loads at start (the boot tool, as text)")
    def boot() -> str:
        return read(door, lambda me: boot_text(me.boot().to_dict()))

    @server.resource("engramdb://memory/{id}", name="memory", mime_type="application/json",
                     description="One memory by id, as JSON")
    def by_id(id: str) -> str:  # noqa: A002 - the template variable is named id
        return read(door, lambda me: _json(me.get(id).to_dict()))

    for domain in sorted(DOMAINS):
        server.resource(f"{domain}://{{+path}}", name=f"{domain} memory",
                        mime_type="application/json",
                        description=f"One memory by its URI, {domain}://...")(_by_uri(door, domain))


def _by_uri(door: Door, domain: str) -> Callable[[str], str]:
    def by_uri(path: str) -> str:
        return read(door, lambda me: _json(me.get(f"{domain}://{path}").to_dict()))

    return by_uri


def _json(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2)


def build_server(door: Door, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 transport: str = "http") -> MCPServer:
    keys: dict[str, Any] = {}
    if door.options.keys:
        keys = {"auth": auth.settings(host, port, web.PATHS.get(transport, "/mcp")),
                "token_verifier": auth.KeyVerifier(door)}
    server = MCPServer(
        "engramdb", version=engramdb.__version__, log_level="INFO",
        instructions="Long-term memory for this user: `boot` at the start, `recall` before "
        "answering from memory, `remember` what is worth keeping, `forget`/`update` when the "
        "user corrects you.",
        tools=[tool(v, door) for v in profiles.select(door.options.tools, VERBS)], **keys,
    )
    add_resources(server, door)
    return server


def serve(options: Options, *, http: bool = False, host: str = "127.0.0.1",
          port: int = DEFAULT_PORT, transport: str | None = None) -> None:
    """Run until the client goes away (stdio) or the process is stopped (HTTP, SSE).
    ``transport``: stdio, http (streamable HTTP) or sse; ``http=True`` is ``"http"``."""
    kind = transport or ("http" if http else "stdio")
    if kind not in web.TRANSPORTS:
        raise ConfigError(f"transport must be one of {', '.join(web.TRANSPORTS)}, got {kind!r}")
    options = options.with_env()
    if options.keys and kind == "stdio":
        raise ConfigError("--keys is for the HTTP transports (--http, --transport sse): over "
                          "stdio, whoever starts the process owns it")
    door = Door(options)
    server = build_server(door, host, port, kind)
    limit = Config.load().mcp_max_message_bytes
    where = f"http://{host}:{port}{web.PATHS[kind]}" if kind != "stdio" else "stdio"
    scope = "per call" if options.scope_per_call else \
        f"user={options.user or '$ENGRAMDB_USER'} agent={options.agent or '$ENGRAMDB_AGENT'}"
    listed = profiles.select(options.tools, VERBS)
    print(f"engramdb MCP server on {where}; scope {scope}; {len(listed)} tools "
          f"({options.tools or profiles.DEFAULT})", file=sys.stderr, flush=True)
    if kind != "stdio" and options.keys:
        print("API keys required: 'Authorization: Bearer <key>' (engramdb keys create)",
              file=sys.stderr, flush=True)
    elif kind != "stdio" and host not in LOOPBACK:
        print(f"warning: {host} is not a loopback address and the MCP endpoint has no keys: "
              "anyone who reaches it reads and writes this memory (start it with --keys)",
              file=sys.stderr, flush=True)
    try:
        if kind != "stdio":
            web.run(server, host=host, port=port, limit=limit, transport=kind)
        else:
            anyio.run(stdio.serve_stdio, server, limit)   # answers malformed input
    finally:
        door.close()

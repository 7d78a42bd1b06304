"""The MCP server's HTTP transports: streamable HTTP (`engramdb mcp --transport http`, or
--http), the SDK's Starlette app at /mcp; and SSE (`--transport sse`, the older MCP transport
some clients still speak), the SDK's app with the event stream at GET /sse and the messages
POSTed to /messages/?session_id=... Both run by uvicorn on engramdb's wire (server/wire.py: a
URL over ``Config.http_max_url_bytes`` gets 414, headers over ``Config.http_max_header_bytes``
431), with each POSTed message checked first as stdio checks each line (jsonrpc.py, issue 29):

- a body over ``Config.mcp_max_message_bytes``: 413, and the JSON-RPC error ``-32600``;
- a body that is not a JSON-RPC message (not JSON, nested too deep, not JSON-RPC 2.0): 400
  and the JSON-RPC error (``-32700`` or ``-32600``), in plain words.

Streamable HTTP: a JSON body is checked; other content types go on to the SDK, which answers
them with 415. SSE: every POST is checked whatever its content type (the SDK's SSE endpoint
reads any body as JSON). Over SSE the answer to a message that passes travels on the event
stream; a refused one is answered on its POST only."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Scope

from ..server.limits import BodyLimit
from ..server.wire import PROTOCOL
from .jsonrpc import NOT_UTF8, Refusal, refusal, too_large

TRANSPORTS = ("stdio", "http", "sse")
PATHS = {"http": "/mcp", "sse": "/sse"}


class CheckedMessages(BodyLimit):
    """ASGI middleware: the JSON-RPC checks above, before the SDK reads a body."""

    def __init__(self, app: ASGIApp, limit: int, *, any_type: bool = False) -> None:
        super().__init__(app, limit)
        self.any_type = any_type   # SSE: every POST, whatever its content type

    def too_large(self) -> Any:
        return _json(too_large(self.limit))

    def check(self, scope: Scope, body: bytes) -> tuple[int, Any] | None:
        if scope.get("method") != "POST" or not (self.any_type or _is_json(scope)):
            return None
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return 400, _json(NOT_UTF8)
        problem = refusal(text)
        return None if problem is None else (400, _json(problem))


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers") or []:
        if name == b"content-type":
            return bool(value.split(b";")[0].strip().lower() == b"application/json")
    return False


def _json(problem: Refusal) -> Any:
    code, message, id_ = problem
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def app(server: MCPServer, host: str, limit: int, transport: str = "http") -> ASGIApp:
    if transport == "sse":
        return CheckedMessages(server.sse_app(host=host, max_request_body_size=limit), limit,
                               any_type=True)
    return CheckedMessages(server.streamable_http_app(host=host, max_request_body_size=limit),
                           limit)


def run(server: MCPServer, *, host: str, port: int, limit: int, transport: str = "http") -> None:
    """Serve ``server`` at http://HOST:PORT/mcp (streamable HTTP) or /sse (SSE) until the
    process is stopped."""
    import uvicorn

    uvicorn.run(app(server, host, limit, transport), host=host, port=port, http=PROTOCOL,
                log_level=server.settings.log_level.lower(), server_header=False)

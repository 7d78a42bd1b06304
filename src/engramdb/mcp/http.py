"""The MCP server's streamable HTTP transport (`engramdb mcp --http`): the SDK's Starlette app
at /mcp, run by uvicorn on engramdb's wire (server/wire.py: a URL over
``Config.http_max_url_bytes`` gets 414, headers over ``Config.http_max_header_bytes`` 431),
with each POSTed message checked first as stdio checks each line (jsonrpc.py, issue 29):

- a body over ``Config.mcp_max_message_bytes``: 413, and the JSON-RPC error ``-32600``;
- a JSON body that is not a JSON-RPC message (not JSON, nested too deep, not JSON-RPC 2.0):
  400 and the JSON-RPC error (``-32700`` or ``-32600``), in plain words.

Everything else (other content types included, which the SDK answers with 415) goes on to
the SDK unchanged."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Scope

from ..server.limits import BodyLimit
from ..server.wire import PROTOCOL
from .jsonrpc import NOT_UTF8, Refusal, refusal, too_large


class CheckedMessages(BodyLimit):
    """ASGI middleware: the JSON-RPC checks above, before the SDK reads a body."""

    def too_large(self) -> Any:
        return _json(too_large(self.limit))

    def check(self, scope: Scope, body: bytes) -> tuple[int, Any] | None:
        if scope.get("method") != "POST" or not _is_json(scope):
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


def app(server: MCPServer, host: str, limit: int) -> ASGIApp:
    return CheckedMessages(server.streamable_http_app(host=host, max_request_body_size=limit),
                           limit)


def run(server: MCPServer, *, host: str, port: int, limit: int) -> None:
    """Serve ``server`` at http://HOST:PORT/mcp until the process is stopped."""
    import uvicorn

    uvicorn.run(app(server, host, limit), host=host, port=port, http=PROTOCOL,
                log_level=server.settings.log_level.lower(), server_header=False)

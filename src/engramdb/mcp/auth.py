"""API keys on the MCP door's HTTP transports (``engramdb mcp --http --keys``, or
``--transport sse --keys``).

The keys are the HTTP server's (engramdb/keys.py, ``engramdb keys create``): a request carries
one as ``Authorization: Bearer <key>``. The MCP SDK's bearer middleware asks ``KeyVerifier``
and answers 401 without a live key, before any tool runs. A tool call then acts on the key's
scope, with the role its tool needs, as on the HTTP door: reading tools need read (recall,
context and focus too: a tracked one records uses, as ``POST /v1/recall`` does for a read key),
the snapshot tool (which can replace a scope) admin, as does ``reveal=true`` on get and
recall (the values the PII policy masked), every other tool write (goal, session
and procedure write as well as list). A key that is not an admin key cannot name
another scope (``--scope-per-call``): the call is a tool error ("forbidden"), like a read key
calling a writing tool. stdio has no keys: whoever starts the process owns it."""

from __future__ import annotations

import threading
from typing import Any, Protocol

import anyio
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from ..engine import Memory
from ..errors import EngramError
from ..keys import Keys, Unauthorized
from ..model import Role, Scope


class Door(Protocol):
    """What the keys need of the server's door (door.Door): its memory and its lock."""

    lock: threading.RLock

    def memory(self) -> Memory: ...


class Verb(Protocol):
    """What decides a tool's role (tools.Verb): its name and whether it only reads."""

    name: str
    read_only: bool

ADMIN_TOOLS = ("snapshot",)
READ_TOOLS = ("recall", "context", "focus")


def role_of(verb: Verb, args: Any = None) -> Role:
    """The role a call needs: admin to see masked values (``reveal``), else by the tool."""
    if getattr(args, "reveal", False) is True:
        return Role.ADMIN
    if verb.read_only or verb.name in READ_TOOLS:
        return Role.READ
    return Role.ADMIN if verb.name in ADMIN_TOOLS else Role.WRITE


def settings(host: str, port: int, path: str = "/mcp") -> AuthSettings:
    """The SDK's resource-server settings for this endpoint (keys are issued by engramdb
    itself, so the "authorization server" is the endpoint's own origin)."""
    origin = f"http://{host}:{port}"
    return AuthSettings(issuer_url=origin, resource_server_url=f"{origin}{path}")


class KeyVerifier:
    """The SDK's token verifier: a bearer token is valid when it is a live engramdb key."""

    def __init__(self, door: Door) -> None:
        self.door = door

    async def verify_token(self, token: str) -> AccessToken | None:
        def check() -> Any:
            with self.door.lock:
                return Keys(self.door.memory()).authenticate(token)

        try:
            key = await anyio.to_thread.run_sync(check)
        except EngramError:
            return None
        return AccessToken(token=token, client_id=key.id, scopes=[key.role.value])


def granted_scope(door: Door, need: Role, user: str | None, agent: str | None) -> Scope:
    """The scope this call may act on, from the request's key (Unauthorized / Forbidden)."""
    token = get_access_token()
    if token is None:
        raise Unauthorized("no API key: send 'Authorization: Bearer <key>'")
    return Keys(door.memory()).grant(token.token, need, user=user, agent=agent).scope

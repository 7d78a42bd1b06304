"""Who is calling: the key (Authorization: Bearer, or X-API-Key), the scope it acts on, and
the role the route needs. The checks themselves are in engramdb/keys.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ..engine import Memory
from ..keys import Grant, Keys
from ..model import Role
from .limits import Limits

bearer = HTTPBearer(auto_error=False, description="An API key from `engramdb keys create`.")
header_key = APIKeyHeader(name="X-API-Key", auto_error=False,
                          description="The same key, for clients that cannot send Bearer.")
SCOPE_HELP = "Scope to act on: an admin key may name any; other keys only their own."


@dataclass
class Engram:
    """What a server process holds: the memory, its keys and the limits."""

    memory: Memory
    keys: Keys
    limits: Limits


@dataclass
class Caller:
    """One authorised request: the grant, the memory bound to its scope, the limits."""

    grant: Grant
    mem: Any  # ScopedMemory: the Memory verbs bound to grant.scope
    limits: Limits

    def can(self, role: Role) -> bool:
        return self.grant.allows(role)


def engram(request: Request) -> Engram:
    return request.app.state.engram  # type: ignore[no-any-return]


def needs(role: Role) -> Callable[..., Caller]:
    """A dependency: the caller, authorised for ``role`` on the scope the request names."""

    def caller(
        request: Request,
        user: Annotated[str | None, Query(description=SCOPE_HELP)] = None,
        agent: Annotated[str | None, Query(description=SCOPE_HELP)] = None,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
        api_key: Annotated[str | None, Depends(header_key)] = None,
    ) -> Caller:
        e = engram(request)
        secret = credentials.credentials if credentials else api_key
        grant = e.keys.grant(secret, role, user=user, agent=agent)
        return Caller(grant, e.memory.scope(grant.scope.user, grant.scope.agent), e.limits)

    return caller


reader = needs(Role.READ)
writer = needs(Role.WRITE)

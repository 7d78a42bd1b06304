"""API keys for the HTTP door: each key is bound to one scope (user, agent) and one role.

A key's secret (``edb_`` + 43 URL-safe characters, 256 random bits) is shown once, when it is
created; the store keeps only its SHA-256, so a stolen database file gives no usable key. A
request is authorised in three steps (``Keys.grant``): the secret names a live key (else
Unauthorized), the key's role covers what the request does (else Forbidden), and the scope the
request names is the key's own (else Forbidden), unless the key is an admin key, which may
name any scope. What the request then reaches is only that scope's memories: an id from
another scope is not found, exactly like an id that does not exist."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .clock import aware
from .errors import EngramError, Invalid, NotFound
from .ids import new_id
from .model import ApiKey, Role, Scope
from .text.checks import storable

if TYPE_CHECKING:
    from .facade import Facade

SECRET_PREFIX = "edb_"
MAX_SECRET = 200      # longer "keys" are refused before hashing
MAX_NAME = 200
RANK = {Role.READ: 0, Role.WRITE: 1, Role.ADMIN: 2}


class Unauthorized(EngramError):
    """No API key, an unknown one, or a revoked one."""

    code = "unauthorized"


class Forbidden(EngramError):
    """The key is valid but may not do this: its role is too low, or it names another scope."""

    code = "forbidden"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def parse_role(role: str | Role) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise Invalid(f"unknown role {role!r} (read, write, admin)") from None


@dataclass(frozen=True)
class Grant:
    """What one authenticated request may do: its key, and the scope it acts on."""

    key: ApiKey
    scope: Scope

    @property
    def role(self) -> Role:
        return self.key.role

    def allows(self, role: Role) -> bool:
        return RANK[self.key.role] >= RANK[role]


class Keys:
    """Create, list, revoke and check the API keys stored beside the memories."""

    def __init__(self, memory: Facade, *, local: str | None = None) -> None:
        """``local``: the token of this server's discovery file (discovery.py), an admin grant
        on any scope for the CLI of the same user; None: stored keys only."""
        self.memory = memory
        self.store = memory.store
        self.local = local
        self._local_key = None if not local else ApiKey(
            id="local", user=memory.scope().user, agent=memory.scope().agent, role=Role.ADMIN,
            name="the local CLI (discovery file)",
            created_at=aware(memory.clock.now(), "clock.now()"))

    def create(self, *, user: str | None = None, agent: str | None = None,
               role: str | Role = Role.READ, name: str = "") -> tuple[ApiKey, str]:
        """A new key and its secret. The secret is not stored: give it to its owner now."""
        scope = self.memory.scope(user, agent)
        if not isinstance(name, str) or len(name) > MAX_NAME or not storable(name):
            raise Invalid(f"name must be text of at most {MAX_NAME} characters")
        now = aware(self.memory.clock.now(), "clock.now()")
        key = ApiKey(id="k" + new_id(now), user=scope.user, agent=scope.agent,
                     role=parse_role(role), name=name, created_at=now)
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        self.store.insert_key(key, hash_secret(secret))
        return key, secret

    def list(self, *, user: str | None = None, agent: str | None = None) -> list[ApiKey]:
        """Every key, or those of one scope when ``user`` or ``agent`` is given."""
        if user is None and agent is None:
            return self.store.list_keys()
        scope = self.memory.scope(user, agent)
        return self.store.list_keys(Scope(scope.user, scope.agent))

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key for good: every later request with it is refused (401)."""
        if not isinstance(key_id, str) or not key_id:
            raise Invalid("give a key id")
        key = self.store.revoke_key(key_id, aware(self.memory.clock.now(), "clock.now()"))
        if key is None:
            raise NotFound(f"no key {key_id!r}")
        return key

    def authenticate(self, secret: str | None) -> ApiKey:
        if not secret:
            raise Unauthorized("no API key: send 'Authorization: Bearer <key>'")
        if self.local and self._local_key is not None \
                and hmac.compare_digest(secret.encode(), self.local.encode()):
            return self._local_key
        if len(secret) > MAX_SECRET or not secret.startswith(SECRET_PREFIX) \
                or not storable(secret):
            raise Unauthorized("unknown API key")
        key = self.store.key_by_hash(hash_secret(secret))
        if key is None:
            raise Unauthorized("unknown API key")
        if not key.active:
            raise Unauthorized(f"API key {key.id} was revoked")
        return key

    def grant(self, secret: str | None, need: Role, *, user: str | None = None,
              agent: str | None = None) -> Grant:
        """Check a request: its key (401), the role it needs (403) and the scope it names
        (403 unless the key is an admin key; none named: the key's own scope)."""
        key = self.authenticate(secret)
        if RANK[key.role] < RANK[need]:
            raise Forbidden(f"API key {key.id} has role {key.role.value}; this needs "
                            f"{need.value}")
        if key.role == Role.ADMIN:
            scope = self.memory.scope(key.user if user is None else user,
                                      key.agent if agent is None else agent)
            return Grant(key, Scope(scope.user, scope.agent))
        for name, asked, own in (("user", user, key.user), ("agent", agent, key.agent)):
            if asked is not None and asked != own:
                raise Forbidden(f"API key {key.id} is bound to user={key.user} "
                                f"agent={key.agent}: it cannot name {name}={asked}")
        return Grant(key, key.scope)

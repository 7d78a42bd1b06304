"""``reveal=true`` on the HTTP door (get, recall, export): the values the PII policy masked
(write/privacy.py) come back only to an admin key; any other key gets 403."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from ..keys import Forbidden
from ..model import Role
from .auth import Caller

RevealQuery = Annotated[bool, Query(description="Admin keys only: the values the PII policy "
                                                "masked in place of their placeholders.")]


def may_reveal(c: Caller, reveal: bool) -> bool:
    if reveal and not c.can(Role.ADMIN):
        raise Forbidden(f"API key {c.grant.key.id} has role {c.grant.key.role.value}: "
                        f"reveal=true (masked personal data) needs an admin key")
    return reveal

"""Opening a working-memory session: new ones get the configured settings, given settings
replace stored ones, and everything is checked first."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import Invalid, NotFound
from ..model import Scope
from ..text.checks import storable
from ..text.tokens import check_encoding
from .session import WorkingMemory
from .state import SessionInfo, Settings

if TYPE_CHECKING:
    from ..facade import Facade

SUMMARIZERS = ("extractive", "llm")
MAX_ID = 200


def open_session(memory: Facade, scope: Scope, session_id: str, create: bool = True,
                 **given: Any) -> WorkingMemory:
    check_session_id(session_id)
    changes = {k: v for k, v in given.items() if v is not None}
    stored = memory.store.session(scope, session_id)
    if stored is None and not create:
        raise NotFound(f"no session {session_id!r} for user={scope.user} agent={scope.agent}")
    base = stored.settings if stored else defaults(memory)
    settings = check_settings(replace(base, **changes))
    if stored is None:
        now = memory._now()
        info = SessionInfo(id=session_id, settings=settings, created_at=now, updated_at=now)
        memory.store.save_session(scope, info)
        return WorkingMemory(memory, scope, info)
    session = WorkingMemory(memory, scope, stored)
    if settings != stored.settings and not session.ended:
        session.apply_settings(settings)
    return session


def defaults(memory: Facade) -> Settings:
    c = memory.config
    return Settings(budget=c.session_budget, keep=c.session_keep,
                    offload_tokens=c.offload_tokens, encoding=c.encoding,
                    summarizer=c.summarizer)


def check_session_id(session_id: object) -> str:
    if (not isinstance(session_id, str) or not session_id.strip() or len(session_id) > MAX_ID
            or not storable(session_id) or any(ord(ch) < 32 for ch in session_id)):
        raise Invalid(f"a session id must be a non-empty line of at most {MAX_ID} characters, "
                      f"got {session_id!r}")
    return session_id


def check_settings(s: Settings) -> Settings:
    for name, low in (("budget", 1), ("keep", 0), ("offload_tokens", 1)):
        value = getattr(s, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise Invalid(f"{name} must be an integer of at least {low}, got {value!r}")
    check_encoding(s.encoding)
    if s.summarizer not in SUMMARIZERS:
        raise Invalid(f"summarizer must be one of {', '.join(SUMMARIZERS)}, got "
                      f"{s.summarizer!r}")
    return s

"""Taking turns back out of a working-memory session: drop the newest turn, or all of them.

A session's turns are append-only in the store. A rewind therefore starts the session's next
generation (``<id>~1``, ``<id>~2``, ...) with the same settings, replays the turns that stay
(so the summary and the window are rebuilt exactly as ``add`` builds them) and closes the old
generation without handing it to long-term memory. ``current`` finds the newest generation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Scope
from .session import WorkingMemory
from .state import Turn

if TYPE_CHECKING:
    from ..facade import Facade

MARK = "~"


def current(memory: Facade, scope: Scope, base: str) -> str:
    """The id of the newest generation of session ``base`` (``base`` itself at first)."""
    best, name = -1, base
    for info in memory.store.sessions(scope):
        n = generation(base, info.id)
        if n is not None and n > best:
            best, name = n, info.id
    return name


def generation(base: str, session_id: str) -> int | None:
    if session_id == base:
        return 0
    head, mark, tail = session_id.rpartition(MARK)
    return int(tail) if head == base and mark and tail.isdigit() else None


def rewind(memory: Facade, wm: WorkingMemory, base: str, keep: int) -> tuple[WorkingMemory,
                                                                             list[Turn]]:
    """The next generation holding the first ``keep`` turns of ``wm``; returns it and the
    turns left out. All in one transaction."""
    turns = wm.turns()
    n = max((g for s in memory.store.sessions(wm.scope)
             if (g := generation(base, s.id)) is not None), default=0)
    new_id = f"{base}{MARK}{n + 1}"
    now = memory._now()
    s = wm.settings
    with memory.store.transaction():
        old = memory.store.session(wm.scope, wm.id)
        if old is not None:
            memory.store.save_session(wm.scope, old.replace(ended_at=now, updated_at=now))
        new = memory.session(new_id, budget=s.budget, keep=s.keep,
                             offload_tokens=s.offload_tokens, encoding=s.encoding,
                             summarizer=s.summarizer, user=wm.scope.user, agent=wm.scope.agent)
        for t in turns[:keep]:
            new.add(t.role, t.content, pin=t.pinned)
    return new, turns[keep:]

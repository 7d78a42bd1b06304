"""The "still true?" queue (dynamics/stilltrue.py): which facts to ask about, and confirming
one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Invalid
from .core import Core

if TYPE_CHECKING:
    from ..dynamics.stilltrue import StillTrue


class ReviewVerbs(Core):
    """review_queue, confirm."""

    def review_queue(self, k: int = 10, *, user: str | None = None,
                     agent: str | None = None) -> list[StillTrue]:
        """The facts and preferences gone unconfirmed past their period (``Config
        .still_true_days``, longer for higher priority and importance), the longest overdue
        first: ask whether each still holds, then ``confirm``, ``update`` or ``forget`` it
        (dynamics/stilltrue.py)."""
        from ..dynamics.stilltrue import check_k

        return self._still_true(self._scope(user, agent), check_k(k))[0]

    def confirm(self, memory_id: str, *, content: str | None = None, user: str | None = None,
                agent: str | None = None) -> StillTrue:
        """Say that a memory still holds: a ``confirm`` event in its history and a use, so it
        leaves the "still true?" queue until its period passes again. ``content``: it holds
        in these words now (an ``update`` of its content first, then the confirmation)."""
        from ..dynamics.stilltrue import confirm

        scope = self._scope(user, agent)
        if content is not None and not isinstance(content, str):
            raise Invalid(f"content must be text, got {type(content).__name__}")
        with self.store.transaction():
            if content is not None:
                self.update(memory_id, content=content, user=scope.user, agent=scope.agent)
            rec = self._get(scope, memory_id)
            return confirm(self.store, scope, rec, self._now(), self.config.still_true_days)

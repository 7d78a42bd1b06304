"""Sleep off the caller's path: the automatic sleep of a write, and the periodic sleep of a
server (``Config.sleep_in_background``, ``Config.sleep_every``; docs/cli.md "sleep").

Without either setting nothing here runs: a write that brings the importance written since the
scope's last sleep to ``auto_sleep_importance`` sleeps the scope itself before it returns
(engine/writes.py), as a library user with no server expects.

With ``sleep_in_background`` (on by default in `engramdb serve` and `engramdb mcp`), that
write marks its scope due and returns; the ``Sleeper``'s thread sleeps the scope right after.
The importance count lives in the database, so a scope still due when the process stops is
found again by the next process's first round.

With ``sleep_every`` (e.g. "6h"; off by default), once a period on the Memory's clock the
thread sleeps every scope with activity: a memory changed since the scope's last sleep (its
own changes included, so a scope a sleep changed is looked at once more), or one due now
(an expiry, a due date). The first period starts when the Memory opens. Each worker of
`engramdb serve --workers N` has its own; a scope one of them slept has no activity left for
the others.

``tick()`` is one round on the caller's thread (what the thread runs, and what tests call
after moving the clock); the thread wakes when a write marks a scope and every ``POLL_S``
seconds of real time otherwise."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..model import Scope
from ..store.protocol import Store
from .background import Background

if TYPE_CHECKING:
    from ..dynamics.sleep import SleepReport

log = logging.getLogger("engramdb")
POLL_S = 30.0   # real seconds between two looks at the clock when no write wakes the thread


class Sleeper(Background):
    """The due scopes, the periodic schedule, and the thread that sleeps them."""

    def __init__(self, store: Store, sleep: Callable[[Scope], SleepReport],
                 now: Callable[[], datetime], *, every_s: float = 0.0,
                 threshold: float = 0.0) -> None:
        super().__init__("engramdb-sleep")   # error: why the last sleep of a round failed
        self.store = store
        self._sleep = sleep
        self._now = now
        self.every = timedelta(seconds=every_s) if every_s > 0 else None
        self.threshold = threshold
        self.next_at: datetime | None = now() + self.every if self.every else None
        self._due: dict[Scope, None] = {}
        self._catch_up = True        # the first round looks for scopes a past process left due
        self._round = threading.Lock()   # one round at a time: the thread's or a tick()

    # ---------------------------------------------------------------- scheduling

    def mark(self, scope: Scope) -> None:
        """The scope is due: its write reached the threshold. The thread sleeps it soon."""
        with self._start:
            self._due[scope] = None
        self.start()
        self._wake.set()

    def tick(self) -> list[SleepReport]:
        """One round, now, on this thread: the scopes marked due (and, in the first round,
        those a past process left due), then, when the period has come round on the clock,
        every scope with activity. Returns one report per scope slept."""
        with self._round:
            with self._start:
                scopes = list(self._due)
                self._due.clear()
            if self._catch_up:
                self._catch_up = False
                scopes += [s for s in self._left_due() if s not in scopes]
            now = self._now()
            if self.next_at is not None and self.every is not None and now >= self.next_at:
                self.next_at = now + self.every
                scopes += [s for s in self._active(now) if s not in scopes]
            return [r for r in (self._one(s) for s in scopes) if r is not None]

    def _one(self, scope: Scope) -> SleepReport | None:
        try:
            return self._sleep(scope)
        except Exception as exc:  # noqa: BLE001 - the thread goes on; the next round retries
            self.error = exc
            log.warning("engramdb: background sleep of user=%s agent=%s failed: %s",
                        scope.user, scope.agent, exc)
            return None

    def _left_due(self) -> list[Scope]:
        if self.threshold <= 0:
            return []
        return [s for s in self.store.scopes()
                if self.store.sleep_state(s).importance >= self.threshold]

    def _active(self, now: datetime) -> list[Scope]:
        return [s for s in self.store.scopes()
                if self.store.changed_since(s, self.store.sleep_state(s).event_seq)[1]
                or self.store.due(s, now)]

    # ---------------------------------------------------------------- the thread

    def start(self) -> None:
        """Start the thread (once; not after close)."""
        with self._start:
            self._launch()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(POLL_S)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.tick()
            except Exception as exc:  # noqa: BLE001 - listing the scopes failed: next round
                self.error = exc
                log.warning("engramdb: background sleep round failed: %s", exc)

    def idle(self, timeout: float) -> bool:
        """Wait until no scope is due and no round runs (True), or ``timeout`` seconds pass."""
        deadline = threading.Event()
        timer = threading.Timer(timeout, deadline.set)
        timer.start()
        try:
            while not deadline.is_set():
                with self._round, self._start:
                    if not self._due:
                        return True
                self._wake.set()
                deadline.wait(0.01)
            return False
        finally:
            timer.cancel()


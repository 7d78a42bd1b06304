"""The thread the vector worker (deferred.py) and the sleeper (sleeper.py) run their work on:
started on first use, woken by an event, stopped by ``close`` after the work in hand (what is
still to do stays stored for the next process)."""

from __future__ import annotations

import threading


class Background:
    """A daemon thread running ``_loop``; a subclass gives ``_loop`` and calls ``_launch``."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.error: Exception | None = None   # why the thread's last run failed, if it did

    def _launch(self) -> None:
        """Start the thread, once and not after close; the caller holds ``_start``."""
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Stop the thread after the work in hand; what is still to do stays stored."""
        with self._start:
            self._stop.set()
            thread = self._thread
        self._wake.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

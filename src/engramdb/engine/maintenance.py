"""Maintenance: sleep and decay (dynamics/), a scope's own index, export, import,
snapshots (io/)."""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING, Any

from ..errors import Invalid
from ..model import Scope
from .core import ACTOR, Core, Progress
from .uricheck import BadUri, bad_uris

if TYPE_CHECKING:
    from ..dynamics.sleep import SleepReport


class MaintenanceVerbs(Core):
    """sleep, decay, flush, index_scope, export, import_, snapshot, restore_snapshot."""

    def sleep(self, phase: str | None = None, *, full: bool = False, user: str | None = None,
              agent: str | None = None) -> SleepReport:
        """Maintenance: sync -> decay -> tidy -> consolidate -> govern, or the one ``phase``
        named. After a scope's first sleep a whole sleep is incremental (only what changed or
        is due); ``full=True`` looks at everything. Returns what each phase examined and
        changed (dynamics/sleep.py)."""
        if not isinstance(full, bool):
            raise Invalid(f"full must be true or false, got {full!r}")
        self._later.flush()  # vectors a deferred write left pending: the passes compare them
        return self._sleep(self._scope(user, agent), phase, full)

    def sleep_all(self, phase: str | None = None, *, full: bool = False) -> list[SleepReport]:
        """``sleep`` for every scope in the store, one after another (each in its own
        transactions, as a sleep of that scope alone); one report per scope, in the store's
        scope order. ``engramdb reflect all`` runs it with ``full=True``."""
        if not isinstance(full, bool):
            raise Invalid(f"full must be true or false, got {full!r}")
        if phase is not None:
            from ..dynamics.sleep import check_phase

            check_phase(phase)  # refused even when the store holds no scope yet
        self._later.flush()
        return [self._sleep(scope, phase, full) for scope in self.store.scopes()]

    def _sleep(self, scope: Scope, phase: str | None = None, full: bool = False) -> SleepReport:
        """The sleep itself. The automatic sleep after a write runs it without the catch-up:
        the write's caller does not wait for the model (a memory still without its vector is
        left out of the merge pass; the vector batch checks its near-duplicates)."""
        from ..dynamics.sleep import run_sleep  # a process that never sleeps never loads it

        return run_sleep(self.store, scope, self._now(), self.decay_params, phase,
                         embed=self._embed, polisher=self._polisher(), full=full,
                         near_hints=self._near.take(scope), compare=self.compare,
                         rule_books=self._rule_books)

    def _polisher(self) -> Any:
        if not self.config.llm_url:
            return None
        from ..dynamics.polish import Polisher
        from ..llm.chat import Endpoint

        return Polisher(Endpoint.of(self.config))

    def reflect(self, phase: str | None = None, *, full: bool = False, user: str | None = None,
                agent: str | None = None) -> SleepReport:
        """The design's name for ``sleep``: the same maintenance, the same report."""
        return self.sleep(phase, full=full, user=user, agent=agent)

    def decay(self, *, user: str | None = None, agent: str | None = None) -> SleepReport:
        """The decay phase alone: archive the core memories whose weight fell below
        ``Config.archive_below``."""
        return self.sleep("decay", user=user, agent=agent)

    def flush(self) -> int:
        """Compute every vector a deferred write (``Config.embed = "deferred"``) left pending,
        in every scope, now, and complete the decisions that wait for them (engine/deferred.py);
        returns how many memories got their vector. With ``embed = "sync"`` there is nothing
        to do unless a deferred writer left some (the open finishes those already)."""
        return self._later.flush()

    def index_scope(self, *, drop: bool = False, user: str | None = None,
                    agent: str | None = None) -> dict[str, Any]:
        """PostgreSQL: build (or ``drop``) the scope's own vector index, for a scope much larger
        than most in its database (store/postgres/scopeindex.py); tens of seconds per 100,000
        memories, writes go on meanwhile. SQLite keeps each scope's vectors apart already."""
        scope = self._scope(user, agent)
        build = getattr(self.store, "build_scope_index", None)
        drop_index = getattr(self.store, "drop_scope_index", None)
        if build is None or drop_index is None:
            raise Invalid(f"{self.store.location} keeps each scope's vectors apart already: "
                          "a scope index is for PostgreSQL")
        if drop:
            return {"user": scope.user, "agent": scope.agent,
                    "dropped": drop_index(scope)}
        return {"user": scope.user, "agent": scope.agent, "built_in_s": round(build(scope), 3)}
    def export(self, fp: IO[str], *, user: str | None = None, agent: str | None = None,
               all_scopes: bool = False, reveal: bool = False) -> int:
        """Write the scope (or every scope) as JSON lines. ``reveal=True``: each memory's
        masked values in place of their placeholders (the PII policy, write/privacy.py)."""
        from ..io.jsonl import export_jsonl

        scopes = self.scopes() if all_scopes else [self._scope(user, agent)]
        return export_jsonl(self, fp, scopes, reveal=reveal is True)

    def import_(self, fp: IO[str], *, progress: Progress | None = None,
                skip_bad: bool = False) -> dict[str, Any]:
        """Import a JSONL export, all or nothing: a bad line raises Invalid naming it and
        nothing is written. ``skip_bad=True``: the bad items are left out, the rest is
        written, and ``bad`` lists each one ({"line": n, "reason": "..."})."""
        from ..io.jsonl import import_jsonl

        if not isinstance(skip_bad, bool):
            raise Invalid(f"skip_bad must be True or False, not {type(skip_bad).__name__}")
        return import_jsonl(self, fp, progress, skip_bad)

    def snapshot(self, target: str | os.PathLike[str] | IO[str], *, user: str | None = None,
                 agent: str | None = None) -> int:
        """Write the scope (every layer, vectors, event logs) to a file path or a text stream,
        in the JSONL export format with the scope in its header. Returns the memory count."""
        from ..io.snapshot import write_snapshot

        return write_snapshot(self, target, self._scope(user, agent), self._now())

    def restore_snapshot(self, source: str | os.PathLike[str] | IO[str], *,
                         user: str | None = None, agent: str | None = None) -> dict[str, int]:
        """Replace everything the scope holds with a snapshot of it, in one transaction: what
        was written since the snapshot is gone, what was forgotten since is back. The file
        must be a snapshot of this scope. Returns {"removed", "restored", "reembedded"}."""
        from ..io.snapshot import restore_snapshot

        return restore_snapshot(self, source, self._scope(user, agent), self._now(), ACTOR)

    def check_uris(self, *, all_scopes: bool = False, user: str | None = None,
                   agent: str | None = None) -> list[BadUri]:
        """Stored rows whose URI today's rules refuse ('..', empty segments, control
        characters): one scope, or every scope with ``all_scopes`` (engine/uricheck.py)."""
        scopes = self.scopes() if all_scopes else [self._scope(user, agent)]
        return bad_uris(self, scopes)

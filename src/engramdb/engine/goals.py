"""The attention verbs of ``Memory``: goals, procedures, focus, learned rules, MEMORY.md and
migration (the work itself is in attention/ and io/)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Invalid, NotFound
from ..model import Goal, Kind
from .core import Core

if TYPE_CHECKING:
    from ..attention.focus import Workspace
    from ..attention.goals import GoalStack
    from ..attention.procedures import Procedure, Triggered
    from ..attention.rules import Learned
    from ..io.migrate import Plan


class AttentionVerbs(Core):
    """Every verb takes user=/agent= like the others."""

    # ------------------------------------------------------------ goals

    def _goals(self, user: str | None, agent: str | None) -> GoalStack:
        from ..attention.goals import GoalStack

        return GoalStack(self.store, self._scope(user, agent), self._now())

    def goal_start(self, title: str, *, constraints: Sequence[str] | None = None,
                   open_loops: Sequence[str] | None = None, user: str | None = None,
                   agent: str | None = None) -> Goal:
        """Start a goal and make it active; the goal active until now is paused under it and
        resumes when this one is done."""
        return self._goals(user, agent).start(title, constraints, open_loops)

    def goal_pause(self, goal_id: str | None = None, *, user: str | None = None,
                   agent: str | None = None) -> Goal:
        """Pause the active goal (or the one named); it stays paused until resumed."""
        return self._goals(user, agent).pause(goal_id)

    def goal_resume(self, goal_id: str, *, user: str | None = None,
                    agent: str | None = None) -> Goal:
        """Make a paused goal active again (the active one, if any, is paused)."""
        return self._goals(user, agent).resume(goal_id)

    def goal_done(self, goal_id: str | None = None, *, evidence: Sequence[str] | None = None,
                  user: str | None = None, agent: str | None = None) -> Goal:
        """Complete the active goal (or the one named); its parent, if paused, resumes."""
        return self._goals(user, agent).complete(goal_id, evidence)

    def goal_note(self, goal_id: str | None = None, *, evidence: Sequence[str] | None = None,
                  open_loops: Sequence[str] | None = None,
                  close_loops: Sequence[str] | None = None,
                  constraints: Sequence[str] | None = None, user: str | None = None,
                  agent: str | None = None) -> Goal:
        """Add evidence, open loops or constraints to a goal (default: the active one), or
        close open loops."""
        return self._goals(user, agent).note(goal_id, evidence=evidence, open_loops=open_loops,
                                             close_loops=close_loops, constraints=constraints)

    def goals(self, status: str | Sequence[str] | None = None, *, user: str | None = None,
              agent: str | None = None) -> list[Goal]:
        """The scope's goals, oldest first (of one status or several; default all)."""
        statuses = [status] if isinstance(status, str) else list(status or [])
        return self._goals(user, agent).list(statuses)

    def active_goal(self, *, user: str | None = None, agent: str | None = None) -> Goal | None:
        """The goal in focus now, or None."""
        return self._goals(user, agent).active()

    # ------------------------------------------------------------ procedures

    def add_procedure(self, title: str, steps: Sequence[str], triggers: Sequence[str], *,
                      confidence: float | None = None, user: str | None = None,
                      agent: str | None = None) -> Procedure:
        """Store a procedure (a procedure-kind memory at procedure://<slug of the title>).
        The same title again replaces its steps and triggers and keeps its track record."""
        from ..attention.procedures import START_CONFIDENCE, Procedure, procedure_draft

        scope = self._scope(user, agent)
        draft = procedure_draft(title, steps, triggers, START_CONFIDENCE)
        assert draft.uri is not None
        old = self.store.get_by_uri(scope, draft.uri)
        prev = Procedure.from_record(old) if old is not None else None
        conf = confidence if confidence is not None else (
            prev.confidence if prev else START_CONFIDENCE)
        counts = (prev.successes, prev.failures) if prev else (0, 0)
        draft = procedure_draft(title, steps, triggers, conf, counts)
        result = self.remember(draft.content, kind=Kind.PROCEDURE, uri=draft.uri,
                               metadata=draft.metadata, topics=draft.topics, user=scope.user,
                               agent=scope.agent)
        return Procedure.from_record(result.memory)

    def procedures(self, *, user: str | None = None,
                   agent: str | None = None) -> list[Procedure]:
        """Every current procedure of the scope."""
        from ..attention.focus import list_procedures

        return list_procedures(self, self._scope(user, agent))  # type: ignore[arg-type]

    def procedure_outcome(self, id_or_uri: str, success: bool, *, user: str | None = None,
                          agent: str | None = None) -> Procedure:
        """Record that following the procedure worked (confidence up) or failed (down); the
        change is a new version of its memory."""
        from ..attention.procedures import Procedure, after_outcome

        scope = self._scope(user, agent)
        rec = self.store.get_by_uri(scope, id_or_uri) if "://" in str(id_or_uri) else (
            self.store.get(scope, self._id(scope, id_or_uri)) if isinstance(id_or_uri, str)
            else None)
        if rec is None or rec.kind != Kind.PROCEDURE or not rec.current:
            raise NotFound(f"no procedure {id_or_uri!r} for user={scope.user} "
                           f"agent={scope.agent}")
        proc = after_outcome(Procedure.from_record(rec), success)
        with self.store.transaction():
            new = rec.replace(metadata={**rec.metadata, "procedure": proc.meta()},
                              updated_at=self._now(), version=rec.version + 1)
            self.store.save(new, "update", actor="user",
                            reason=f"outcome: {'success' if success else 'failure'}")
        return Procedure.from_record(new)

    def triggered_procedures(self, query: str, *, user: str | None = None,
                             agent: str | None = None) -> list[Triggered]:
        """The procedures whose triggers fire on the query or on the active goal."""
        from ..attention.focus import list_procedures
        from ..attention.goals import GoalStack
        from ..attention.procedures import triggered

        scope = self._scope(user, agent)
        goal = GoalStack(self.store, scope, self._now()).active()
        return triggered(list_procedures(self, scope),  # type: ignore[arg-type]
                         _query(query), goal.title if goal else "")

    # ------------------------------------------------------------ focus

    def focus(self, query: str, k: int = 5, *, track: bool = True, user: str | None = None,
              agent: str | None = None) -> Workspace:
        """The attention workspace for ``query``: the active goal, triggered procedures and
        the memories chosen by the attention score, with every candidate's breakdown in
        ``audit`` (attention/score.py). Chosen memories count as used unless track=False."""
        from ..attention.focus import MAX_K, build

        scope = self._scope(user, agent)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise Invalid(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
        now = self._now()
        ws = build(self, scope, _query(query), k, now)  # type: ignore[arg-type]
        if track and ws.memories:
            self.store.record_uses(scope, [s.memory.id for s in ws.memories], now, 60.0)
        return ws

    # ------------------------------------------------------------ rules and MEMORY.md

    def learn_from_mistake(self, mistake: str, rule: str, *,
                           file: str | os.PathLike[str] | None = None,
                           user: str | None = None, agent: str | None = None) -> Learned:
        """Keep ``rule`` once, as a rule memory noting the mistake (a rule that says the same
        is not added again), and append it to an AGENTS.md-style ``file`` if given."""
        from ..attention.rules import append_to_file, learn

        learned = learn(self, self._scope(user, agent), mistake, rule)  # type: ignore[arg-type]
        if file is not None:
            learned.file_added = append_to_file(file, learned.memory)
        return learned

    def agents_md(self, *, user: str | None = None, agent: str | None = None) -> str:
        """The scope's rules as an AGENTS.md text (learned ones under "## Learned rules")."""
        from ..attention.rules import render, rules_of

        return render(rules_of(self, self._scope(user, agent)))  # type: ignore[arg-type]

    def export_memory_md(self, *, uris: bool = False, user: str | None = None,
                         agent: str | None = None) -> str:
        """The scope's current memories as a zoned MEMORY.md (io/markdown.py); ``uris`` adds
        each memory's URI as a trailing comment."""
        from ..io.markdown import render as render_md
        from ..store.protocol import ListFilter

        scope = self._scope(user, agent)
        records = self.store.list(scope, ListFilter(current_only=True))
        return render_md(records, self._now(), scope, uris=uris)

    def migrate(self, path: str | os.PathLike[str], *, dry_run: bool = False,
                backup: str | os.PathLike[str] | None = None, user: str | None = None,
                agent: str | None = None) -> Plan:
        """Import a MEMORY.md, a folder of Markdown notes or dated journals as typed memories
        (io/migrate.py). ``dry_run`` writes nothing and says what would happen. Otherwise a
        snapshot of the scope is written first (``backup``, default next to the database),
        then every planned memory in one transaction."""
        from ..io.migrate import build_plan, default_backup

        scope = self._scope(user, agent)
        now = self._now()
        plan = build_plan(path, now, self.config.max_content_bytes)
        plan.dry_run = dry_run
        if dry_run or not plan.planned:
            return plan
        target = Path(backup) if backup is not None else default_backup(self.store.location,
                                                                         now)
        self.snapshot(target, user=scope.user, agent=scope.agent)
        plan.backup = str(target)
        from ..model import Draft

        drafts: list[Draft] = [p.draft() for p in plan.planned]
        results = self.remember_many(drafts, user=scope.user,  # type: ignore[attr-defined]
                                     agent=scope.agent)
        plan.actions = dict(Counter(r.action.value for r in results))
        return plan


def _query(query: object) -> str:
    if not isinstance(query, str) or not query.strip():
        raise Invalid("query is empty")
    return query


__all__ = ["AttentionVerbs"]

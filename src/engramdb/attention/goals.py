"""The goal stack of a scope: start, pause, resume, complete, and notes (evidence, open loops,
constraints). At most one goal is active. Starting a goal while another is active pauses that
one and makes it the new goal's parent; completing the new goal resumes its parent. A goal
paused by hand stays paused until resumed. State lives in the store (table ``goals``), so it
survives a restart."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..errors import Conflict, Invalid, NotFound
from ..ids import new_id
from ..model import Goal, GoalStatus, Scope
from ..store.protocol import Store
from ..text.checks import storable

MAX_TEXT = 2000
MAX_ITEMS = 100


def clean_text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip() or not storable(value):
        raise Invalid(f"{name} must be non-empty text")
    if len(value) > MAX_TEXT:
        raise Invalid(f"{name} is longer than {MAX_TEXT} characters")
    return value.strip()


def clean_list(name: str, values: Sequence[str] | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        raise Invalid(f"{name} must be a list of texts, not one text")
    items = [clean_text(name, v) for v in values]
    if len(items) > MAX_ITEMS:
        raise Invalid(f"{name}: at most {MAX_ITEMS} entries")
    return list(dict.fromkeys(items))


class GoalStack:
    """The goals of one scope, over a store, at one moment ``now``."""

    def __init__(self, store: Store, scope: Scope, now: datetime) -> None:
        self.store, self.scope, self.now = store, scope, now

    def active(self) -> Goal | None:
        found = self.store.list_goals(self.scope, [GoalStatus.ACTIVE])
        return found[0] if found else None

    def list(self, statuses: Sequence[str] = ()) -> list[Goal]:
        try:
            wanted = [GoalStatus(s) for s in statuses]
        except ValueError:
            raise Invalid(f"unknown goal status in {list(statuses)} (active, paused, "
                          f"done)") from None
        return self.store.list_goals(self.scope, wanted)

    def get(self, goal_id: str | None) -> Goal:
        """The goal with this id, or the active goal when ``goal_id`` is None."""
        if goal_id is None:
            goal = self.active()
            if goal is None:
                raise NotFound(f"no active goal for user={self.scope.user} "
                               f"agent={self.scope.agent}")
            return goal
        if not isinstance(goal_id, str) or not goal_id:
            raise Invalid("give a goal id")
        goal = self.store.get_goal(self.scope, goal_id)
        if goal is None:
            raise NotFound(f"no goal {goal_id!r} for user={self.scope.user} "
                           f"agent={self.scope.agent}")
        return goal

    def start(self, title: str, constraints: Sequence[str] | None = None,
              open_loops: Sequence[str] | None = None) -> Goal:
        title = clean_text("title", title)
        cons, loops = clean_list("constraints", constraints), clean_list("open_loops", open_loops)
        with self.store.transaction():
            current = self.active()
            if current is not None:
                self._put(current, status=GoalStatus.PAUSED)
            goal = Goal(id=new_id(self.now), user=self.scope.user, agent=self.scope.agent,
                        title=title, status=GoalStatus.ACTIVE, created_at=self.now,
                        updated_at=self.now, constraints=cons, open_loops=loops,
                        parent=current.id if current else None)
            self.store.put_goal(goal)
        return goal

    def pause(self, goal_id: str | None = None) -> Goal:
        with self.store.transaction():
            goal = self.get(goal_id)
            if goal.status != GoalStatus.ACTIVE:
                raise Conflict(f"goal {goal.id} is {goal.status.value}, not active")
            return self._put(goal, status=GoalStatus.PAUSED)

    def resume(self, goal_id: str) -> Goal:
        with self.store.transaction():
            goal = self.get(goal_id)
            if goal.status == GoalStatus.DONE:
                raise Conflict(f"goal {goal.id} is done; start a new goal instead")
            if goal.status == GoalStatus.ACTIVE:
                return goal
            current = self.active()
            if current is not None:
                self._put(current, status=GoalStatus.PAUSED)
            return self._put(goal, status=GoalStatus.ACTIVE)

    def complete(self, goal_id: str | None = None, evidence: Sequence[str] | None = None) -> Goal:
        extra = clean_list("evidence", evidence)
        with self.store.transaction():
            goal = self.get(goal_id)
            if goal.status == GoalStatus.DONE:
                raise Conflict(f"goal {goal.id} is already done")
            was_active = goal.status == GoalStatus.ACTIVE
            done = self._put(goal, status=GoalStatus.DONE, closed_at=self.now,
                             evidence=list(dict.fromkeys([*goal.evidence, *extra])))
            parent = self.store.get_goal(self.scope, goal.parent) if goal.parent else None
            if was_active and parent is not None and parent.status == GoalStatus.PAUSED:
                self._put(parent, status=GoalStatus.ACTIVE)
        return done

    def note(self, goal_id: str | None = None, *, evidence: Sequence[str] | None = None,
             open_loops: Sequence[str] | None = None, close_loops: Sequence[str] | None = None,
             constraints: Sequence[str] | None = None) -> Goal:
        """Add evidence, open loops or constraints to a goal, or close open loops."""
        ev, loops = clean_list("evidence", evidence), clean_list("open_loops", open_loops)
        closing = clean_list("close_loops", close_loops)
        cons = clean_list("constraints", constraints)
        if not (ev or loops or closing or cons):
            raise Invalid("nothing to note: give evidence, open loops, loops to close or "
                          "constraints")
        with self.store.transaction():
            goal = self.get(goal_id)
            unknown = [c for c in closing if c not in goal.open_loops]
            if unknown:
                raise NotFound(f"goal {goal.id} has no open loop {unknown[0]!r}")
            kept = [x for x in goal.open_loops if x not in closing]
            return self._put(goal, evidence=list(dict.fromkeys([*goal.evidence, *ev])),
                             open_loops=list(dict.fromkeys([*kept, *loops])),
                             constraints=list(dict.fromkeys([*goal.constraints, *cons])))

    def _put(self, goal: Goal, **changes: object) -> Goal:
        new = goal.replace(**changes, updated_at=self.now)
        self.store.put_goal(new)
        return new

"""The lessons phase: LESSONS holds at most ``MAX_LESSONS`` current lessons. When there are
more, the oldest (by ``at``) become rules: the same memory, kind "rule", with
``metadata["promoted_from"] = "lesson"``, saved as a version (op "promote", actor "sleep"), so
``history(id)`` shows when and why. A second sleep at once changes nothing. The count is over
every current lesson of the scope, an incremental sleep's too (it reads them by kind, not only
the memories it visits), so both end alike. Then the rules are reviewed (dynamics/rules_review.py:
duplicates merged, opposites retired, unused ones flagged)."""

from __future__ import annotations

from ..model import Kind, Layer, Record
from ..store.protocol import ListFilter
from .passes import Change, Pass, PhaseReport
from .rules_review import review_rules

MAX_LESSONS = 5


def lessons_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("lessons")
    pool = (run.core() if run.only is None else
            run.store.list(run.scope, ListFilter(kinds=(Kind.LESSON.value,), layers=(Layer.CORE,))))
    lessons = sorted((r for r in pool if r.kind == Kind.LESSON and r.current),
                     key=lambda r: (r.at, r.id))
    report.examined = len(lessons)
    oldest = {r.id for r in lessons[: max(0, len(lessons) - MAX_LESSONS)]}
    keep = len(lessons) - len(oldest)

    def decide(rec: Record) -> Change | None:
        if rec.id not in oldest or rec.kind != Kind.LESSON:
            return None
        return ("lesson_to_rule", "promote",
                f"LESSONS holds {len(lessons)} > {MAX_LESSONS}: the oldest become rules "
                f"({keep} stay lessons)",
                {"kind": Kind.RULE, "metadata": {**rec.metadata, "promoted_from": "lesson"}})

    run.apply(sorted(oldest), decide, report)
    if not oldest:
        report.note = f"{len(lessons)} lessons, at most {MAX_LESSONS}: nothing to merge"
    review_rules(run, report)   # then the rules: duplicates, opposites, unused (rules_review.py)
    return report

"""Rules reviewed at sleep (run by the lessons phase, after LESSONS > 5 became rules):

- duplicates merged: current rules that say the same (compared case-, width- and
  punctuation-insensitively, attention/rules.py ``same_text``) keep the oldest; each other one
  is superseded by it (op "merge", reason "duplicate rule"), so ``history`` keeps it;
- superseded retired: of two current rules about the same action with opposite polarity
  ("Always deploy on Fridays" / "Never deploy on Fridays", "一定要…" / "不要…"), the older is
  superseded by the newer (op "retire");
- unused flagged: a current rule neither used nor written for ``UNUSED_DAYS`` (90) gets
  ``metadata["review"] = "unused since DATE"`` (op "flag"); a use after that clears the flag
  (op "unflag"). Nothing is deleted. Running it twice at once changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from ..model import Record
from .passes import Change, Pass, PhaseReport
from .rulebook import RULES, RuleFacts, facts_of

UNUSED_DAYS = 90


def review_rules(run: Pass, report: PhaseReport) -> None:
    rules = (run.rule_books.current(run.store, run.scope) if run.rule_books is not None
             else sorted((facts_of(r) for r in run.store.list(run.scope, RULES)),
                         key=lambda f: (f.recorded_at, f.id)))
    plan: dict[str, Plan] = {}
    _duplicates(rules, plan)
    _opposites([r for r in rules if r.id not in plan], plan)
    for facts in rules:
        if facts.id not in plan and _unused(facts, run.now) is not None:
            plan[facts.id] = _unused

    def decide(rec: Record) -> Change | None:
        if not rec.current:
            return None
        made = plan[rec.id]
        return made(facts_of(rec), run.now, rec) if callable(made) else made

    run.apply(sorted(plan), decide, report)


Plan = Change | Callable[..., Change | None]


def _duplicates(rules: list[RuleFacts], plan: dict[str, Plan]) -> None:
    first: dict[str, RuleFacts] = {}
    for rec in rules:
        keeper = first.setdefault(rec.key, rec)
        if keeper.id != rec.id:
            plan[rec.id] = ("rule_merged", "merge", f"duplicate rule: {keeper.id} says the same",
                            {"superseded_by": keeper.id, "invalid_at": rec.recorded_at})
            # the duplicate held as long as its keeper: it stops holding when it was written


def _opposites(rules: list[RuleFacts], plan: dict[str, Plan]) -> None:
    newest: dict[str, tuple[RuleFacts, bool]] = {}
    for rec in rules:   # oldest first: a later rule about the same action replaces an earlier
        if rec.shape is None:
            continue
        action, forbids = rec.shape
        older = newest.get(action)
        if older is not None and older[1] != forbids:
            plan[older[0].id] = ("rule_retired", "retire",
                                 f"superseded by a newer rule saying the opposite: {rec.id}",
                                 {"superseded_by": rec.id, "invalid_at": rec.recorded_at})
        newest[action] = (rec, forbids)


def _unused(facts: RuleFacts, now: datetime, rec: Record | None = None) -> Change | None:
    """The flag or unflag a rule's last activity calls for, or None; ``rec``: the rule as
    stored now, whose metadata the change keeps."""
    if now - facts.last >= timedelta(days=UNUSED_DAYS):
        if facts.flagged:
            return None
        note = f"unused since {facts.last.date().isoformat()}"
        meta = {} if rec is None else {**rec.metadata, "review": note}
        return ("rule_flagged_unused", "flag", f"rule {note} ({UNUSED_DAYS} days or more)",
                {"metadata": meta})
    if facts.flagged:
        meta = {} if rec is None else {k: v for k, v in rec.metadata.items() if k != "review"}
        return ("rule_unflagged", "unflag", "used again", {"metadata": meta})
    return None

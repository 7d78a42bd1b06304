"""The tidy phase: lifecycle tags.

- A temp memory (``expires_at``) is retired once it has expired.
- A memory with a due date (a pending item) found past due is marked overdue
  (``overdue_since`` = the time of that sleep). Found still past due by a later sleep, at least
  one observation period (a day) after it was marked, it is retired. So two sleeps in a row
  (an immediate rerun) change nothing the second time.

Retired means archived, with the reason in its history (actor "sleep"); ``restore(id)`` brings
it back and clears the overdue mark, so it gets a new observation period."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from ..model import Layer, Record
from .passes import Change, Pass, PhaseReport

OBSERVATION = timedelta(days=1)


def tidy_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("tidy")
    records = run.core()
    report.examined = len(records)
    decide = partial(lifecycle_change, now=run.now)
    run.apply([r.id for r in records if decide(r)], decide, report)
    return report


def lifecycle_change(rec: Record, now: datetime) -> Change | None:
    """What tidy does to this memory now, if anything."""
    if rec.expires_at is not None and rec.expires_at <= now:
        return ("expired", "retire", f"expired at {_iso(rec.expires_at)}",
                {"layer": Layer.ARCHIVED})
    if rec.due_at is None or rec.due_at > now:
        return None
    if rec.overdue_since is None:
        return ("marked_overdue", "overdue", f"past due ({_iso(rec.due_at)})",
                {"overdue_since": now})
    if now - rec.overdue_since >= OBSERVATION:
        return ("retired_overdue", "retire", f"overdue since {_iso(rec.overdue_since)}, at two "
                f"sleeps (due {_iso(rec.due_at)})", {"layer": Layer.ARCHIVED})
    return None


def _iso(value: datetime) -> str:
    return value.isoformat(timespec="seconds")

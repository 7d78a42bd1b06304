"""The consolidate phase of sleep: near-duplicates merge (dynamics/merge.py), then clusters of
settled episodes become gists (dynamics/gist.py). Nothing is deleted: what is merged or
consolidated is archived with its reason, and ``history`` shows both sides."""

from __future__ import annotations

from .gist import gist_pass
from .merge import merge_duplicates
from .passes import Pass, PhaseReport


def consolidate_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("consolidate")
    report.examined = len(run.core())
    merge_duplicates(run, report)
    gist_pass(run, report)
    return report

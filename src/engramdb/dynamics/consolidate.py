"""The consolidate phase of sleep: near-duplicates merge (dynamics/merge.py), paraphrased facts
about one entity that hold the same value merge (dynamics/entity_merge.py), then clusters of
settled episodes become gists (dynamics/gist.py), and clusters of gists become higher gists,
up to level 3 (dynamics/gist_levels.py). Nothing is deleted: what is merged or
consolidated is archived with its reason, and ``history`` shows both sides."""

from __future__ import annotations

from .entity_merge import merge_same_slot
from .gist import gist_pass
from .gist_levels import higher_gist_pass
from .merge import merge_duplicates
from .passes import Pass, PhaseReport


def consolidate_pass(run: Pass) -> PhaseReport:
    report = PhaseReport("consolidate")
    report.examined = len(run.core())
    merge_duplicates(run, report)
    merge_same_slot(run, report)
    gist_pass(run, report)
    higher_gist_pass(run, report)
    return report

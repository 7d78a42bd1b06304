"""The fast part of bench/reliability/ (issue 18): a few seconds of each script, with the
same properties the full runs check (`make reliability`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "reliability"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"reliability_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"reliability_{name}"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("target", "cases"), [
    ("timewindow", 300), ("duedate", 300), ("uri", 300), ("migrate", 100), ("messages", 60),
    ("http", 40), ("limits", 6), ("mcp", 20)])
def test_fuzzed_parsers_raise_only_engram_errors_and_write_nothing_on_refusal(target, cases):  # type: ignore[no-untyped-def]
    fuzz = _load("fuzz")
    (tally,) = fuzz.run(cases, [target])
    assert tally.cases >= cases
    assert tally.failures == [], tally.failures[:2]
    assert tally.written_on_refusal == 0


def test_the_fuzzer_sees_a_failure_when_there_is_one(monkeypatch):  # type: ignore[no-untyped-def]
    """The harness itself: a parser that raises a bare exception is reported."""
    fuzz = _load("fuzz")
    import engramdb.text.duedate as duedate

    monkeypatch.setattr(duedate, "due_from_text", lambda text, now: int(text))
    (tally,) = fuzz.run(50, ["duedate"])
    assert tally.failures


def test_sigkill_leaves_the_file_whole_with_every_acknowledged_write() -> None:
    figures = _load("crash").run(2)
    assert figures["acknowledged_writes"] > 0
    assert figures["integrity_failures"] == 0 and figures["missing_acknowledged"] == 0


def test_a_sleep_killed_between_phases_converges() -> None:
    """SIGKILL right after sync, then right after decay, committed: the next sleep ends where
    an uninterrupted one ends (bench/reliability/crash.py --phase-kills)."""
    figures = _load("crash").run_phase_kills(2)
    assert figures["converged"] == 2, figures

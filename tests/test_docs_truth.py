"""The docs say what the code does about sleep's phases (issue 21: docs/cli.md said
consolidation "is not built yet" and listed two --phase sets; docs/mcp.md four of six)."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from engramdb.dynamics.sleep import PHASES
from engramdb.mcp.schema import PhaseName

DOCS = Path(__file__).resolve().parent.parent / "docs"


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

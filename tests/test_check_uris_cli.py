"""`engramdb check-uris` (issue 18): the door onto engine/uricheck.py. Rows an older engramdb
stored with URIs today's rules refuse are listed, with exit 1; a clean file exits 0."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import engramdb
from test_mcp import clean_env


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engramdb.cli", "check-uris", "--db", str(db),
                           "--embedder", "hashing", *args], env={**clean_env(), "COLUMNS": "250"},
                          capture_output=True, text=True)


def test_check_uris_lists_bad_rows_and_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with engramdb.open(db, embedder="hashing") as mem:
        mem.remember("fine", uri="core://fine")
        dots = mem.remember("dots", uri="core://p1").memory
        ctrl = mem.remember("我住在柏林", uri="core://p2", user="bob").memory
    clean = cli(db, "--all-scopes")
    assert clean.returncode == 0 and "valid" in clean.stdout
    con = sqlite3.connect(db)   # as an older engramdb stored them
    con.execute("UPDATE memories SET uri = 'core://../etc' WHERE id = ?", (dots.id,))
    con.execute("UPDATE memories SET uri = 'core://a\x01b' WHERE id = ?", (ctrl.id,))
    con.commit()
    con.close()
    mine = cli(db, "--json")
    assert mine.returncode == 1
    assert [b["id"] for b in json.loads(mine.stdout)["bad"]] == [dots.id]
    every = cli(db, "--all-scopes", "--json")
    found = json.loads(every.stdout)
    assert every.returncode == 1 and found["count"] == 2
    assert {b["uri"] for b in found["bad"]} == {"core://../etc", "core://a\x01b"}
    table = cli(db, "--all-scopes")
    assert table.returncode == 1 and "../etc" in table.stdout and "a\\x01b" in table.stdout

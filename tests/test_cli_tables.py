"""The CLI's tables read in an 80-column terminal (issue 30): content gets the width, ids are
shown as their shortest unique prefix (at least 8 characters, as git shortens commit ids) and
every command that takes a memory id takes such a prefix back, `history` shows one version a
line, numbers are rounded, recall says why in one line (the terms behind -v), and `--help`
lists the commands by group. Laid out at 80 and 120 columns (COLUMNS, as a terminal sets it)
through typer's CliRunner, on a real SQLite file written in English and Chinese."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner, Result

import engramdb
from engramdb.cli import app
from engramdb.cli.panels import PANELS
from engramdb.cli.render import MIN_CONTENT, number
from engramdb.errors import Invalid, NotFound

ENV = {"ENGRAMDB_EMBEDDER": "hashing", "NO_COLOR": "1"}
HAMBURG = ("The new job at the harbour office in Hamburg started last spring, with a long "
           "walk by the river every morning")
TEA = "我喜欢喝绿茶，尤其是西湖龙井，每天早上都要泡一壶，周末还会去茶馆和朋友聊天"
LONG_WORD = "The new job at the harbour"   # what a content column of MIN_CONTENT+ holds


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("URL", "USER", "AGENT", "EMBEDDER", "CONFIG", "PRESET"):
        monkeypatch.delenv(f"ENGRAMDB_{name}", raising=False)


BUILD = """
import json, sys
from datetime import UTC, datetime
import engramdb
from engramdb.testing import FrozenClock

clock = FrozenClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
ids = {}
with engramdb.open(sys.argv[1], embedder="hashing", clock=clock) as mem:
    for name, text, kind in json.loads(sys.argv[2]):
        uri = "knowledge://user/tea" if name == "tea" else None
        ids[name] = mem.remember(text, kind=kind, uri=uri, importance=0.1 + 0.2).memory.id
        clock.advance(minutes=1)
    ids["twin1"] = mem.remember("the blue notebook is on the shelf").memory.id
    ids["twin2"] = mem.remember("蓝色笔记本在书架上").memory.id
print(json.dumps(ids))
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    """English and Chinese memories a minute apart, a home that moved twice (a supersession
    chain of three), and two memories written in the same millisecond (ids that share all
    but their last characters). Written by a fresh process: ids made in this one after a
    later time (other tests' real clock) would all share that millisecond (ids.py)."""
    path = str(tmp_path_factory.mktemp("tables") / "memory.db")
    memories = [("hamburg", HAMBURG, "event"), ("tea", TEA, "preference"),
                ("berlin", "I live in Berlin", "fact"), ("munich", "I live in Munich now", "fact"),
                ("shanghai", "我现在住在上海", "fact")]
    src = str(Path(engramdb.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-c", BUILD, path, json.dumps(memories)],
                          capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": src})
    return path, json.loads(done.stdout)


def run(db: str, *args: str, columns: int = 80, code: int = 0) -> Result:
    result = CliRunner().invoke(app, ["--db", db, *args], env={**ENV, "COLUMNS": str(columns)})
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


def assert_fits(text: str, columns: int) -> None:
    for line in text.splitlines():
        assert cell_len(line.rstrip()) <= columns, f"wider than {columns}: {line!r}"


# ---------------------------------------------------------------- layout at 80 and 120 columns


@pytest.mark.parametrize("columns", [80, 120])
def test_recall_gives_content_the_width_and_says_why_in_one_line(store, columns) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shown = run(db, "recall", "Hamburg harbour job", "--no-track", columns=columns).stdout
    assert_fits(shown, columns)
    assert LONG_WORD in shown                         # content wraps at whole lines, not 4 chars
    assert f" {ids['hamburg'][:8]} " in shown and ids["hamburg"] not in shown
    assert "why: " in shown and "rrf" not in shown    # the human line, not the terms
    row = next(line for line in shown.splitlines() if ids["hamburg"][:8] in line)
    assert re.search(r"^1\s+[01]\.\d{3}\s", row)       # rank, then the score to 3 decimals


@pytest.mark.parametrize("columns", [80, 120])
def test_list_gives_content_the_width_in_both_languages(store, columns) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shown = run(db, "list", "--layer", "core", "--layer", "archived", columns=columns).stdout
    assert_fits(shown, columns)
    assert LONG_WORD in shown and TEA[:12] in shown   # 12 Chinese characters = 24 columns
    header = shown.splitlines()[0]
    assert columns - header.index("content") >= MIN_CONTENT
    assert "knowledge://user/tea" in shown


@pytest.mark.parametrize("columns", [80, 120])
def test_history_shows_one_version_a_line(store, columns) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    versions = len(json.loads(run(db, "--json", "history", ids["berlin"]).stdout))
    shown = run(db, "history", ids["berlin"], columns=columns).stdout
    assert_fits(shown, columns)
    body = shown.splitlines()[2:]
    assert len(body) == versions == 5      # create + supersede of two values, the newest
    for op in ("create", "supersede"):     # whole, not cut to "cre…"
        assert f" {op} " in shown
    assert sum(line.rstrip().endswith("1*") or " 1* " in line for line in body) == 1
    assert "I live in Berlin" in shown and "我现在住在上海" in shown
    header = shown.splitlines()[0]
    assert columns - header.index("content") >= MIN_CONTENT


def test_status_fits_80_columns(store) -> None:  # type: ignore[no-untyped-def]
    db, _ = store
    assert_fits(run(db, "status").stdout, 80)


def test_a_narrow_terminal_drops_optional_columns_before_squeezing_content(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shown = run(db, "list", columns=60).stdout
    assert_fits(shown, 60)
    assert "kind" not in shown.splitlines()[0] and "content" in shown.splitlines()[0]
    wide = run(db, "list", columns=120).stdout
    assert "kind" in wide.splitlines()[0]


# ---------------------------------------------------------------- ids: shown short, taken back


def test_ids_in_the_same_millisecond_are_shown_long_enough_to_differ(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shown = run(db, "list").stdout
    twins = [w for w in shown.split() if ids["twin1"].startswith(w) or ids["twin2"].startswith(w)]
    assert len(twins) == 2 and twins[0] != twins[1] and all(len(w) > 8 for w in twins)
    with engramdb.open(db, embedder="hashing") as mem:
        assert set(mem.abbreviate([ids["twin1"], ids["twin2"]]).values()) == set(twins)


def test_every_id_command_takes_a_unique_prefix(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    prefix = ids["hamburg"][:8]
    assert HAMBURG in " ".join(run(db, "get", prefix.lower()).stdout.split())
    assert len(json.loads(run(db, "--json", "history", prefix).stdout)) == 1
    assert "weight" in run(db, "explain", prefix).stdout
    linked = run(db, "link", prefix, ids["tea"][:8], "--relation", "reminds").stdout
    assert f"linked {ids['hamburg']} reminds {ids['tea']}" in linked
    links = run(db, "links", ids["tea"][:8]).stdout
    assert re.search(rf"^{prefix}\s+reminds\s+{ids['tea'][:8]}\s+0\.50\s", links, re.M)
    assert ids["tea"][:8] in run(db, "related", prefix).stdout


def test_an_ambiguous_or_unknown_prefix_is_refused_with_a_message(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shared = os.path.commonprefix([ids["twin1"], ids["twin2"]])   # the same millisecond
    assert len(shared) >= 10
    refused = run(db, "get", shared, code=4)
    assert "ambiguous" in refused.stderr and "give more of the id" in refused.stderr
    assert "Traceback" not in refused.output
    missing = run(db, "forget", "7ZZZZZZZ", code=3)
    assert "no memory" in missing.stderr


def test_a_prefix_does_not_reach_into_another_scope(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    with engramdb.open(db, embedder="hashing") as mem:
        assert mem.get(ids["tea"][:9]).content == TEA
        with pytest.raises(NotFound):
            mem.get(ids["tea"][:9], user="bob")
        with pytest.raises(Invalid, match="ambiguous"):
            mem.get(ids["twin1"][:10])
        assert mem.abbreviate([ids["tea"]], user="bob") == {ids["tea"]: ids["tea"]}
        assert len(mem.abbreviate([ids["tea"]])[ids["tea"]]) == 8


# ---------------------------------------------------------------- numbers, why, help


def test_numbers_are_rounded(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    shown = run(db, "get", ids["berlin"][:8]).stdout
    assert re.search(r"importance\s+0\.3\s", shown) and "0.30000000000000004" not in shown
    strength = run(db, "explain", ids["berlin"][:8]).stdout.splitlines()
    table = strength[:next(n for n, line in enumerate(strength) if line.startswith(ids["berlin"])
                           and n > 0)]             # the fields, before the one-line formula
    assert re.search(r"^activation\s+-?\d+\.\d{1,3}\s*$", "\n".join(table), re.M)
    assert not re.search(r"\d\.\d{4,}", "\n".join(table))
    assert (number(0.6499999999999999), number(2.745316), number(1.0), number(0.000255)) == (
        "0.65", "2.745", "1", "0.00026")


def test_verbose_recall_adds_the_terms(store) -> None:  # type: ignore[no-untyped-def]
    db, _ = store
    shown = run(db, "recall", "Hamburg harbour job", "--no-track", "-v").stdout
    assert re.search(r"terms: +rrf=", shown) and "legs:" in shown
    assert not re.search(r"=\d+\.\d{4,}", shown)       # rounded there too


def test_help_lists_the_commands_by_group() -> None:
    shown = CliRunner().invoke(app, ["--help"], env={**ENV, "COLUMNS": "80"}).stdout
    heads = [line for line in shown.splitlines() if line.endswith(" commands:")]
    assert heads == [f"{panel} commands:" for panel in PANELS]
    listed = re.findall(r"^  ([a-z][a-z-]*) ", shown, re.M)
    assert sorted(listed) == sorted(n for names in PANELS.values() for n in names)
    assert "Other commands:" not in shown
    assert_fits(shown, 80)


def test_every_command_has_a_group() -> None:
    import typer.main

    root = typer.main.get_command(app)
    grouped = {n for names in PANELS.values() for n in names}
    assert set(root.commands) == grouped  # type: ignore[attr-defined]


# ---------------------------------------------------------------- lines, help and errors (audit)


def test_a_line_of_text_is_never_broken_at_the_width(tmp_path: Path) -> None:
    """Only tables fit the width: a line of text stays whole, for the terminal to wrap and for
    a pipe (`| tail -1`, `> prompt.txt`) to get whole (the audit found `rule=new_memory` on a
    line of its own and the context block cut at 80 characters)."""
    db = str(tmp_path / "m.db")
    written = run(db, "--create", "remember", HAMBURG + " " + HAMBURG, "--kind", "event")
    assert len(written.stdout.splitlines()) == 1 and "rule=new_memory" in written.stdout
    block = run(db, "context", "the harbour office in Hamburg", "--budget", "300").stdout
    assert any(HAMBURG in line for line in block.splitlines())
    ref = run(db, "session", "add", "s1", "tool", "\n".join(map(str, range(1, 1501))) + "\n",
              "-v").stderr
    fetched = run(db, "session", "fetch", "s1", re.search(r"wm-\w+", ref).group(0)).stdout
    assert fetched.splitlines()[-1] == "1500" and fetched.endswith("1500\n")


def test_keys_list_fits_80_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run(db, "--create", "keys", "create", "--user", "alice", "--agent", "support-bot",
        "--role", "write", "--name", "the laptop in the office")
    shown = run(db, "keys", "list").stdout
    assert_fits(shown, 80)
    flat = " ".join(shown.split())
    assert "alice/support-bot" in flat and "the laptop in the office" in flat and "write" in flat
    assert "…" not in shown


def test_help_says_each_command_in_whole_clauses() -> None:
    shown = CliRunner().invoke(app, ["--help"], env={**ENV, "COLUMNS": "80"}).stdout
    rows = re.findall(r"^  ([a-z][a-z-]*) +(.*(?:\n {4,}\S.*)*)", shown, re.M)
    assert len(rows) == sum(len(names) for names in PANELS.values())
    for name, text in rows:
        said = " ".join(text.split())
        assert not said.endswith(("...", "…", ",", ";", ":")), (name, said)
        assert said.count("(") == said.count(")"), (name, said)


@pytest.mark.parametrize(("args", "said"), [
    (["recall", "x", "-k", "many"], "k must be a whole number, not the text 'many'"),
    (["remember", "x", "--importance", "lots"], "importance must be a number, not the text"),
])
def test_a_value_of_the_wrong_type_is_said_in_words(store, args, said) -> None:  # type: ignore[no-untyped-def]
    db, _ = store
    refused = run(db, *args, code=2)
    assert said in refused.stderr
    assert "Input should be" not in refused.output and "pydantic" not in refused.output


def test_sources_of_a_memory_written_by_hand_says_there_are_none(store) -> None:  # type: ignore[no-untyped-def]
    db, ids = store
    none = run(db, "sources", ids["berlin"])
    assert none.stdout == "" and "no source turns" in none.stderr


def test_chinese_after_english_words_breaks_between_characters(tmp_path: Path) -> None:
    """Rich breaks at spaces only: `Maya:` stood alone on a line, the Chinese folded below."""
    db = str(tmp_path / "m.db")
    text = "Maya: 周末我喜欢去吃火锅，柏林应该也有不错的火锅店吧？我们下次一起去尝尝看"
    run(db, "--create", "remember", text, "--kind", "event")
    shown = run(db, "list").stdout
    assert_fits(shown, 80)
    assert "Maya: 周末我喜欢" in shown
    cells = "".join(line.rstrip().split("  ")[-1].strip() for line in shown.splitlines()[2:])
    assert cells.replace(" ", "") == text.replace(" ", "")


def test_wrap_keeps_the_text_and_its_punctuation_with_it() -> None:
    from rich.text import Text

    from engramdb.cli.wrap import wrap

    text = "Anna: 我在准备六月的半程马拉松，脚踝已经完全好了。 Then a verylongwordthatcannotbreak."
    for width in (12, 17, 24, 35):
        lines = wrap(Text(text), width).plain.split("\n")
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not any(line.startswith(("，", "。")) for line in lines), lines

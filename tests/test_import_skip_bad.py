"""An import is all or nothing, and says which item was bad and why (issue 30); with skip_bad
(`--skip-bad`) the good items are written and each bad one is named with its line (or item)
number and reason, exit 7 at the CLI. A time without a time zone in an import is UTC."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Invalid
from engramdb.cli import app
from engramdb.io.foreign import import_foreign
from engramdb.testing import FrozenClock
from helpers import plain
from test_export_import import export_text, fill

ALL_LAYERS = ["core", "archived", "deleted"]
MEMORIES = 7   # in the valid export: alice's six and bob's one


@pytest.fixture(scope="module")
def valid_export(tmp_path_factory):  # type: ignore[no-untyped-def]
    clock = FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    path = tmp_path_factory.mktemp("source") / "source.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as source:
        fill(source, clock)
        return export_text(source, all_scopes=True)


def items(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def joined(rows: list[Any]) -> str:
    return "".join((row if isinstance(row, str) else json.dumps(row, ensure_ascii=False))
                   + "\n" for row in rows)


def memory_lines(rows: list[Any]) -> list[int]:
    """Indexes of the memory lines (the line number is the index + 1)."""
    return [i for i, row in enumerate(rows) if isinstance(row, dict) and row["type"] == "memory"]


def spoil_kind(rows: list[Any]) -> tuple[int, int, str]:
    i = memory_lines(rows)[1]
    rows[i]["memory"]["kind"] = "gossip"
    return i + 1, 1, "bad memory line"


def spoil_time(rows: list[Any]) -> tuple[int, int, str]:
    i = memory_lines(rows)[2]
    rows[i]["memory"]["at"] = "昨天"
    return i + 1, 1, "bad memory line"


def spoil_event(rows: list[Any]) -> tuple[int, int, str]:
    i = memory_lines(rows)[3] + 1
    del rows[i]["op"]
    return i + 1, 1, "the field 'op' is missing"


def not_json_between_memories(rows: list[Any]) -> tuple[int, int, str]:
    i = memory_lines(rows)[4]
    rows.insert(i, '{"type": "memory", "memory": {')
    return i + 1, 0, "not JSON"


def not_json_inside_a_memory(rows: list[Any]) -> tuple[int, int, str]:
    i = memory_lines(rows)[0] + 1   # the first memory's first event line
    rows[i] = '{"type": "event", "memory_id": '   # reported; the memory keeps its other events
    return i + 1, 0, "not JSON"


def unknown_line(rows: list[Any]) -> tuple[int, int, str]:
    rows.append({"type": "bogus"})
    return len(rows), 0, "unexpected line of type 'bogus'"


def bad_goal(rows: list[Any]) -> tuple[int, int, str]:
    rows.append({"type": "goal", "goal": {"id": "g1", "user": "alice", "agent": "noah",
                                          "status": "dreaming", "title": "修好测试",
                                          "created_at": "2026-01-01T00:00:00",
                                          "updated_at": "2026-01-01T00:00:00"}})
    return len(rows), 0, "bad goal line"


SPOILERS: dict[str, Callable[[list[Any]], tuple[int, int, str]]] = {
    "unknown kind": spoil_kind, "a time that is not one": spoil_time,
    "event without op": spoil_event, "not JSON between memories": not_json_between_memories,
    "not JSON inside a memory": not_json_inside_a_memory, "unknown line type": unknown_line,
    "goal of an unknown status": bad_goal,
}


def total(mem: engramdb.Memory) -> int:
    return sum(mem.count(layer=ALL_LAYERS, user=s.user, agent=s.agent) for s in mem.scopes())


@pytest.mark.parametrize("name", list(SPOILERS))
def test_a_bad_item_stops_the_import_by_its_line_or_is_skipped(  # type: ignore[no-untyped-def]
        mem, valid_export, name):
    rows: list[Any] = items(valid_export)
    line, lost, why = SPOILERS[name](rows)
    text = joined(rows)
    with pytest.raises(Invalid, match=f"^line {line}: ") as caught:
        mem.import_(io.StringIO(text))
    assert why in plain(str(caught.value)) and "--skip-bad" in str(caught.value)
    assert total(mem) == 0                          # all or nothing: nothing was written
    counts = mem.import_(io.StringIO(text), skip_bad=True)
    assert [b["line"] for b in counts["bad"]] == [line]
    assert why in plain(counts["bad"][0]["reason"])
    assert counts["imported"] == MEMORIES - lost == total(mem)


def test_the_memories_of_a_skipped_line_leave_no_trace(mem, valid_export):  # type: ignore[no-untyped-def]
    rows: list[Any] = items(valid_export)
    spoil_event(rows)
    gone = rows[memory_lines(rows)[3]]["memory"]["id"]
    mem.import_(io.StringIO(joined(rows)), skip_bad=True)
    assert all(mem.store.get(s, gone) is None for s in mem.scopes())
    assert all(not list(mem.store.events(s, gone)) for s in mem.scopes())


def test_several_bad_lines_are_all_reported(mem, valid_export):  # type: ignore[no-untyped-def]
    rows: list[Any] = items(valid_export)
    bad = [spoiler(rows)[0] for spoiler in (bad_goal, unknown_line)]
    first = spoil_kind(rows)[0]
    counts = mem.import_(io.StringIO(joined(rows)), skip_bad=True)
    assert [b["line"] for b in counts["bad"]] == sorted([first, *bad])   # in file order


def test_what_is_not_an_export_is_refused_even_when_skipping(mem, valid_export):  # type: ignore[no-untyped-def]
    for text, why in [("", "first line"), ("hello\n", "not a JSONL export"),
                      (valid_export.split("\n", 1)[1], "first line must be")]:
        with pytest.raises(Invalid, match=why):
            mem.import_(io.StringIO(text), skip_bad=True)
    assert total(mem) == 0


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_skip_bad_must_be_true_or_false(mem, valid_export, value):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="skip_bad must be True or False"):
        mem.import_(io.StringIO(valid_export), skip_bad=value)
    with pytest.raises(Invalid, match="skip_bad must be True or False"):
        import_foreign(mem, io.StringIO("[]"), "mem0", skip_bad=value)
    assert total(mem) == 0


def test_a_time_without_a_zone_in_an_export_is_utc(mem, valid_export):  # type: ignore[no-untyped-def]
    rows: list[Any] = items(valid_export)
    i = memory_lines(rows)[2]                        # "Went swimming with Anna", at WHEN
    rows[i]["memory"]["at"] = "2025-06-01T09:30:00"
    rows[i + 1]["at"] = "2026-03-01T12:00:00"       # its first event
    mem.import_(io.StringIO(joined(rows)))
    rid = rows[i]["memory"]["id"]
    rec = mem.get(rid, user="alice", agent="noah")
    assert rec.at == datetime(2025, 6, 1, 9, 30, tzinfo=UTC)
    assert mem.history(rid, user="alice", agent="noah")[0].at == datetime(2026, 3, 1, 12,
                                                                          tzinfo=UTC)


# ---------------------------------------------------------------- other systems' exports

ITEM = {"memory": "Is a vegetarian", "user_id": "alex", "created_at": "2025-11-03T10:00:00"}


def test_a_mem0_time_without_a_zone_is_utc(mem):  # type: ignore[no-untyped-def]
    aware = dict(ITEM, memory="对坚果过敏", created_at="2025-11-03T18:00:00+08:00")
    counts = import_foreign(mem, io.StringIO(json.dumps([ITEM, aware])), "mem0")
    assert counts["add"] == 2
    assert {r.at for r in mem.list(user="alex")} == {datetime(2025, 11, 3, 10, tzinfo=UTC)}


BAD_MEM0 = [{"memory": "no ids at all"}, dict(ITEM, created_at="上周"),
            dict(ITEM, memory="长" * 30000)]   # over the engine's content limit (bytes)


def test_a_mem0_import_names_the_bad_item_or_skips_it(mem):  # type: ignore[no-untyped-def]
    good = [ITEM, dict(ITEM, memory="我喜欢绿茶")]
    for bad, why in zip(BAD_MEM0, ["no user_id, agent_id or run_id", "'上周' is not an ISO 8601",
                                   "content"], strict=True):
        text = json.dumps([good[0], bad, good[1]])
        with pytest.raises(Invalid, match="^item 2: ") as caught:
            import_foreign(mem, io.StringIO(text), "mem0")
        assert why in plain(str(caught.value))
        assert mem.scopes() == []
    text = json.dumps([good[0], *BAD_MEM0, good[1]])
    counts = import_foreign(mem, io.StringIO(text), "mem0", skip_bad=True)
    assert [b["item"] for b in counts["bad"]] == [2, 3, 4]
    assert counts["add"] == 2 and mem.count(user="alex") == 2


def test_a_mem0_jsonl_names_bad_lines_by_number(mem):  # type: ignore[no-untyped-def]
    text = "\n".join([json.dumps(ITEM), "", "{oops", json.dumps(BAD_MEM0[1]),
                      json.dumps(dict(ITEM, memory="我喜欢绿茶"))])
    with pytest.raises(Invalid, match="^line 3: not JSON"):
        import_foreign(mem, io.StringIO(text), "mem0")
    counts = import_foreign(mem, io.StringIO(text), "mem0", skip_bad=True)
    assert [b["line"] for b in counts["bad"]] == [3, 4]
    assert counts["add"] == 2


# ---------------------------------------------------------------- the CLI


def run(db: str, *args: str, code: int) -> Any:
    r = CliRunner().invoke(app, ["--db", db, *args], env={"ENGRAMDB_EMBEDDER": "hashing"})
    assert r.exit_code == code, (r.stdout, r.stderr)
    return r


def test_cli_import_all_or_nothing_and_skip_bad(tmp_path: Path, valid_export: str) -> None:
    rows: list[Any] = items(valid_export)
    line = spoil_kind(rows)[0]
    path = tmp_path / "export.jsonl"
    path.write_text(joined(rows), encoding="utf-8")
    db = str(tmp_path / "to.db")
    run(db, "init", code=0)
    r = run(db, "import", str(path), code=4)
    assert plain(r.stderr.strip()).startswith(f"error: line {line}: bad memory line: ")
    assert "--skip-bad" in r.stderr
    assert json.loads(run(db, "--json", "status", code=0).stdout)["total"] == 0
    r = run(db, "import", str(path), "--skip-bad", code=7)
    assert f"imported {MEMORIES - 1}" in r.stdout and "bad 1" in r.stdout
    assert f"skipped line {line}: bad memory line" in r.stderr
    r = run(db, "--json", "import", str(path), "--skip-bad", code=7)
    done = json.loads(r.stdout)
    assert done["imported"] == 0 and done["skipped"] == MEMORIES - 1
    assert [b["line"] for b in done["bad"]] == [line]


def test_cli_import_from_mem0_skip_bad(tmp_path: Path) -> None:
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps({"results": [ITEM, BAD_MEM0[1]]}, ensure_ascii=False),
                    encoding="utf-8")
    db = str(tmp_path / "to.db")
    run(db, "init", code=0)
    r = run(db, "import-from", "mem0", str(path), code=4)
    assert plain(r.stderr.strip()).startswith("error: item 2: created_at: '上周' is not")
    r = run(db, "import-from", "mem0", str(path), "--skip-bad", code=7)
    assert "add 1" in r.stdout and "bad 1" in r.stdout
    assert "skipped item 2: created_at: '上周' is not an ISO 8601 time" in r.stderr

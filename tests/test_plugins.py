"""Pluggable similarity and conflict functions (compare.py, registry.py): the built-ins are
registered by name, a user registers their own and selects it in Config or the environment;
the write guard, the sleep's merge pass and recall's conflict ordering ask the selected one.
Bad names, bad registrations and misbehaving functions give ConfigError, never a traceback,
and the write they were asked for writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Config, ConfigError, register_conflict, register_similarity
from engramdb.registry import conflict_names, similarity_names

SEEN: list[tuple[str, str, int]] = []


def _never(a, b):  # type: ignore[no-untyped-def]
    SEEN.append((a.text, b.text, len(a.vector)))
    return 0.0   # nothing is alike: nothing is a duplicate


def _keyed(old, new):  # type: ignore[no-untyped-def]
    """Two statements with the same metadata key and other words conflict."""
    key = old.metadata.get("key")
    return bool(key) and key == new.metadata.get("key") and old.content != new.content


register_similarity("test-never", _never)
register_conflict("test-keyed", _keyed)
register_conflict("test-keyed-recall", _keyed, at_write=False)
register_similarity("test-words", lambda a, b: "high")
register_conflict("test-broken", lambda old, new: 1 / 0)

DUPLICATES = [  # near-duplicates by the built-in cosine (the hashing embedder)
    ("The backup job runs nightly and emails the on-call engineer a short report",
     "The backup job runs nightly and then emails the on-call engineer a short report"),
    ("我们的预发服务器叫 alder-01，运行 Debian 系统",
     "我们的预发服务器叫 alder-01，运行的是 Debian 系统"),
]


def test_the_built_ins_are_registered_and_the_defaults():  # type: ignore[no-untyped-def]
    assert "cosine" in similarity_names() and "statements" in conflict_names()
    assert (Config().similarity, Config().conflict) == ("cosine", "statements")


@pytest.mark.parametrize("first, second", DUPLICATES)
def test_the_write_guard_asks_the_selected_similarity(tmp_path, first, second):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "a.db", embedder="hashing") as mem:
        mem.remember(first, kind="fact")
        assert mem.remember(second, kind="fact").rule == "near_duplicate"
    SEEN.clear()
    with engramdb.open(tmp_path / "b.db", embedder="hashing", similarity="test-never") as mem:
        mem.remember(first, kind="fact")
        assert mem.remember(second, kind="fact").action.value == "add"
        assert (second, first, 384) in SEEN   # the function saw both texts and their vectors


def test_the_sleep_merge_asks_the_selected_similarity(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", similarity="test-never") as mem:
        for first, second in DUPLICATES:
            mem.remember(first, kind="fact")
            mem.remember(second, kind="fact")
        assert mem.count() == 4
        report = mem.sleep(full=True)
        assert mem.count() == 4 and not report.phases[-1].ids("merged")
    with engramdb.open(path, embedder="hashing") as mem:   # the built-in cosine merges them
        mem.sleep(full=True)
        assert mem.count() == 2


def test_a_conflict_function_supersedes_at_write(tmp_path, clock):  # type: ignore[no-untyped-def]
    texts = [("Standup is at the usual time in the morning", "standup"),
             ("Standup happens in the big room downstairs", "standup"),
             ("每周例会在大会议室", "例会"), ("每周例会由小李主持", "例会")]
    with engramdb.open(tmp_path / "a.db", embedder="hashing", clock=clock) as mem:
        got = [mem.remember(t, kind="fact", metadata={"key": k}) for t, k in texts]
        assert [r.action.value for r in got] == ["add"] * 4   # the built-in sees no conflict
    with engramdb.open(tmp_path / "b.db", embedder="hashing", clock=clock,
                       conflict="test-keyed") as mem:
        got = []
        for text, key in texts:
            got.append(mem.remember(text, kind="fact", metadata={"key": key}))
            clock.advance(minutes=1)
        assert [(r.action.value, r.rule) for r in got[1::2]] == \
            [("supersede", "conflict_function")] * 2
        assert got[1].evidence["conflict"] == "test-keyed"
        assert mem.get(got[0].memory.id).superseded_by == got[1].memory.id
        assert mem.get(got[2].memory.id).superseded_by == got[3].memory.id


def test_recall_orders_by_the_selected_conflict_function(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        older = mem.remember("The release train leaves on Tuesdays", kind="fact",
                             metadata={"key": "train"}).memory
        clock.advance(days=3)
        newer = mem.remember("The release train is run by the platform team", kind="fact",
                             metadata={"key": "train"}).memory
        hits = mem.recall("release train", k=4, track=False)
        assert not any("newer_value" in h.explanation.terms for h in hits)
    with engramdb.open(path, embedder="hashing", clock=clock,
                       conflict="test-keyed-recall") as mem:
        hits = mem.recall("release train", k=4, track=False)
        ids = [h.memory.id for h in hits]
        assert ids.index(newer.id) < ids.index(older.id)
        assert hits[ids.index(newer.id)].explanation.terms["newer_value"] == 1.0
        assert hits[ids.index(older.id)].explanation.terms["earlier_value"] == 1.0


def test_unknown_names_list_the_known_ones(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match=r"similarity .*'nope' \(known: .*cosine"):
        engramdb.open(tmp_path / "m.db", embedder="hashing", similarity="nope")
    with pytest.raises(ConfigError, match="conflict must name a registered conflict function"):
        Config(conflict=" ")
    monkeypatch.setenv("ENGRAMDB_CONFLICT", "相似")
    with pytest.raises(ConfigError, match=r"ENGRAMDB_CONFLICT.*'相似' \(known: .*statements"):
        engramdb.open(tmp_path / "m.db", embedder="hashing")
    from engramdb.cli import app

    got = CliRunner().invoke(app, ["--db", str(tmp_path / "m.db"), "--create",
                                   "--embedder", "hashing", "status"])
    assert got.exit_code == 6 and "statements" in got.output and "Traceback" not in got.output


@pytest.mark.parametrize("name, fn", [("", _never), ("  ", _never), (7, _never), ("x", 42)])
def test_bad_registrations_are_refused(name, fn):  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError):
        register_similarity(name, fn)
    with pytest.raises(ConfigError):
        register_conflict(name, fn)
    with pytest.raises(ConfigError, match="at_write must be True or False"):
        register_conflict("test-x", _keyed, at_write="yes")  # type: ignore[arg-type]
    assert "x" not in similarity_names() and "test-x" not in conflict_names()


def test_a_misbehaving_function_is_a_config_error_and_writes_nothing(tmp_path):  # type: ignore[no-untyped-def]
    first, second = DUPLICATES[0]
    with engramdb.open(tmp_path / "a.db", embedder="hashing", similarity="test-words") as mem:
        mem.remember(first, kind="fact")
        with pytest.raises(ConfigError, match="'test-words' returned 'high'"):
            mem.remember(second, kind="fact")
        assert mem.count() == 1
    with engramdb.open(tmp_path / "b.db", embedder="hashing", conflict="test-broken") as mem:
        mem.remember("我住在杭州", kind="fact")
        with pytest.raises(ConfigError, match="'test-broken' failed: ZeroDivisionError"):
            mem.remember("我在杭州的西湖边住", kind="fact")
        assert [r.content for r in mem.list()] == ["我住在杭州"]


@pytest.mark.parametrize("doc", ["README.md", "docs/migrating.md"])
def test_the_docs_blocks_run_as_written(doc, capsys):  # type: ignore[no-untyped-def]
    text = (Path(__file__).resolve().parents[1] / doc).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S)
              if "register_similarity(" in b]
    assert len(blocks) == 1
    exec(compile(blocks[0], doc, "exec"), {})
    if "print(" in blocks[0]:
        assert capsys.readouterr().out == "supersede conflict_function\n"


def test_the_deferred_near_duplicate_check_asks_it_too(tmp_path):  # type: ignore[no-untyped-def]
    first, second = DUPLICATES[1]
    for name, left in (("cosine", 1), ("test-never", 2)):
        with engramdb.open(tmp_path / f"{name}.db", embedder="hashing", embed="deferred",
                           similarity=name) as mem:
            mem.remember(first, kind="fact")
            assert mem.remember(second, kind="fact").action.value == "add"
            mem.flush()
            assert mem.count() == left

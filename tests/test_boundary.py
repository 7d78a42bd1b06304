"""Issue 18: every exception that escapes a public verb is an EngramError. The store's every
public method is made to fail as a broken disk would (sqlite3.OperationalError), and each
verb of the facade is called: each raises StoreError, never the driver's exception."""

from __future__ import annotations

import inspect
import io
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Draft, EngramError, Memory, StoreError
from engramdb.engine.boundary import Unexpected
from engramdb.store.sqlite.store import SQLiteStore

Call = Callable[[Memory, dict[str, Any]], Any]

CALLS: dict[str, Call] = {
    "active_goal": lambda m, c: m.active_goal(),
    "add_procedure": lambda m, c: m.add_procedure("Deploy", ["build", "ship"], ["deploy"]),
    "agents_md": lambda m, c: m.agents_md(),
    "boot": lambda m, c: m.boot(),
    "check_uris": lambda m, c: m.check_uris(),
    "close": lambda m, c: m.close(),
    "confirm": lambda m, c: m.confirm(c["id"]),
    "context": lambda m, c: m.context("where do I live"),
    "count": lambda m, c: m.count(),
    "decay": lambda m, c: m.decay(),
    "explain": lambda m, c: m.explain(c["id"]),
    "export": lambda m, c: m.export(io.StringIO()),
    "export_memory_md": lambda m, c: m.export_memory_md(),
    "focus": lambda m, c: m.focus("Berlin"),
    "forget": lambda m, c: m.forget(c["id"]),
    "forget_scope": lambda m, c: m.forget_scope(),
    "get": lambda m, c: m.get(c["id"]),
    "goal_done": lambda m, c: m.goal_done(),
    "goal_note": lambda m, c: m.goal_note(evidence=["done one"]),
    "goal_pause": lambda m, c: m.goal_pause(),
    "goal_resume": lambda m, c: m.goal_resume(c["goal"]),
    "goal_start": lambda m, c: m.goal_start("ship the release"),
    "goals": lambda m, c: m.goals(),
    "history": lambda m, c: m.history(c["id"]),
    "import_": lambda m, c: m.import_(io.StringIO(c["export"])),
    "ingest": lambda m, c: m.ingest([{"role": "user", "content": "I moved to Lisbon in May"}]),
    "learn_from_mistake": lambda m, c: m.learn_from_mistake("ran rm -rf", "never run rm -rf"),
    "link": lambda m, c: m.link(c["id"], c["other"]),
    "links": lambda m, c: m.links(c["id"]),
    "list": lambda m, c: list(m.list()),
    "migrate": lambda m, c: m.migrate(c["md"]),
    "procedure_outcome": lambda m, c: m.procedure_outcome(c["procedure"], True),
    "procedures": lambda m, c: m.procedures(),
    "recall": lambda m, c: m.recall("Berlin"),
    "recall_path": lambda m, c: m.recall_path("core://home"),
    "related": lambda m, c: m.related(c["id"]),
    "remember": lambda m, c: m.remember("I like green tea", kind="preference"),
    "remember_many": lambda m, c: m.remember_many([Draft("我喜欢喝绿茶")]),
    "restore": lambda m, c: m.restore(c["id"]),
    "restore_snapshot": lambda m, c: m.restore_snapshot(c["snapshot"]),
    "rollback": lambda m, c: m.rollback(c["id"], 1),
    "scopes": lambda m, c: m.scopes(),
    "session": lambda m, c: m.session("s1").add("user", "hello"),
    "sessions": lambda m, c: m.sessions(),
    "sleep": lambda m, c: m.sleep(),
    "sleep_all": lambda m, c: m.sleep_all(),
    "abbreviate": lambda m, c: m.abbreviate([c["id"]]),
    "flush": lambda m, c: m.flush(),
    "snapshot": lambda m, c: m.snapshot(io.StringIO()),
    "sources": lambda m, c: m.sources(c["id"]),
    "stats": lambda m, c: m.stats(),
    "triggered_procedures": lambda m, c: m.triggered_procedures("deploy now"),
    "unlink": lambda m, c: m.unlink(c["id"], c["other"]),
    "update": lambda m, c: m.update(c["id"], content="I live in Hamburg"),
    "feedback": lambda m, c: m.feedback(c["id"], True),
    "due_for_review": lambda m, c: m.due_for_review(),
    "review_queue": lambda m, c: m.review_queue(),
    "triples": lambda m, c: m.triples(),
    "profile_check": lambda m, c: m.profile_check(),
    "reflect": lambda m, c: m.reflect(),
    "timeline": lambda m, c: m.timeline(),
    "strength_curve": lambda m, c: m.strength_curve(c["id"]),
    "lineage": lambda m, c: m.lineage(c["id"]),
    "neighbourhood": lambda m, c: m.neighbourhood(c["id"]),
    "sleep_log": lambda m, c: m.sleep_log(),
    "entity": lambda m, c: m.entity("Berlin"),
    "entities": lambda m, c: m.entities(),
}
NO_STORE = {"scope", "index_scope"}   # a view; a PostgreSQL-only verb (Invalid on SQLite)


def _prepared(path: Path, tmp: Path) -> dict[str, Any]:
    with engramdb.open(path, embedder="hashing") as mem:
        first = mem.remember("I live in Berlin", kind="fact", uri="core://home")
        other = mem.remember("我住在柏林", kind="fact")
        goal = mem.goal_start("write the report")
        mem.goal_pause()
        proc = mem.add_procedure("Release", ["tag", "push"], ["release"])
        out = io.StringIO()
        mem.export(out)
        snap = tmp / "snap.json"
        mem.snapshot(snap)
    md = tmp / "MEMORY.md"
    md.write_text("# Memory\n\n- I prefer tea\n", encoding="utf-8")
    return {"id": first.memory.id, "other": other.memory.id, "goal": goal.id,
            "procedure": proc.id, "export": out.getvalue(), "snapshot": snap, "md": md}


def _broken(*_: Any, **__: Any) -> Any:
    raise sqlite3.OperationalError("disk I/O error")


def _store_methods() -> list[str]:
    return [n for n, _ in inspect.getmembers(SQLiteStore, inspect.isfunction)
            if not n.startswith("_")]


def test_the_calls_cover_every_public_verb() -> None:
    verbs = {n for n, _ in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    assert verbs == set(CALLS) | NO_STORE
    assert all(getattr(getattr(Memory, v), "__engramdb_guarded__", False) for v in verbs)


@pytest.mark.parametrize("verb", sorted(CALLS))
def test_a_failing_store_raises_store_error(verb, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    ctx = _prepared(path, tmp_path)
    mem = engramdb.open(path, embedder="hashing")
    try:
        for name in _store_methods():
            monkeypatch.setattr(SQLiteStore, name, _broken)
        with pytest.raises(StoreError, match="disk I/O error") as caught:
            CALLS[verb](mem, ctx)
        assert isinstance(caught.value.__cause__, sqlite3.OperationalError)
    finally:
        monkeypatch.undo()
        mem.close()


def test_a_bug_underneath_is_an_engram_error_too(tmp_path, monkeypatch, caplog):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        mem.remember("I live in Berlin", kind="fact")
        monkeypatch.setattr(SQLiteStore, "search_text", lambda *a, **k: 1 / 0)
        with pytest.raises(Unexpected) as caught:
            mem.recall("Berlin")
        assert isinstance(caught.value, EngramError)
        assert isinstance(caught.value.__cause__, ZeroDivisionError)
        assert "ZeroDivisionError" in caplog.text


def test_a_lazy_listing_is_guarded_as_it_is_read(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        mem.remember("I live in Berlin", kind="fact")

        def failing(*_: Any, **__: Any) -> Any:
            yield from ()
            raise sqlite3.OperationalError("database disk image is malformed")

        monkeypatch.setattr(SQLiteStore, "list", failing)
        listing = mem.list()
        with pytest.raises(StoreError, match="malformed"):
            next(listing)

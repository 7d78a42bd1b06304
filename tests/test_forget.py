"""Forgetting: hard forget leaves a tombstone and nothing of what was said; forgetting a scope
removes exactly that scope's memories, text, vectors and events, with one audit event."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import engramdb
from engramdb import Action, Conflict, Layer, NotFound, Scope
from engramdb.store.sqlite.search import scope_token

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores

SECRET = "zebracorn"
UNKNOWN = "01JZZZZZZZZZZZZZZZZZZZZZZZ"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


def file_bytes(path: Path) -> bytes:
    """The database file and its WAL, as they are on disk."""
    wal = Path(f"{path}-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def rows_mentioning(path: Path, word: str) -> list[str]:
    """Every table row (FTS shadow tables included) whose text or bytes hold ``word``."""
    db = sqlite3.connect(path)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [f"{name}: {row!r}"[:200] for name in names
                for row in db.execute(f'SELECT * FROM "{name}"')
                if word in repr(row) or word.encode() in repr(row).encode()]
    finally:
        db.close()


def table_counts(path: Path, scope: Scope) -> dict[str, int]:
    """How many rows the scope has in every table that holds per-scope rows."""
    db = sqlite3.connect(path)
    args = (scope.user, scope.agent)
    try:
        return {
            "memories": db.execute("SELECT count(*) FROM memories WHERE user = ? AND agent = ?",
                                   args).fetchone()[0],
            "events": db.execute("SELECT count(*) FROM events WHERE user = ? AND agent = ?",
                                 args).fetchone()[0],
            "vectors": db.execute("SELECT count(*) FROM vectors WHERE user = ? AND agent = ?",
                                  args).fetchone()[0],
            "fts": db.execute("SELECT count(*) FROM memories_fts WHERE scope = ?",
                              (scope_token(scope),)).fetchone()[0],
            "scope_state": db.execute(
                "SELECT count(*) FROM scope_state WHERE user = ? AND agent = ?",
                args).fetchone()[0],
        }
    finally:
        db.close()


def scope_rows(path: Path, scope: Scope) -> dict[str, list[str]]:
    """Every row of the scope in memories, events, vectors and scope_state."""
    db = sqlite3.connect(path)
    try:
        return {table: sorted(repr(r) for r in db.execute(
            f"SELECT * FROM {table} WHERE user = ? AND agent = ?", (scope.user, scope.agent)))
            for table in ("memories", "events", "vectors", "scope_state")}
    finally:
        db.close()


def ids(hits: Any) -> list[str]:
    return [h.memory.id for h in hits]


# ---------------------------------------------------------------- hard forget


def remember_secret(me: Any) -> engramdb.Record:
    rec = me.remember(f"the vault code word is {SECRET}", uri="knowledge://user/vault",
                      people=[f"{SECRET}son"], metadata={"hint": SECRET},
                      context=f"we talked about {SECRET}").memory
    me.update(rec.id, content=f"the vault code word is {SECRET} again", topics=[SECRET])
    return rec


def test_hard_forget_leaves_a_tombstone(me, clock):  # type: ignore[no-untyped-def]
    rec = remember_secret(me)
    clock.advance(hours=1)
    tomb = me.forget(rec.id, hard=True, reason="user asked")
    assert tomb.erased and tomb.layer == Layer.DELETED
    assert (tomb.content, tomb.content_hash, tomb.metadata, tomb.context) == ("", "", {}, None)
    assert (tomb.people, tomb.places, tomb.topics, tomb.keywords) == ([], [], [], [])
    assert (tomb.id, tomb.uri, tomb.kind, tomb.recorded_at) == (
        rec.id, rec.uri, rec.kind, rec.recorded_at)
    assert tomb.version == 3 and tomb.updated_at == clock.now()
    assert me.get(rec.id) == tomb
    with pytest.raises(NotFound):
        me.get("knowledge://user/vault")


def test_hard_forget_scrubs_history(me):  # type: ignore[no-untyped-def]
    rec = remember_secret(me)
    me.forget(rec.id, hard=True, reason="user asked")
    versions = me.history(rec.id)
    assert [(v.version, v.op) for v in versions] == [(1, "create"), (2, "update"), (3, "erase")]
    assert [v.memory.content for v in versions] == ["", "", ""]
    assert all(v.memory.metadata == {} and v.memory.topics == [] for v in versions)
    assert [v.memory.layer for v in versions] == [Layer.CORE, Layer.CORE, Layer.DELETED]
    assert (versions[-1].actor, versions[-1].reason) == ("user", "user asked")


@pytest.mark.sqlite_only
def test_hard_forget_leaves_nothing_in_the_file(me, path):  # type: ignore[no-untyped-def]
    for i in range(30):
        me.remember(f"note {i} about the garden")
    rec = remember_secret(me)
    assert rows_mentioning(path, SECRET)
    me.forget(rec.id, hard=True)
    assert rows_mentioning(path, SECRET) == []
    assert SECRET.encode() not in file_bytes(path)


def test_hard_forgotten_memory_cannot_be_found(me):  # type: ignore[no-untyped-def]
    rec = remember_secret(me)
    kept = me.remember("the garden gate code is 1234").memory
    me.forget(rec.id, hard=True)
    for preset in ("lexical", "dense", "default"):
        assert rec.id not in ids(me.recall(f"vault code word {SECRET}", k=10, track=False,
                                           preset=preset))
    assert ids(me.recall("garden gate code", k=10, track=False, preset="lexical")) == [kept.id]
    assert [r.id for r in me.list(layer="deleted")] == [rec.id]


def test_hard_forgotten_memory_cannot_be_restored(me):  # type: ignore[no-untyped-def]
    rec = remember_secret(me)
    me.forget(rec.id, hard=True)
    with pytest.raises(Conflict, match="erased .hard forget."):
        me.restore(rec.id)
    with pytest.raises(Conflict, match="erased"):
        me.rollback(rec.id, 1)
    with pytest.raises(Conflict, match="erased .hard forget.: it cannot change"):
        me.update(rec.id, content="something else")
    assert me.get(rec.id).version == 3  # nothing written


def test_hard_forget_twice_and_after_a_soft_forget(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    me.forget(rec.id)
    tomb = me.forget(rec.id, hard=True)
    assert tomb.erased and tomb.version == 3
    assert me.forget(rec.id, hard=True) == tomb
    assert me.forget(rec.id) == tomb  # a soft forget of a tombstone changes nothing


def test_after_a_hard_forget_the_words_are_new_again(me):  # type: ignore[no-untyped-def]
    rec = me.remember("My name is Li", uri="core://user/name").memory
    me.forget("core://user/name", hard=True)
    again = me.remember("My name is Li", uri="core://user/name")
    assert again.action == Action.ADD and again.memory.id != rec.id
    plain = me.remember("I live in Berlin").memory
    me.forget(plain.id, hard=True)
    assert me.remember("I live in Berlin").action == Action.ADD


def test_hard_forget_of_an_unknown_id_is_not_found(me):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin")
    with pytest.raises(NotFound):
        me.forget(UNKNOWN, hard=True)


def test_tombstones_survive_export_and_import(mem, me, clock, tmp_path):  # type: ignore[no-untyped-def]
    rec = remember_secret(me)
    me.remember("I live in Berlin")
    me.forget(rec.id, hard=True)
    out = io.StringIO()
    mem.export(out, user="alice", agent="noah")
    assert SECRET not in out.getvalue()
    copy_path = tmp_path / "copy.db"
    with engramdb.open(copy_path, embedder="hashing", clock=clock) as copy:
        assert copy.import_(io.StringIO(out.getvalue()))["imported"] == 2
        assert copy.get(rec.id, user="alice", agent="noah") == me.get(rec.id)
        assert copy.history(rec.id, user="alice", agent="noah") == me.history(rec.id)
        with pytest.raises(Conflict):
            copy.restore(rec.id, user="alice", agent="noah")
    counts = table_counts(copy_path, Scope("alice", "noah"))
    assert (counts["memories"], counts["vectors"], counts["fts"]) == (2, 1, 1)


# ---------------------------------------------------------------- a whole scope


def fill_two_scopes(mem: engramdb.Memory) -> tuple[Any, Any]:
    alice = mem.scope(user="alice", agent="noah")
    bob = mem.scope(user="bob", agent="noah")
    for who, name in ((alice, "alice"), (bob, "bob")):
        who.remember(f"{name} likes {SECRET} tea", people=["Anna"])
        who.remember(f"{name} lives in Berlin", uri="knowledge://user/home")
        who.remember(f"{name} lives in Oslo", uri="knowledge://user/home")  # an update
        archived = who.remember(f"{name} went to Harbin", kind="event").memory
        mem.store.save(archived.replace(layer=Layer.ARCHIVED, version=2), "archive",
                       actor="sleep")
        who.forget(who.remember(f"{name} had a cold").memory.id)
        who.recall("tea")  # a use
    return alice, bob


@pytest.mark.sqlite_only
def test_forget_scope_removes_exactly_that_scope(mem, path):  # type: ignore[no-untyped-def]
    alice, bob = fill_two_scopes(mem)
    other_agent = mem.scope(user="alice", agent="other")
    kept = other_agent.remember(f"alice told other about {SECRET}").memory
    alice_scope, bob_scope = Scope("alice", "noah"), Scope("bob", "noah")
    before = table_counts(path, alice_scope)
    assert before == {"memories": 4, "events": before["events"], "vectors": 4, "fts": 4,
                      "scope_state": 1}
    assert before["events"] >= 7  # 4 creates, an update, an archive, a forget, and uses
    bob_before = scope_rows(path, bob_scope)
    bob_hits = ids(bob.recall("tea Berlin", k=10, track=False))
    assert mem.count(layer=["archived"], user="alice", agent="noah") == 1

    assert alice.forget_scope(reason="account closed") == 4

    assert table_counts(path, alice_scope) == {
        "memories": 0, "events": 1, "vectors": 0, "fts": 0, "scope_state": 0}
    assert scope_rows(path, bob_scope) == bob_before
    assert ids(bob.recall("tea Berlin", k=10, track=False)) == bob_hits
    assert other_agent.get(kept.id) == kept
    assert alice.count(layer=["core", "archived", "deleted"]) == 0
    assert alice.recall("tea", k=10, track=False) == []
    assert Scope("alice", "noah") not in mem.scopes()
    (audit,) = mem.store.events(alice_scope, "*")
    assert (audit.op, audit.snapshot, audit.actor, audit.reason) == (
        "drop_scope", None, "user", "account closed")
    assert alice.stats().events == 1


def test_forget_scope_leaves_nothing_of_it_in_the_file(mem, path):  # type: ignore[no-untyped-def]
    alice = mem.scope(user="alice", agent="noah")
    for i in range(30):
        alice.remember(f"alice note {i} about {SECRET}", people=[f"{SECRET}son"])
    mem.scope(user="bob").remember("bob likes tea")
    mem.forget_scope(user="alice", agent="noah")
    assert rows_mentioning(path, SECRET) == []
    assert SECRET.encode() not in file_bytes(path)


def test_a_forgotten_scope_starts_afresh(mem):  # type: ignore[no-untyped-def]
    alice, bob = fill_two_scopes(mem)
    assert alice.recall("Berlin", k=5, track=False)  # the caches have seen the scope
    alice.forget_scope()
    assert alice.recall("Berlin", k=5, track=False) == []
    new = alice.remember("alice lives in Rome").memory
    assert ids(alice.recall("Rome", k=5, track=False, preset="lexical")) == [new.id]
    assert ids(alice.recall("anything", k=5, track=False, preset="dense")) == [new.id]
    assert alice.remember("alice likes zebracorn tea").action == Action.ADD
    assert len(bob.recall("anything", k=10, track=False, preset="dense")) == 2  # core ones


def test_forgetting_an_empty_scope_logs_the_audit_event(mem):  # type: ignore[no-untyped-def]
    assert mem.forget_scope(user="nobody") == 0
    assert mem.stats(user="nobody").events == 1


def test_audit_events_accumulate(mem):  # type: ignore[no-untyped-def]
    alice = mem.scope(user="alice", agent="noah")
    alice.remember("first life")
    alice.forget_scope(reason="first")
    alice.remember("second life")
    alice.forget_scope(reason="second")
    audit = mem.store.events(Scope("alice", "noah"), "*")
    assert [(e.op, e.reason) for e in audit] == [("drop_scope", "first"),
                                                 ("drop_scope", "second")]


@pytest.mark.sqlite_only
def test_a_failed_forget_scope_changes_nothing(mem, path):  # type: ignore[no-untyped-def]
    alice, _ = fill_two_scopes(mem)
    before = scope_rows(path, Scope("alice", "noah"))
    with pytest.raises(RuntimeError):
        with mem.store.transaction():
            alice.forget_scope()
            raise RuntimeError("boom")
    assert scope_rows(path, Scope("alice", "noah")) == before
    assert alice.recall("tea", k=5, track=False)


def test_hard_forget_takes_its_words_out_of_a_gist(me, clock, backend, path):  # type: ignore[no-untyped-def]
    texts = [f"Wang told me the vault word {SECRET} in Harbin.",
             "Wang booked the hotel in Harbin for 3 nights.",
             "Dinner with Wang in Harbin: dumplings."]
    sources = [me.remember(t, kind="event", people=["Wang"], places=["Harbin"],
                           topics=[SECRET] if i == 0 else []).memory
               for i, t in enumerate(texts)]
    clock.advance(days=14)   # settled: the next sleep consolidates them
    me.sleep()
    (gist,) = me.list(kind="gist", layer=["core", "archived"])
    assert SECRET in gist.content and gist.topics == [SECRET]
    me.forget(sources[0].id, hard=True)
    (after,) = me.list(kind="gist", layer=["core", "archived"])
    assert after.id == gist.id and SECRET not in repr(after)
    assert after.derived_from == [s.id for s in sources[1:]] and after.metadata["support"] == 2
    assert "hotel" in after.content and after.people == ["Wang"] and after.topics == []
    versions = me.history(gist.id)
    assert versions[-1].op == "redact" and all(SECRET not in repr(v.memory) for v in versions)
    assert gist.id not in ids(me.recall(f"vault word {SECRET}", k=10, track=False,
                                        preset="lexical"))
    if backend == "sqlite":
        assert rows_mentioning(path, SECRET) == [] and SECRET.encode() not in file_bytes(path)
    for source in sources[1:]:   # no source left: the gist goes too
        me.forget(source.id, hard=True)
    assert list(me.list(kind="gist", layer=["core", "archived"])) == []
    assert [r.id for r in me.list(kind="gist", layer="deleted")] == [gist.id]

"""History with who/what/why, and rollback keeping every derived field consistent."""

from __future__ import annotations

import io
import json
import sqlite3

import numpy as np
import pytest

import engramdb
from engramdb import Action, Conflict, Invalid, NotFound
from helpers import lexical_ids

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores

UNKNOWN = "01JZZZZZZZZZZZZZZZZZZZZZZZ"




def test_history_says_who_what_and_why(me, clock):  # type: ignore[no-untyped-def]
    first = me.remember("I live in Paris", uri="knowledge://user/home").memory
    clock.advance(hours=1)
    me.remember("I live in Berlin", uri="knowledge://user/home")
    clock.advance(hours=1)
    me.forget(first.id, reason="moved away")
    versions = me.history(first.id)
    assert [(v.version, v.op, v.actor, v.reason) for v in versions] == [
        (1, "create", "user", "new_memory"),
        (2, "update", "user", "same_uri"),
        (3, "forget", "user", "moved away"),
    ]
    assert versions[0].who == "alice/noah (user)"
    assert versions[2].to_dict()["user"] == "alice"
    assert versions[2].to_dict()["agent"] == "noah"
    assert versions[2].to_dict()["reason"] == "moved away"


@pytest.mark.sqlite_only
def test_unknown_actor_is_none_and_who_is_the_scope(mem, tmp_path):  # type: ignore[no-untyped-def]
    """Events written before actors were recorded (or by a caller that gives none)."""
    rec = mem.remember("I drink tea", user="alice").memory
    db = sqlite3.connect(tmp_path / "memory.db")
    db.execute("UPDATE events SET actor = NULL, reason = NULL")
    db.commit()
    db.close()
    (version,) = mem.history(rec.id, user="alice")
    assert (version.actor, version.reason) == (None, None)
    assert version.who == "alice/default"


def test_rollback_restores_content_as_a_new_version(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin", people=["Anna"], metadata={"src": "chat"}).memory
    clock.advance(hours=1)
    me.update(rec.id, content="I live in Oslo", people=["Ola"], metadata={"src": "mail"})
    clock.advance(hours=1)
    back = me.rollback(rec.id, 1)
    assert back.version == 3
    assert (back.content, back.people, back.metadata) == (
        "I live in Berlin", ["Anna"], {"src": "chat"})
    assert back.recorded_at == rec.recorded_at and back.updated_at == clock.now()
    assert me.get(rec.id) == back
    last = me.history(rec.id)[-1]
    assert (last.version, last.op, last.actor, last.reason) == (
        3, "rollback", "user", "to version 1")
    assert last.memory == back


def test_rollback_keeps_dedup_search_and_vector_consistent(mem, me):  # type: ignore[no-untyped-def]
    rec = me.remember("I keep bees on the roof").memory
    me.update(rec.id, content="I grow tomatoes in the garden")
    me.rollback(rec.id, 1)
    # dedup: the restored words are an exact duplicate again
    again = me.remember("I keep bees on the roof")
    assert again.action == Action.NOOP and again.rule == "exact_duplicate"
    assert again.memory.id == rec.id
    # full-text search: the restored words are found, the removed ones are not
    assert lexical_ids(me, "bees roof") == [rec.id]
    assert lexical_ids(me, "tomatoes garden") == []
    # the vector is the restored content's
    stored = mem.store.vectors(engramdb.Scope("alice", "noah"), [rec.id])[rec.id]
    expected = mem.embedder.embed_batch(["I keep bees on the roof"])[0]
    assert np.allclose(stored, expected, atol=1e-6)
    top = me.recall("bees on the roof", k=1, track=False, preset="dense")
    assert top[0].memory.id == rec.id


def test_rollback_of_an_update_by_uri_frees_the_new_words(me):  # type: ignore[no-untyped-def]
    rec = me.remember("My name is Li", uri="core://user/name").memory
    me.remember("My name is Wang", uri="core://user/name")
    me.rollback("core://user/name", 1)
    assert me.get("core://user/name").content == "My name is Li"
    assert me.remember("My name is Li", uri="core://user/name").action == Action.NOOP
    update = me.remember("My name is Wang", uri="core://user/name")
    assert update.action == Action.UPDATE and update.memory.id == rec.id


def test_rollback_survives_export_and_import(mem, me, clock, tmp_path):  # type: ignore[no-untyped-def]
    rec = me.remember("I keep bees").memory
    me.update(rec.id, content="I keep goats")
    me.rollback(rec.id, 1, reason="goats were a typo")
    out = io.StringIO()
    mem.export(out, user="alice", agent="noah")
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        copy.import_(io.StringIO(out.getvalue()))
        assert copy.history(rec.id, user="alice", agent="noah") == me.history(rec.id)
        last = copy.history(rec.id, user="alice", agent="noah")[-1]
        assert last.reason == "to version 1: goats were a typo"


def test_rollback_to_a_missing_version_is_not_found(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    me.update(rec.id, content="I live in Oslo")
    with pytest.raises(NotFound, match="no version 7 .versions: 1, 2."):
        me.rollback(rec.id, 7)
    assert me.get(rec.id).version == 2  # nothing written


@pytest.mark.parametrize("version", [0, -1, True, "1", 1.0, None])
def test_rollback_to_a_bad_version_is_invalid(me, version):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    with pytest.raises(Invalid, match="version must be a positive integer"):
        me.rollback(rec.id, version)


def test_rollback_of_an_unknown_id_is_not_found(me):  # type: ignore[no-untyped-def]
    me.remember("I live in Berlin")
    with pytest.raises(NotFound, match="no memory"):
        me.rollback(UNKNOWN, 1)


def test_rollback_of_a_forgotten_memory_conflicts(me):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    me.update(rec.id, content="I live in Oslo")
    me.forget(rec.id)
    with pytest.raises(Conflict, match="restore it first"):
        me.rollback(rec.id, 1)
    me.restore(rec.id)
    assert me.rollback(rec.id, 1).content == "I live in Berlin"


def test_rollback_onto_a_taken_uri_conflicts(me):  # type: ignore[no-untyped-def]
    rec = me.remember("My name is Li", uri="core://user/name").memory
    me.update(rec.id, uri="core://user/nickname")
    me.remember("My name is Wang", uri="core://user/name")
    with pytest.raises(Conflict, match="core://user/name"):
        me.rollback(rec.id, 1)
    assert me.get(rec.id).uri == "core://user/nickname"


def test_rollback_keeps_layer_and_uses(me, clock):  # type: ignore[no-untyped-def]
    rec = me.remember("I live in Berlin").memory
    me.recall("Berlin")
    me.update(rec.id, content="I live in Oslo")
    back = me.rollback(rec.id, 1)
    assert back.layer == engramdb.Layer.CORE and back.use_count == 1


def test_a_file_from_before_actors_gains_them(tmp_path, clock):  # type: ignore[no-untyped-def]
    """Schema migration 2 adds the actor and reason columns to an existing file's log."""
    path = tmp_path / "old.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        rec = mem.remember("I live in Berlin").memory
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE events DROP COLUMN actor")
    db.execute("ALTER TABLE events DROP COLUMN reason")
    db.execute("DELETE FROM schema_migrations WHERE version = 2")
    db.commit()
    db.close()
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        (old,) = mem.history(rec.id)
        assert (old.op, old.actor, old.reason, old.memory.content) == (
            "create", None, None, "I live in Berlin")
        mem.update(rec.id, content="I live in Oslo")
        assert [v.actor for v in mem.history(rec.id)] == [None, "user"]
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT version FROM schema_migrations ORDER BY 1")][:2] == [
        1, 2]
    db.close()


def test_an_export_from_before_actors_imports(mem, me, clock, tmp_path):  # type: ignore[no-untyped-def]
    rec = me.remember("I keep bees").memory
    out = io.StringIO()
    mem.export(out, user="alice", agent="noah")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for line in lines:
        line.pop("actor", None)
        line.pop("reason", None)
    old = "\n".join(json.dumps(line) for line in lines)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing", clock=clock) as copy:
        assert copy.import_(io.StringIO(old))["imported"] == 1
        (version,) = copy.history(rec.id, user="alice", agent="noah")
        assert (version.actor, version.reason, version.memory) == (None, None, rec)

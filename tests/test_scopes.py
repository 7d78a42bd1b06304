"""Scope isolation: one user's (or agent's) memories never reach another through any verb."""

from __future__ import annotations

import io
import json

import pytest

from engramdb import Action, Invalid, NotFound

BACKENDS = ("sqlite", "postgres")  # every test using `mem` runs on both stores


@pytest.fixture
def alice(mem):  # type: ignore[no-untyped-def]
    return mem.scope(user="alice", agent="noah")


@pytest.fixture
def bob(mem):  # type: ignore[no-untyped-def]
    return mem.scope(user="bob", agent="noah")


@pytest.fixture
def secret(alice):  # type: ignore[no-untyped-def]
    return alice.remember("My bank PIN hint is zebra", uri="core://user/pin",
                          metadata={"private": True}).memory


def test_bob_cannot_recall_alices_memory(bob, secret):  # type: ignore[no-untyped-def]
    assert list(bob.recall("zebra bank PIN", k=10)) == []
    bob.remember("I like zebras at the zoo")
    hits = bob.recall("zebra bank PIN", k=10, track=False)
    assert [h.memory.user for h in hits] == ["bob"]
    assert all(h.memory.id != secret.id for h in hits)


def test_bob_cannot_get_alices_memory(bob, secret):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound):
        bob.get(secret.id)
    with pytest.raises(NotFound):
        bob.get("core://user/pin")


def test_same_uri_in_two_scopes_are_two_memories(alice, bob, secret):  # type: ignore[no-untyped-def]
    mine = bob.remember("My PIN hint is giraffe", uri="core://user/pin")
    assert mine.action == Action.ADD and mine.memory.id != secret.id
    assert bob.get("core://user/pin").content == "My PIN hint is giraffe"
    assert alice.get("core://user/pin").content == secret.content
    assert alice.get("core://user/pin").version == 1


def test_same_content_in_two_scopes_is_not_a_duplicate(bob, secret):  # type: ignore[no-untyped-def]
    r = bob.remember(secret.content)
    assert r.action == Action.ADD and r.memory.id != secret.id


def test_bob_cannot_list_or_count_alices_memory(bob, secret):  # type: ignore[no-untyped-def]
    assert list(bob.list()) == []
    assert list(bob.list(layer=["core", "archived", "deleted"])) == []
    assert list(bob.list(uri_prefix="core://")) == []
    assert list(bob) == []
    assert bob.count() == 0
    stats = bob.stats()
    assert stats.total == 0 and stats.events == 0 and stats.by_kind == {}


def test_bob_cannot_change_alices_memory(alice, bob, secret):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound):
        bob.update(secret.id, content="hacked")
    with pytest.raises(NotFound):
        bob.update("core://user/pin", content="hacked")
    with pytest.raises(NotFound):
        bob.forget(secret.id)
    with pytest.raises(NotFound):
        bob.restore(secret.id)
    assert alice.get(secret.id) == secret
    assert [v.op for v in alice.history(secret.id)] == ["create"]


def test_bob_cannot_read_alices_history(bob, secret):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound):
        bob.history(secret.id)


def test_export_holds_only_the_scope(alice, bob, secret):  # type: ignore[no-untyped-def]
    bob.remember("I like zebras at the zoo")
    out = io.StringIO()
    assert bob.export(out) == 1
    text = out.getvalue()
    assert "bank PIN" not in text and secret.id not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert {line["memory"]["user"] for line in lines if line["type"] == "memory"} == {"bob"}


def test_alice_use_is_not_bobs(alice, bob, secret, clock):  # type: ignore[no-untyped-def]
    alice.recall("zebra", k=1)
    assert alice.get(secret.id).use_count == 1
    assert bob.stats().events == 0


def test_agents_are_isolated_too(mem, secret):  # type: ignore[no-untyped-def]
    other_agent = mem.scope(user="alice", agent="helper")
    with pytest.raises(NotFound):
        other_agent.get(secret.id)
    assert list(other_agent.recall("zebra", k=5)) == []
    assert other_agent.count() == 0


def test_keyword_scope_matches_the_bound_view(mem, secret):  # type: ignore[no-untyped-def]
    assert mem.get(secret.id, user="alice", agent="noah") == secret
    with pytest.raises(NotFound):
        mem.get(secret.id)  # the default scope
    with pytest.raises(NotFound):
        mem.get(secret.id, user="alice")  # agent "default", not "noah"


def test_scopes_lists_every_scope(mem, bob, secret):  # type: ignore[no-untyped-def]
    bob.remember("I like zebras at the zoo")
    assert [(s.user, s.agent) for s in mem.scopes()] == [("alice", "noah"), ("bob", "noah")]


@pytest.mark.parametrize("user", ["", "   ", 42, "x" * 201])
def test_bad_user_is_invalid(mem, user):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="user"):
        mem.scope(user=user)
    with pytest.raises(Invalid, match="user"):
        mem.remember("I moved to Berlin", user=user)
    assert mem.count() == 0


@pytest.mark.parametrize("agent", ["", "  "])
def test_bad_agent_is_invalid(mem, agent):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="agent"):
        mem.recall("Berlin", agent=agent)


def test_bound_view_cannot_be_pointed_at_another_scope(alice, bob, secret):  # type: ignore[no-untyped-def]
    with pytest.raises(Invalid, match="bound"):
        bob.get(secret.id, user="alice")
    with pytest.raises(Invalid, match="bound"):
        bob.recall("zebra", agent="other")
    with pytest.raises(Invalid, match="bound"):
        bob.export(io.StringIO(), all_scopes=True)
    assert alice.get(secret.id, user="alice", agent="noah") == secret  # its own scope is fine
    assert alice.get(secret.id, user=None) == secret  # None: the bound one

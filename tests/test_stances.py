"""Each statement's stance kept with its triples (write/stance.py, table stances): in step with
its text through write, update, forget, restore, rollback, hard forget and a dropped scope, and
the write decisions made with the stored stances are those made by reading every text again."""

from __future__ import annotations

import engramdb
from engramdb.model import Scope
from engramdb.write.stance import decoded, stance_of

BACKENDS = ("sqlite", "postgres")
SCOPE = Scope("alice", "noah")


def _kept(mem, memory_id: str):  # type: ignore[no-untyped-def]
    """The stance the store keeps for the memory, checked against its text now."""
    text = mem.store.stances(SCOPE, [memory_id]).get(memory_id)
    rec = mem.store.get(SCOPE, memory_id)
    found = decoded(text, rec) if rec is not None else None
    if found is not None:
        assert found == stance_of(rec.content)
    return found


def test_the_stance_follows_the_text(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    home = me.remember("My parents live in Shaoxing.", kind="fact").memory
    assert _kept(mem, home.id).subject.kind == "person"
    me.update(home.id, content="我明年可能搬去深圳。")
    assert _kept(mem, home.id).moods == stance_of("我明年可能搬去深圳。").moods != frozenset()
    me.forget(home.id)
    me.restore(home.id)
    assert _kept(mem, home.id) is not None
    me.rollback(home.id, 1)
    assert _kept(mem, home.id).subject.kind == "person"
    event = me.remember("We met at the station on Monday.", kind="event").memory
    assert mem.store.stances(SCOPE, [event.id]) == {}   # a kind the decision does not read
    me.forget(home.id, hard=True)
    assert mem.store.stances(SCOPE, [home.id]) == {}
    other = me.remember("I live in Hangzhou.", kind="fact").memory
    assert _kept(mem, other.id) is not None
    me.forget_scope()
    assert mem.store.stances(SCOPE, [other.id]) == {}


def test_a_stance_of_other_text_is_not_used(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    rec = me.remember("I live in Hangzhou.", kind="fact").memory
    text = mem.store.stances(SCOPE, [rec.id])[rec.id]
    assert decoded(text, rec) == stance_of(rec.content)
    assert decoded(text, rec.replace(content="My sister lives in Pune.",
                                     content_hash="0" * 32)) is None
    assert decoded("not json", rec) is None


def test_decisions_with_stored_stances_are_the_decisions_without(tmp_path, clock, monkeypatch):  # type: ignore[no-untyped-def]
    from engramdb.store.sqlite.store import SQLiteStore
    from engramdb.write import tripledecide

    pairs = [("I live in Hangzhou.", "My parents live in Shaoxing."),
             ("我住在北京。", "我明年可能搬去深圳。"),
             ("Redis runs on port 6379.", "Redis runs on port 6380."),
             ("My sister Anna works at Globex.", "Anna works at Initech now."),
             ("我们的测试服务器跑在 CentOS 7 上。", "我们的测试服务器跑在 Ubuntu 22 上。")]
    read = []
    monkeypatch.setattr(tripledecide, "stance_of",
                        lambda text: read.append(text) or stance_of(text))

    def decide(name: str) -> list[tuple[str, str, list[str]]]:
        with engramdb.open(tmp_path / f"{name}.db", embedder="hashing", clock=clock) as mem:
            out = []
            for n, (old, new) in enumerate(pairs):
                mem.remember(old, user=f"u{n}")
                r = mem.remember(new, user=f"u{n}")
                out.append((r.action.value, r.rule,
                            [a["why"] for a in r.evidence.get("kept_apart", [])]))
            return out

    stored = decide("stored")
    assert read == []                       # every neighbour's stance came from the store
    monkeypatch.setattr(SQLiteStore, "stances", lambda self, scope, ids: {})
    assert decide("read") == stored
    assert read                             # read from the texts instead
    assert stored[0] == ("add", "new_memory", ["subject"])
    assert stored[1] == ("add", "new_memory", ["mood"])

"""Subject-predicate-object triples (write/triples.py): read from a fact's structure in English
and Chinese, kept in each store's triples table, asked for with ``Memory.triples``, shown on the
entity page, carried through export and import, and used by supersession (write/tripledecide.py):
another subject or mood is kept apart, a value marked former or a changed object supersedes."""

from __future__ import annotations

import io
import sqlite3

import httpx
import pytest

import engramdb
from engramdb import Invalid, NotFound
from engramdb.model import Kind
from engramdb.write.triples import read_triples
from live_server import auth, new_key, thread_server
from test_http import error

BACKENDS = ("sqlite", "postgres")


def triples_of(text: str, kind: Kind = Kind.FACT) -> list[tuple[str, str, str]]:
    return [tuple(t) for t in read_triples(text, kind)]


@pytest.mark.parametrize(("text", "want"), [
    ("I live in Hangzhou.", [("user", "live in", "Hangzhou")]),
    ("My parents live in Shaoxing.", [("parents", "live in", "Shaoxing")]),
    ("Our staging cluster runs Postgres 15.", [("staging cluster", "run", "Postgres 15")]),
    ("I now live in Oslo.", [("user", "live in", "Oslo")]),
    ("Actually my sister's flight is Thursday, not Wednesday.",
     [("sister flight", "be", "Thursday")]),
    ("我住在杭州西湖区", [("user", "住在", "杭州西湖区")]),
    ("我爸妈住在绍兴。", [("爸妈", "住在", "绍兴")]),
    ("我叫小明", [("user", "叫", "小明")]),
    ("I live in Hangzhou. My parents live in Shaoxing.",
     [("user", "live in", "Hangzhou"), ("parents", "live in", "Shaoxing")]),
])
def test_read_in_english_and_chinese(text, want):  # type: ignore[no-untyped-def]
    assert triples_of(text) == want


@pytest.mark.parametrize("text", [
    "Where do I live?", "我住在哪里？",                 # questions
    "I might move to Lisbon next year.", "我明年可能搬去深圳。",  # plans
    "I like green tea.",                               # no value: the text says it
    "", "   ",
])
def test_nothing_read_where_no_fact_is_stated(text):  # type: ignore[no-untyped-def]
    assert triples_of(text) == []


def test_only_kinds_that_state_facts():  # type: ignore[no-untyped-def]
    assert triples_of("I live in Hangzhou.", Kind.IDENTITY)
    assert triples_of("I live in Hangzhou.", Kind.PREFERENCE)
    assert triples_of("Met Li in Hangzhou.", Kind.EVENT) == []
    assert read_triples(None, Kind.FACT) == ()  # type: ignore[arg-type]


def test_kept_and_asked_for_on_both_stores(me):  # type: ignore[no-untyped-def]
    home = me.remember("I live in Hangzhou.").memory
    me.remember("我爸妈住在绍兴。")
    me.remember("Met Li for lunch in Hangzhou.", kind="event")
    found = {(f.memory_id, *f.triple) for f in me.triples()}
    assert (home.id, "user", "live in", "Hangzhou") in found
    assert any(t[1:] == ("爸妈", "住在", "绍兴") for t in found)
    assert len(found) == 2                          # the event gives none
    assert [f.triple.object for f in me.triples(subject="USER ")] == ["Hangzhou"]
    assert [f.triple.object for f in me.triples(predicate="住在")] == ["绍兴"]
    assert [f.to_dict() for f in me.triples(home.id)] == [
        {"memory_id": home.id, "subject": "user", "predicate": "live in",
         "object": "Hangzhou", "current": True}]
    me.forget(home.id)                              # a forgotten memory says nothing
    assert me.triples(subject="user") == []


def test_different_subjects_never_touch(me):  # type: ignore[no-untyped-def]
    for mine, theirs in (("I live in Hangzhou.", "My parents live in Shaoxing."),
                         ("我住在杭州西湖区。", "我爸妈住在绍兴。")):
        first = me.remember(mine).memory
        second = me.remember(theirs)
        assert second.action == "add"
        apart = second.evidence["kept_apart"]
        assert {"id": first.id, "why": "subject"}.items() <= apart[0].items()
        assert me.get(first.id).current
    assert {f.triple.subject for f in me.triples()} == {"user", "parents", "爸妈"}


def test_a_name_and_the_relation_that_names_it_are_one_subject(me):  # type: ignore[no-untyped-def]
    for old, new, subject in (("My sister Anna lives in Lisbon.", "Anna lives in Porto now.",
                               "anna"), ("我妹妹小美住在杭州。", "小美现在住在上海。", "小美")):
        first, second = me.remember(old).memory, me.remember(new).memory
        found = {f.memory_id: f.triple.subject for f in me.triples()}
        assert subject in found[first.id] and found[second.id] == subject
    for old, new in (("My sister's cat is called Tom.", "My cat is called Rex."),  # the cat's
                     ("Priya's sister lives in Pune.", "Priya lives in Delhi."),   # a possessor
                     ("小丽的妹妹住在杭州。", "小丽住在成都。")):
        first = me.remember(old).memory
        assert me.remember(new).action == "add" and me.get(first.id).current, new


def test_another_mood_is_kept_apart(me):  # type: ignore[no-untyped-def]
    home = me.remember("我住在北京。").memory
    plan = me.remember("我明年可能搬去深圳。")
    assert plan.action == "add" and plan.evidence["kept_apart"][0]["why"] == "mood"
    assert me.get(home.id).current


def test_a_value_marked_former_supersedes(me):  # type: ignore[no-untyped-def]
    for old, new, went in (
            ("The quarterly review is in room Everest.",
             "Actually it's in room Kilimanjaro, not Everest.", "everest"),
            ("We track bugs in Jira.", "The team switched from Jira to Linear.", "jira"),
            # the words each statement opens with are no subject of either ("coach",
            # "Wednesdays"): not two things, so the correction reaches the old value
            ("Our coach moved practice to Tuesdays at 6pm.",
             "Actually it's Wednesdays at 6pm we train, not Tuesdays.", "tuesdays"),
            ("我周五去厦门的航班早上6点40起飞。", "航班是8点40，不是6点40。", "6 点 40")):
        first = me.remember(old).memory
        r = me.remember(new)
        assert (r.action, r.rule) == ("supersede", "triple_former_value"), new
        assert r.evidence["old_id"] == first.id and went in r.evidence["former"]
        assert not me.get(first.id).current


def test_a_changed_object_of_one_subject_and_predicate_supersedes(me):  # type: ignore[no-untyped-def]
    for old, new in (("Our staging cluster runs Postgres 15.", "Our staging cluster runs Redis 7."),
                     ("我们的测试服务器跑在 CentOS 7 上。", "我们的测试服务器跑在 Ubuntu 22 上。")):
        first = me.remember(old).memory
        r = me.remember(new)
        assert r.action == "supersede" and r.evidence["old_id"] == first.id
        now = [f.triple.object for f in me.triples() if f.memory_id in (first.id, r.memory.id)]
        assert now == [read_triples(new, Kind.FACT)[0].object]
        was = me.triples(first.id, current=False)
        assert [f.current for f in was] == [False]


def test_entity_page_lists_its_facts_triples(me):  # type: ignore[no-untyped-def]
    me.remember("Ines Duarte lives in Lisbon.", people=["Ines Duarte"])
    me.remember("Ines Duarte works at Feedzai.", people=["Ines Duarte"])
    page = me.entity("Ines Duarte").to_dict()
    assert {(t["subject"], t["predicate"], t["object"]) for t in page["triples"]} == {
        ("ines duarte", "live in", "Lisbon"), ("ines duarte", "work at", "Feedzai")}


def test_export_and_import_keep_them(mem, tmp_path):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    me.remember("I live in Hangzhou.")
    me.remember("我爸妈住在绍兴。")
    out = io.StringIO()
    mem.export(out, user="alice", agent="noah")
    lines = [line for line in out.getvalue().splitlines() if '"triples"' in line]
    assert len(lines) == 2 and '"subject": "user"' in "".join(lines)
    with engramdb.open(tmp_path / "copy.db", embedder="hashing") as other:
        other.import_(io.StringIO(out.getvalue()))
        back = other.scope(user="alice", agent="noah")
        assert sorted(tuple(f.triple) for f in back.triples()) == sorted(
            tuple(f.triple) for f in me.triples())


def test_bad_input(me):  # type: ignore[no-untyped-def]
    me.remember("I live in Hangzhou.")
    for kwargs in ({"subject": ""}, {"subject": 5}, {"predicate": "x" * 201},
                   {"limit": 0}, {"limit": 1001}, {"limit": "3"}, {"limit": True},
                   {"current": "yes"}):
        with pytest.raises(Invalid):
            me.triples(**kwargs)
    with pytest.raises(NotFound):
        me.triples("01NOSUCHMEMORY0000000000000")
    with pytest.raises(Invalid):
        me.triples("")


@pytest.mark.sqlite_only
def test_sqlite_store_fills_the_table_on_upgrade(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "old.db"
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        mem.scope(user="alice", agent="noah").remember("I live in Hangzhou.")
    db = sqlite3.connect(path)   # the file as migration 15 left it
    db.execute("DROP TABLE triples")
    db.execute("DELETE FROM schema_migrations WHERE version = 16")
    db.commit()
    db.close()
    with engramdb.open(path, embedder="hashing", clock=clock) as mem:
        found = mem.scope(user="alice", agent="noah").triples()
        assert [tuple(f.triple) for f in found] == [("user", "live in", "Hangzhou")]


@pytest.mark.sqlite_only
def test_postgres_store_fills_the_table_on_upgrade(pg_url, clock):  # type: ignore[no-untyped-def]
    import psycopg

    with engramdb.open(pg_url, embedder="hashing", clock=clock) as mem:
        mem.scope(user="alice", agent="noah").remember("我爸妈住在绍兴。")
    with psycopg.connect(pg_url, autocommit=True) as conn:   # as migration 15 left it
        conn.execute("DROP TABLE triples")
        conn.execute("DELETE FROM schema_migrations WHERE version = 16")
    with engramdb.open(pg_url, embedder="hashing", clock=clock) as mem:
        found = mem.scope(user="alice", agent="noah").triples()
        assert [tuple(f.triple) for f in found] == [("爸妈", "住在", "绍兴")]


@pytest.mark.sqlite_only
def test_http_route(mem):  # type: ignore[no-untyped-def]
    me = mem.scope(user="alice", agent="noah")
    home = me.remember("I live in Hangzhou.").memory
    me.remember("我爸妈住在绍兴。")
    key = new_key(mem, "read")
    with thread_server(mem) as base, httpx.Client(base_url=base, headers=auth(key),
                                                  timeout=30) as api:
        got = api.get("/v1/triples", params={"subject": "user"}).json()["triples"]
        assert [(t["memory_id"], t["object"]) for t in got] == [(home.id, "Hangzhou")]
        got = api.get("/v1/triples", params={"memory_id": home.id}).json()["triples"]
        assert got[0]["predicate"] == "live in"
        error(api.get("/v1/triples", params={"limit": 0}), 422, "invalid")
        error(api.get("/v1/triples", params={"memory_id": "01NOSUCH"}), 404, "not_found")


def test_numbered_notes_of_one_shape_each_stay(me):  # type: ignore[no-untyped-def]
    """Same subject and frame, another value, is no update by itself: a batch of notes keeps
    every one (a rule that superseded on it made 200 notes one)."""
    results = me.remember_many([engramdb.Draft(content=f"Note number {i} about topic{i}",
                                               kind="fact") for i in range(20)])
    assert [r.action for r in results] == ["add"] * 20
    zh = me.remember_many([engramdb.Draft(content=f"第{i}号笔记讲的是主题{i}", kind="fact")
                           for i in range(1, 6)])
    assert [r.action for r in zh] == ["add"] * 5


@pytest.mark.sqlite_only
def test_a_former_word_held_by_too_many_is_not_searched(mem, clock, monkeypatch):  # type: ignore[no-untyped-def]
    from engramdb.model import Scope
    from engramdb.write import supersede
    from engramdb.write.prepare import build_record

    me = mem.scope(user="alice", agent="noah")
    held = [me.remember(f"Jira ticket {n} was closed on {day}", kind="event").memory.id
            for n, day in ((1, "Monday"), (2, "Tuesday"), (3, "Friday"))]
    draft = engramdb.Draft(content="The team switched from Jira to Linear.", kind="fact")
    rec = build_record(draft, Scope("alice", "noah"), "probe", clock.now(), 10_000)
    with mem.store.transaction():   # as in a write: the postings step aside, SQL counts
        monkeypatch.setattr(supersede, "FORMER_WORD_CAP", 3)
        assert sorted(supersede._structural_candidates(mem.store, rec)) == sorted(held)
        monkeypatch.setattr(supersede, "FORMER_WORD_CAP", 2)
        assert supersede._structural_candidates(mem.store, rec) == []
    monkeypatch.setattr(supersede, "FORMER_WORD_CAP", 3)
    assert sorted(supersede._structural_candidates(mem.store, rec)) == sorted(held)

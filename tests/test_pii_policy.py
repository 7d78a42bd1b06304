"""The PII policy of the write path (write/privacy.py), on each store: "mask" keeps the value out
of the stored text, the text index and the vector, in a table a hard forget erases; "refuse"
writes nothing and never echoes the value; per-scope overrides; reveal=True gives the values
back (get, recall, export)."""

from __future__ import annotations

import io
import json
import re

import pytest

import engramdb
from engramdb import Draft, Invalid
from engramdb.model import Layer, Scope
from engramdb.store.protocol import ListFilter

BACKENDS = ("sqlite", "postgres")
EMAIL, MOBILE, CARD = "wang.fang@example.cn", "13987654321", "4111 1111 1111 1111"
TOKEN = re.compile(r"\[([a-z_]+)#[0-9a-f]{12}\]")


def shape(text: str) -> str:
    """The text with each masked value's keyed token left out: "[email]"."""
    return TOKEN.sub(r"[\1]", text)


@pytest.fixture
def pmem(tmp_path, clock, backend, request):  # type: ignore[no-untyped-def]
    target = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "m.db"
    with engramdb.open(target, embedder="hashing", clock=clock, pii="mask",
                       pii_scopes="bob=refuse, carol=keep, carol/strict=refuse") as m:
        yield m


def all_text(m, user, agent="default"):  # type: ignore[no-untyped-def]
    """Everything a reader without reveal can get: every layer's records and their events."""
    scope = Scope(user, agent)
    recs = list(m.store.list(scope, ListFilter(layers=tuple(Layer))))
    events = [e for r in recs for e in m.store.events(scope, r.id)]
    buf = io.StringIO()
    m.export(buf, user=user, agent=agent)
    return json.dumps([r.to_dict() for r in recs], ensure_ascii=False) + \
        repr(events) + buf.getvalue()


def test_mask_stores_placeholders_and_keeps_values_apart(pmem):  # type: ignore[no-untyped-def]
    r = pmem.remember(f"王芳的邮箱是{EMAIL}，手机{MOBILE}", user="alice",
                      context=f"she said her card is {CARD}")
    assert shape(r.memory.content) == "王芳的邮箱是[email]，手机[cn_mobile]"
    assert shape(r.memory.context) == "she said her card is [card]"
    assert r.evidence["pii"] == {"policy": "mask", "found": {"card": 1, "cn_mobile": 1,
                                                             "email": 1}}
    text = all_text(pmem, "alice")
    assert EMAIL not in text and MOBILE not in text and CARD not in text
    got = pmem.get(r.memory.id, user="alice", reveal=True)
    assert got.content == f"王芳的邮箱是{EMAIL}，手机{MOBILE}"
    assert got.context == f"she said her card is {CARD}"
    assert pmem.get(r.memory.id, user="alice").content == r.memory.content


def test_a_masked_value_is_not_searchable(pmem):  # type: ignore[no-untyped-def]
    pmem.remember_many([Draft(f"note {i} about the garden") for i in range(5)], user="alice")
    r = pmem.remember("Reach Olek at olek.nowak@poczta.example or +48 22 123 45 67",
                      user="alice")
    scope = r.memory.scope
    for word in ("olek.nowak", "poczta", "nowak", "123", "45", "67"):
        assert pmem.store.search_text(scope, [word], {"body": 1.0, "context": 1.0}, 10,
                                      [Layer.CORE]) == []
    hits = pmem.recall("olek.nowak@poczta.example", user="alice", k=10)
    assert all("poczta" not in h.memory.content for h in hits)
    revealed = pmem.recall("Reach Olek", user="alice", k=10, reveal=True)
    assert any("olek.nowak@poczta.example" in h.memory.content for h in revealed)


def test_export_reveals_only_when_asked(pmem):  # type: ignore[no-untyped-def]
    pmem.remember(f"card on file {CARD}", user="alice")
    plain, shown = io.StringIO(), io.StringIO()
    pmem.export(plain, user="alice")
    pmem.export(shown, user="alice", reveal=True)
    assert CARD not in plain.getvalue() and "[card]" in shape(plain.getvalue())
    assert CARD in shown.getvalue()


def test_forget_hard_erases_the_values(pmem):  # type: ignore[no-untyped-def]
    r = pmem.remember(f"my number is {MOBILE}", user="alice")
    other = pmem.remember(f"backup mail {EMAIL}", user="alice")
    scope = r.memory.scope
    assert [*pmem.store.pii_values(scope, [r.memory.id])[r.memory.id].values()] == [MOBILE]
    pmem.forget(r.memory.id, user="alice")                  # soft: still there to restore
    assert pmem.store.pii_values(scope, [r.memory.id])
    pmem.forget(r.memory.id, user="alice", hard=True)
    assert pmem.store.pii_values(scope, [r.memory.id]) == {}
    assert pmem.store.pii_values(scope, [other.memory.id])  # the other memory keeps its own
    pmem.forget_scope(user="alice")
    assert pmem.store.pii_values(scope, [other.memory.id]) == {}


@pytest.mark.sqlite_only
def test_forget_hard_leaves_no_row_in_the_file(tmp_path, clock):  # type: ignore[no-untyped-def]
    import sqlite3

    path = tmp_path / "m.db"
    with engramdb.open(path, embedder="hashing", clock=clock, pii="mask") as m:
        r = m.remember(f"IBAN GB82 WEST 1234 5698 7654 32 and {EMAIL}")
        m.forget(r.memory.id, hard=True)
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM pii_values WHERE memory_id != 'pii:key'"
                      ).fetchone()[0] == 0   # the scope's token key is no personal data
    db.close()
    assert b"wang.fang" not in path.read_bytes()


def test_refuse_names_the_kinds_writes_nothing_and_echoes_no_value(pmem):  # type: ignore[no-untyped-def]
    bob = pmem.scope(user="bob")
    bob.remember("a harmless first memory")
    before = (bob.count(), pmem.store.event_count(Scope("bob", "default")))
    with pytest.raises(Invalid) as err:
        bob.remember(f"卡号 {CARD}, 邮箱 {EMAIL}")
    message = str(err.value)
    assert "payment card" in message and "e-mail" in message
    assert CARD not in message and EMAIL not in message and "4111" not in message
    with pytest.raises(Invalid):
        bob.remember_many([Draft("fine text"), Draft(f"call {MOBILE}")])
    with pytest.raises(Invalid):
        bob.ingest([{"role": "user", "content": "我住在上海"},
                    {"role": "user", "content": f"我的手机号是{MOBILE}"}])
    with pytest.raises(Invalid, match="e-mail"):   # refused whole, extracted from or not
        bob.ingest([{"role": "user", "content": "I live in Lyon"},
                    {"role": "assistant", "content": f"noted, and {EMAIL}?"}])
    assert (bob.count(), pmem.store.event_count(Scope("bob", "default"))) == before
    skipped = bob.remember_many([Draft("ok text here"), Draft(f"mail {EMAIL}")],
                                on_error="skip")
    assert [r.action.value for r in skipped] == ["add", "reject"]
    assert EMAIL not in skipped[1].evidence["error"]


def test_per_scope_overrides(pmem):  # type: ignore[no-untyped-def]
    kept = pmem.remember(f"mail {EMAIL}", user="carol")        # carol: keep
    assert kept.memory.content == f"mail {EMAIL}" and "pii" not in kept.evidence
    with pytest.raises(Invalid):                              # carol/strict: refuse
        pmem.remember(f"mail {EMAIL}", user="carol", agent="strict")
    masked = pmem.remember(f"mail {EMAIL}", user="dave")       # the default: mask
    assert shape(masked.memory.content) == "mail [email]"
    clean = pmem.remember("nothing personal here", user="dave")
    assert clean.evidence["pii"] == {"policy": "mask", "found": {}}


def test_update_and_a_new_value_under_the_same_words(pmem):  # type: ignore[no-untyped-def]
    me = pmem.scope(user="alice")
    r = me.remember("my work email is a.one@corp.example", uri="core://contact/email")
    again = me.remember("my work email is b.two@corp.example", uri="core://contact/email")
    assert shape(again.memory.content) == "my work email is [email]"
    assert me.get("core://contact/email", reveal=True).content.endswith("b.two@corp.example")
    same = me.remember("my work email is c.three@corp.example")
    assert me.get(same.memory.id, reveal=True).content.endswith("c.three@corp.example")
    new = me.update(r.memory.id, content="write to d.four@corp.example or 13512345678")
    assert shape(new.content) == "write to [email] or [cn_mobile]"
    assert me.get(r.memory.id, reveal=True).content == \
        "write to d.four@corp.example or 13512345678"


def test_ingest_masks_turns_and_extracted_facts(pmem):  # type: ignore[no-untyped-def]
    report = pmem.ingest([{"role": "user", "content": f"My email is {EMAIL} by the way."},
                          {"role": "user", "content": f"我的手机号是{MOBILE}。"}], user="erin")
    assert report.events and all(TOKEN.search(e.memory.content) for e in report.events)
    assert EMAIL not in all_text(pmem, "erin") and MOBILE not in all_text(pmem, "erin")


def test_a_snapshot_restore_keeps_the_masked_values(pmem, tmp_path):  # type: ignore[no-untyped-def]
    me = pmem.scope(user="alice")
    r = me.remember(f"pay to GB82 WEST 1234 5698 7654 32, mail {EMAIL}")
    snap = tmp_path / "alice.jsonl"
    me.snapshot(str(snap))
    me.update(r.memory.id, content="pay to nobody")
    assert pmem.store.pii_values(r.memory.scope, [r.memory.id]) == {}
    me.restore_snapshot(str(snap))
    assert me.get(r.memory.id, reveal=True).content == \
        f"pay to GB82 WEST 1234 5698 7654 32, mail {EMAIL}"
    assert shape(me.get(r.memory.id).content) == "pay to [iban], mail [email]"


@pytest.mark.sqlite_only
def test_a_long_ingested_message_keeps_no_value_in_its_blob(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    long = ("Server log line with nothing personal in it. " * 40 + "\n") * 40
    with engramdb.open(path, embedder="hashing", clock=clock, pii="mask",
                       max_content_bytes=4096) as m:
        report = m.ingest([{"role": "user", "content": f"{long} contact {EMAIL} {long}"}],
                          session="s1")
        assert report.offloaded_turns == 1
        event = report.events[0].memory
        whole = m.session("s1", create=False).fetch(event.metadata["offloaded"])
        assert EMAIL not in str(whole) and "[email#1]" in str(whole)
        assert EMAIL not in all_text(m, "default")


def raw_export(tmp_path, clock, user: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """An export made where the policy was "keep" (the default): values as written, in the
    memory and in the earlier version its log holds. Returns (the file's text, the id)."""
    with engramdb.open(tmp_path / f"keep-{user}.db", embedder="hashing", clock=clock) as keep:
        r = keep.remember(f"Write to Olek at {EMAIL}", user=user)
        keep.update(r.memory.id, content=f"Write to Olek at {EMAIL} or call {MOBILE}",
                    user=user)
        buf = io.StringIO()
        keep.export(buf, user=user)
    assert EMAIL in buf.getvalue()
    return buf.getvalue(), r.memory.id


def test_an_import_is_masked_in_the_memory_and_its_log(pmem, tmp_path, clock):  # type: ignore[no-untyped-def]
    text, mid = raw_export(tmp_path, clock, "alice")
    assert pmem.import_(io.StringIO(text))["imported"] == 1
    scope = Scope("alice", "default")
    got = pmem.get(mid, user="alice")
    assert shape(got.content) == "Write to Olek at [email] or call [cn_mobile]"
    stored = all_text(pmem, "alice")
    assert EMAIL not in stored and MOBILE not in stored  # nor in the earlier version's snapshot
    assert pmem.get(mid, user="alice", reveal=True).content == \
        f"Write to Olek at {EMAIL} or call {MOBILE}"
    assert [h.memory.id for h in pmem.recall("Olek", user="alice")] == [mid]
    for word in ("wang.fang", "example.cn", "13987654321"):   # not in the text index
        assert pmem.store.search_text(scope, [word], {"body": 1.0, "context": 1.0}, 10,
                                      [Layer.CORE]) == []
    pmem.forget(mid, user="alice", hard=True)
    assert pmem.store.pii_values(scope, [mid]) == {}


def test_an_import_under_refuse_is_refused_whole(pmem, tmp_path, clock):  # type: ignore[no-untyped-def]
    text, _ = raw_export(tmp_path, clock, "bob")
    with pytest.raises(Invalid) as err:
        pmem.import_(io.StringIO(text))
    assert "e-mail" in str(err.value) or "email" in str(err.value)
    assert EMAIL not in str(err.value) and MOBILE not in str(err.value)
    assert pmem.count(user="bob") == 0


def test_a_snapshot_restore_under_refuse_changes_nothing(pmem, tmp_path, clock):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "keep.db", embedder="hashing", clock=clock) as keep:
        keep.remember(f"mail {EMAIL}", user="bob")
        keep.snapshot(str(tmp_path / "bob.jsonl"), user="bob")
    before = pmem.remember("Bob plays the cello", user="bob").memory
    with pytest.raises(Invalid):
        pmem.restore_snapshot(str(tmp_path / "bob.jsonl"), user="bob")
    assert [r.id for r in pmem.list(user="bob")] == [before.id]


def test_a_working_session_masks_its_turns_and_hands_the_values_over(pmem):  # type: ignore[no-untyped-def]
    s = pmem.session("call-1", user="alice")
    s.add("user", f"My e-mail is {EMAIL}")
    s.add("assistant", "Noted.")
    s.add("user", f"and again, {EMAIL}; mobile {MOBILE}")
    scope = Scope("alice", "default")
    assert [t.content for t in s.turns()][0] == "My e-mail is [email#1]"
    assert s.turns()[2].content == "and again, [email#1]; mobile [cn_mobile#1]"
    again = pmem.session("call-1", user="alice", create=False)   # as stored
    stored = " ".join(t.content for t in again.turns()) + again.to_prompt()
    assert EMAIL not in stored and MOBILE not in stored
    handover = s.end()
    assert handover.ingested is not None and handover.ingested.events
    assert EMAIL not in all_text(pmem, "alice") and MOBILE not in all_text(pmem, "alice")
    first = handover.ingested.events[0].memory
    assert EMAIL in pmem.get(first.id, user="alice", reveal=True).content
    assert pmem.store.pii_values(scope, ["session:call-1"]) == {}   # kept long-term only


def test_a_working_session_under_refuse_refuses_the_turn(pmem):  # type: ignore[no-untyped-def]
    s = pmem.session("call-2", user="bob")
    s.add("user", "hello")
    with pytest.raises(Invalid) as err:
        s.add("user", f"我的手机是{MOBILE}")
    assert MOBILE not in str(err.value)
    assert [t.content for t in pmem.session("call-2", user="bob", create=False).turns()] == \
        ["hello"]

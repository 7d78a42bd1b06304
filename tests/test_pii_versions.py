"""Masked values keep their history (issue 29): under pii="mask" a placeholder is a keyed hash
of its value (write/privacy.py), so a changed phone number is a changed text: the same writes
give the same actions as under "keep" (update, supersede, noop), the old value stays revealable,
and nothing stored shows either value. URIs are masked too and found by the URI as written."""

from __future__ import annotations

import io
import json
import re

import pytest

import engramdb
from engramdb import Invalid
from engramdb.model import Layer, Scope
from engramdb.store.protocol import ListFilter

BACKENDS = ("sqlite", "postgres")
OLD, NEW = "13812345678", "13987654321"
URI_TOKEN = re.compile(r"~(email|cn_mobile|phone|ssn)~[0-9a-f]{12}")
WRITES = {  # (first, second) text: a changed phone number, in English and in Chinese
    "en": (f"Jane's phone is {OLD}", f"Jane's phone is {NEW}"),
    "zh": (f"王芳的手机号是{OLD}", f"王芳的手机号是{NEW}"),
}


def open_mem(target, clock, pii: str):  # type: ignore[no-untyped-def]
    return engramdb.open(target, embedder="hashing", clock=clock, pii=pii,
                         pii_scopes="bob=refuse")


@pytest.fixture
def target(tmp_path, backend, request):  # type: ignore[no-untyped-def]
    return request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "m.db"


def stored(m, user):  # type: ignore[no-untyped-def]
    """Everything a reader without reveal gets: every record, every event, the export."""
    scope = Scope(user, "default")
    recs = list(m.store.list(scope, ListFilter(layers=tuple(Layer))))
    buf = io.StringIO()
    m.export(buf, user=user)
    return (json.dumps([r.to_dict() for r in recs], ensure_ascii=False)
            + repr([e for r in recs for e in m.store.events(scope, r.id)]) + buf.getvalue())


def two_writes(m, clock, user, lang, uri):  # type: ignore[no-untyped-def]
    first, second = WRITES[lang]
    a = m.remember(first, uri=uri, user=user)
    clock.advance(days=1)
    return a, m.remember(second, uri=uri, user=user)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("uri", ["core://contacts/jane", None])
def test_a_changed_value_acts_as_under_keep(target, clock, lang, uri):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "keep") as m:
        a, b = two_writes(m, clock, "kept", lang, uri)
        kept = (b.action, b.rule, [v.memory.content for v in m.history(b.memory.id,
                                                                          user="kept")])
    with open_mem(target, clock, "mask") as m:
        a, b = two_writes(m, clock, "masked", lang, uri)
        assert (b.action, b.rule) == kept[:2]
        assert len(m.history(b.memory.id, user="masked")) == len(kept[2])
        shown = [v.memory.content for v in m.history(b.memory.id, user="masked", reveal=True)]
        assert shown == kept[2]   # the same versions, their values revealed
        assert b.action.value in ("update", "supersede")
        assert shown[0] == WRITES[lang][0] and shown[-1] == WRITES[lang][1]
        text = stored(m, "masked")
        assert OLD not in text and NEW not in text
        assert all(OLD not in v.memory.content and NEW not in v.memory.content
                   for v in m.history(b.memory.id, user="masked"))
        assert m.get(b.memory.id, user="masked", reveal=True).content == WRITES[lang][1]
        if b.action.value == "supersede":   # the old value stays its own memory, revealable
            assert m.get(a.memory.id, user="masked", reveal=True).content == WRITES[lang][0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_value_again_is_still_a_duplicate(target, clock, lang):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        first = m.remember(WRITES[lang][0], user="alice")
        again = m.remember(WRITES[lang][0], user="alice")
        assert (again.action.value, again.rule) == ("noop", "exact_duplicate")
        at_uri = m.remember(WRITES[lang][0], uri="core://contacts/wang", user="alice")
        same = m.remember(WRITES[lang][0], uri="core://contacts/wang", user="alice")
        assert (same.action.value, same.rule) == ("noop", "same_uri_same_content")
        assert m.get(first.memory.id, user="alice", reveal=True).content == WRITES[lang][0]
        assert m.get(at_uri.memory.id, user="alice", reveal=True).content == WRITES[lang][0]


def test_one_value_however_written_is_one_placeholder(target, clock):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        a = m.remember("Write to Jane at jane@example.com about the lease", user="alice")
        b = m.remember("Reach Jane at jane at example dot com for the keys", user="alice")
        c = m.remember("Reach Tom at tom (at) example (dot) com for the keys", user="alice")
        tokens = [re.findall(r"\[email#[0-9a-f]{12}\]", r.memory.content) for r in (a, b, c)]
        assert tokens[0] == tokens[1] != tokens[2] and all(len(t) == 1 for t in tokens)
        assert m.get(b.memory.id, user="alice", reveal=True).content == \
            "Reach Jane at jane at example dot com for the keys"
        ssn = m.remember("My SSN is 123-45-6789, 身份证号另存", user="alice")
        assert re.fullmatch(r"My SSN is \[ssn#[0-9a-f]{12}\], 身份证号另存", ssn.memory.content)
        assert "123-45-6789" not in stored(m, "alice") and "example dot com" not in \
            stored(m, "alice")


@pytest.mark.parametrize(("uri", "value"), [
    ("core://contacts/jane.doe@example.com", "jane.doe@example.com"),
    (f"core://联系人/王芳/{OLD}", OLD),
])
def test_a_uri_is_masked_and_found_as_written(target, clock, uri, value):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        me = m.scope(user="alice")
        r = me.remember("Jane prefers e-mail over calls; 王芳喜欢发邮件", uri=uri)
        assert value not in r.memory.uri and URI_TOKEN.search(r.memory.uri)
        assert value not in stored(m, "alice") and "pii:key" not in stored(m, "alice")
        for address in (uri, r.memory.uri):   # as written, and as stored
            assert me.get(address).id == r.memory.id
            assert me.get(address, reveal=True).uri == uri
        assert me.history(uri, reveal=True)[-1].memory.uri == uri
        updated = me.remember("Jane prefers calls now; 王芳现在喜欢打电话", uri=uri)
        assert (updated.action.value, updated.memory.id) == ("update", r.memory.id)
        other = me.remember("Tom prefers calls", uri=uri.replace("jane.doe", "tom").replace(
            OLD, NEW))
        assert other.action.value == "add" and other.memory.uri != r.memory.uri
        shown = io.StringIO()
        m.export(shown, user="alice", reveal=True)
        assert uri in shown.getvalue()


def test_a_prefix_holding_a_whole_value_lists_what_is_under_it(target, clock):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        me = m.scope(user="alice")
        base = "core://contacts/jane.doe@example.com/"
        me.remember("Jane lives in Lyon", uri=base + "city")
        me.remember("Jane works at the bakery", uri=base + "work")
        me.remember("Tom lives in Paris", uri="core://contacts/tom@example.com/city")
        assert sorted(r.content for r in me.list(uri_prefix=base)) == \
            ["Jane lives in Lyon", "Jane works at the bakery"]
        assert me.count(uri_prefix=base) == 2
        assert [h.memory.content for h in me.recall("where does Jane live", uri_prefix=base,
                                                    k=1)] == ["Jane lives in Lyon"]
        assert len(me.recall_path(base)) == 2
        assert me.recall_path(base + "city")[0].memory.content == "Jane lives in Lyon"
        assert me.count(uri_prefix="core://contacts/jane") == 0   # cut inside the value


def test_update_masks_a_new_uri_and_keeps_the_values_it_still_names(target, clock):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        me = m.scope(user="alice")
        r = me.remember(f"call Jane on {OLD}", uri="core://contacts/jane")
        moved = me.update(r.memory.id, uri="core://contacts/jane@example.com")
        assert "jane@example.com" not in moved.uri and URI_TOKEN.search(moved.uri)
        assert me.get("core://contacts/jane@example.com", reveal=True).content == \
            f"call Jane on {OLD}"
        me.update(r.memory.id, content=f"call Jane on {NEW}")
        got = me.get("core://contacts/jane@example.com", reveal=True)
        assert got.content == f"call Jane on {NEW}" and got.uri.endswith("jane@example.com")


def test_refuse_refuses_a_uri_with_personal_data(target, clock):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        bob = m.scope(user="bob")
        with pytest.raises(Invalid) as err:
            bob.remember("Jane's contact", uri="core://contacts/jane.doe@example.com")
        assert "e-mail" in str(err.value) and "jane.doe" not in str(err.value)
        r = bob.remember("Jane's contact", uri="core://contacts/jane")
        with pytest.raises(Invalid) as err:
            bob.update(r.memory.id, uri=f"core://contacts/{OLD}")
        assert OLD not in str(err.value)
        assert bob.count() == 1 and bob.get(r.memory.id).uri == "core://contacts/jane"


def test_an_import_masks_the_uri(target, clock, tmp_path):  # type: ignore[no-untyped-def]
    with open_mem(tmp_path / "keep.db", clock, "keep") as keep:
        r = keep.remember("Jane's contact card", uri="core://contacts/jane.doe@example.com")
        raw = io.StringIO()
        keep.export(raw)
    with open_mem(target, clock, "mask") as m:
        assert m.import_(io.StringIO(raw.getvalue()))["imported"] == 1
        got = m.get(r.memory.id)
        assert URI_TOKEN.search(got.uri) and "jane.doe" not in stored(m, "default")
        assert m.get("core://contacts/jane.doe@example.com").id == r.memory.id
        assert m.get(r.memory.id, reveal=True).uri == "core://contacts/jane.doe@example.com"


def test_a_restored_snapshot_keeps_its_tokens(target, clock, tmp_path):  # type: ignore[no-untyped-def]
    uri = "core://contacts/jane.doe@example.com"
    with open_mem(target, clock, "mask") as m:
        me = m.scope(user="alice")
        r = me.remember(f"Jane's phone is {OLD}", uri=uri)
        me.snapshot(str(tmp_path / "alice.jsonl"))
        me.forget_scope()
        me.restore_snapshot(str(tmp_path / "alice.jsonl"))
        assert me.get(uri).id == r.memory.id   # the URI as written still finds it
        again = me.remember(f"Jane's phone is {OLD}", uri=uri)
        assert (again.action.value, again.rule) == ("noop", "same_uri_same_content")
        assert me.remember(f"Jane's phone is {NEW}", uri=uri).action.value == "update"
    with open_mem(tmp_path / "keep.db", clock, "keep") as keep:   # values as written
        keep.remember(f"Tom's phone is {NEW}", uri="core://contacts/tom@example.com",
                      user="carl")
        keep.snapshot(str(tmp_path / "carl.jsonl"), user="carl")
    with open_mem(target, clock, "mask") as m:
        carl = m.scope(user="carl")
        carl.restore_snapshot(str(tmp_path / "carl.jsonl"))   # masked as it is restored
        assert NEW not in stored(m, "carl") and "tom@example.com" not in stored(m, "carl")
        assert carl.remember(f"Tom's phone is {NEW}", uri="core://contacts/tom@example.com"
                             ).action.value == "noop"


def test_a_bad_key_line_in_a_snapshot_is_refused(target, clock, tmp_path):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        me = m.scope(user="alice")
        me.remember(f"my phone is {OLD}")
        me.snapshot(str(tmp_path / "a.jsonl"))
        text = (tmp_path / "a.jsonl").read_text()
        assert '"memory_id": "pii:key"' in text
        for bad in ('{"key": "zz"}', '{"key": 1}', '{"key": "00", "other": "1"}'):
            broken = re.sub(r'("memory_id": "pii:key", "values": )\{[^}]*\}',
                            lambda m_, b=bad: m_.group(1) + b, text)
            (tmp_path / "b.jsonl").write_text(broken)
            with pytest.raises(Invalid, match="bad pii key line"):
                me.restore_snapshot(str(tmp_path / "b.jsonl"))
        assert me.count() == 1


@pytest.mark.parametrize("bad", ["yes", 1, None, [True]])
def test_history_reveal_must_be_a_bool(target, clock, bad):  # type: ignore[no-untyped-def]
    with open_mem(target, clock, "mask") as m:
        r = m.remember(f"my number is {OLD}")
        with pytest.raises(Invalid, match="reveal must be true or false"):
            m.history(r.memory.id, reveal=bad)


@pytest.mark.sqlite_only
def test_a_hard_forget_leaves_no_value_of_any_version(tmp_path, clock):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with open_mem(path, clock, "mask") as m:
        a, b = two_writes(m, clock, "default", "en", "core://contacts/jane.doe@example.com")
        assert b.action.value == "update"
        m.forget(b.memory.id, hard=True)
    data = path.read_bytes()
    assert OLD.encode() not in data and NEW.encode() not in data
    assert b"jane.doe" not in data

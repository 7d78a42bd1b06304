"""Issue 18: URIs with '.' or '..' segments, empty segments or control characters are refused
everywhere (library, CLI, HTTP), and rows stored with such URIs before are reported."""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Invalid
from engramdb.cli import app
from helpers import dump
from live_server import auth, new_key, thread_server

BAD = [
    ("core://../x", "'..'"), ("core://a/../b", "'..'"), ("core://./a", "'.'"),
    ("knowledge://用户/./名字", "'.'"), ("core://a//b", "empty segment"),
    ("core:///a", "empty segment"), ("core://a/b//", "empty segment"), ("core://", "empty"),
    ("core://a\nb", "control character"), ("core://a\n", "control character"),
    ("core://a\x00", "control character"), ("core://a\tb", "control character"),
    ("core://x\x7f", "control character"), ("core://名\x1b[31m", "control character"),
]
GOOD = ["core://user/name", "core://user/name/", "event://2026-02-20/trip", "core://a.b/c..d",
        "core://..a", "knowledge://用户/名字", "core://a/.hidden"]


@pytest.mark.parametrize(("uri", "why"), BAD)
def test_the_library_refuses_each_with_its_reason(mem, uri, why):  # type: ignore[no-untyped-def]
    before = dump(mem.store.location)
    with pytest.raises(Invalid, match=why.replace("[", r"\[")):
        mem.remember("I live in Berlin", uri=uri)
    with pytest.raises(Invalid):
        mem.get(uri)
    assert dump(mem.store.location) == before


@pytest.mark.parametrize("uri", GOOD)
def test_ordinary_uris_still_pass(mem, uri):  # type: ignore[no-untyped-def]
    rec = mem.remember("I live in Berlin", uri=uri).memory
    assert rec.uri == uri.removesuffix("/")
    assert mem.get(uri).id == rec.id


def test_update_and_the_prefix_readers_refuse_them_too(mem):  # type: ignore[no-untyped-def]
    rec = mem.remember("I live in Berlin", uri="core://home").memory
    with pytest.raises(Invalid, match="'..'"):
        mem.update(rec.id, uri="core://../home")
    for prefix in ("core://../", "core://a//", "core://a\n"):
        with pytest.raises(Invalid):
            list(mem.list(uri_prefix=prefix))
        with pytest.raises(Invalid):
            mem.recall_path(prefix)
    assert mem.get(rec.id).uri == "core://home"


@pytest.mark.parametrize("uri", ["core://../x", "core://a//b", "core://a\x01b"])
def test_the_cli_exits_non_zero(tmp_path, uri):  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    result = CliRunner().invoke(app, ["--db", db, "--create", "remember", "x", "--uri", uri],
                                env={"ENGRAMDB_EMBEDDER": "hashing"})
    assert result.exit_code == 4, result.output
    assert result.stderr.startswith("error: ") and "uri" in result.stderr
    with engramdb.open(db, embedder="hashing") as mem:
        assert mem.count() == 0


def test_http_answers_422(mem):  # type: ignore[no-untyped-def]
    key = new_key(mem, "write")
    with thread_server(mem) as base, httpx.Client(base_url=base, headers=auth(key)) as api:
        for uri in ("core://../x", "core://a//b", "core://a\nb"):
            r = api.post("/v1/memories", json={"content": "I live in Berlin", "uri": uri})
            assert r.status_code == 422, r.text
            assert r.json()["error"]["code"] == "invalid" and "uri" in r.json()["error"]["message"]
            r = api.get("/v1/memories/by-uri", params={"uri": uri})
            assert r.status_code == 422, r.text
    assert mem.count(user="alice", agent="noah") == 0


def test_check_lists_the_rows_stored_before(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "old.db"
    with engramdb.open(path, embedder="hashing") as mem:
        ok = mem.remember("fine", uri="core://fine").memory
        dots = mem.remember("dots", uri="core://placeholder1").memory
        ctrl = mem.remember("我住在柏林", uri="core://placeholder2", user="bob").memory
        assert mem.check_uris(all_scopes=True) == []
    db = sqlite3.connect(path)   # as an older engramdb stored them
    db.execute("UPDATE memories SET uri = 'core://../etc' WHERE id = ?", (dots.id,))
    db.execute("UPDATE memories SET uri = 'core://a\nb' WHERE id = ?", (ctrl.id,))
    db.commit()
    db.close()
    with engramdb.open(path, embedder="hashing") as mem:
        found = mem.check_uris(all_scopes=True)
        assert {(b.id, b.uri) for b in found} == {(dots.id, "core://../etc"),
                                                   (ctrl.id, "core://a\nb")}
        assert all(b.id != ok.id for b in found)
        assert [b.problem for b in mem.check_uris()] == ["'.' and '..' segments are not allowed"]
        assert [b.id for b in mem.check_uris(user="bob")] == [ctrl.id]
        assert found[0].to_dict()["layer"] == "core"

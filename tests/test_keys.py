"""API keys: stored hashed beside the memories, bound to a scope and a role, revocable; and
the `engramdb keys` commands."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest
from typer.testing import CliRunner

import engramdb
from engramdb import Invalid, NotFound
from engramdb.cli import app
from engramdb.keys import SECRET_PREFIX, Forbidden, Keys, Unauthorized, hash_secret
from engramdb.model import Role, Scope
from engramdb.store.sqlite.migrations import MIGRATIONS


def test_a_secret_is_shown_once_and_stored_only_as_its_hash(mem):  # type: ignore[no-untyped-def]
    key, secret = Keys(mem).create(user="alice", agent="noah", role="write", name="笔记本")
    assert secret.startswith(SECRET_PREFIX) and len(secret) >= 40
    db = sqlite3.connect(mem.store.location)
    rows = db.execute("SELECT * FROM api_keys").fetchall()
    whole = open(mem.store.location, "rb").read()
    db.close()
    assert len(rows) == 1 and hash_secret(secret) in rows[0]
    assert secret not in repr(rows) and secret.encode() not in whole
    assert Keys(mem).authenticate(secret) == key
    assert (key.user, key.agent, key.role, key.name) == ("alice", "noah", Role.WRITE, "笔记本")


def test_every_key_is_different(mem):  # type: ignore[no-untyped-def]
    made = [Keys(mem).create(role="read") for _ in range(20)]
    assert len({k.id for k, _ in made}) == 20 and len({s for _, s in made}) == 20


def test_keys_outlive_the_process(tmp_path):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        key, secret = Keys(mem).create(user="alice", role="admin")
    with engramdb.open(tmp_path / "m.db", embedder="hashing") as mem:
        assert Keys(mem).authenticate(secret) == key


def test_unknown_and_revoked_keys_are_unauthorized(mem, clock):  # type: ignore[no-untyped-def]
    key, secret = Keys(mem).create(role="write")
    for bad in (None, "", "edb_nope", secret[:-1], secret + "x", "x" * 10000, "edb_\ud800"):
        with pytest.raises(Unauthorized):
            Keys(mem).authenticate(bad)
    clock.advance(days=2)
    revoked = Keys(mem).revoke(key.id)
    assert revoked.revoked_at == clock.now() and not revoked.active
    with pytest.raises(Unauthorized, match="revoked"):
        Keys(mem).authenticate(secret)
    clock.advance(days=1)
    assert Keys(mem).revoke(key.id).revoked_at == clock.now() - timedelta(days=1)
    with pytest.raises(NotFound):
        Keys(mem).revoke("knope")


def test_a_grant_checks_role_then_scope(mem):  # type: ignore[no-untyped-def]
    keys = Keys(mem)
    _, read = keys.create(user="alice", agent="noah", role="read")
    _, write = keys.create(user="alice", agent="noah", role="write")
    _, admin = keys.create(user="ops", agent="noah", role="admin")
    assert keys.grant(read, Role.READ).scope == Scope("alice", "noah")
    assert keys.grant(read, Role.READ, user="alice", agent="noah").scope == Scope("alice", "noah")
    with pytest.raises(Forbidden, match="needs write"):
        keys.grant(read, Role.WRITE)
    assert keys.grant(write, Role.WRITE).scope == Scope("alice", "noah")
    with pytest.raises(Forbidden, match="needs admin"):
        keys.grant(write, Role.ADMIN)
    for other in ({"user": "bob"}, {"agent": "x"}, {"user": "bob", "agent": "noah"}):
        with pytest.raises(Forbidden, match="bound to user=alice"):
            keys.grant(write, Role.READ, **other)
    assert keys.grant(admin, Role.WRITE, user="bob").scope == Scope("bob", "noah")
    assert keys.grant(admin, Role.ADMIN).scope == Scope("ops", "noah")
    with pytest.raises(Invalid):
        keys.grant(admin, Role.READ, user="")
    with pytest.raises(Unauthorized):  # the key is checked before anything else
        keys.grant("edb_wrong", Role.READ, user="bob")


def test_bad_roles_names_and_scopes_are_invalid(mem):  # type: ignore[no-untyped-def]
    for kwargs in ({"role": "owner"}, {"role": "write", "name": "x" * 201},
                   {"role": "read", "user": ""}, {"role": "read", "agent": " "},
                   {"role": "read", "name": 5}):
        with pytest.raises(Invalid):
            Keys(mem).create(**kwargs)
    assert Keys(mem).list() == []


def test_keys_are_listed_all_or_by_scope(mem):  # type: ignore[no-untyped-def]
    a, _ = Keys(mem).create(user="alice", agent="noah", role="read")
    b, _ = Keys(mem).create(user="bob", agent="noah", role="write")
    assert Keys(mem).list() == [a, b]
    assert Keys(mem).list(user="bob", agent="noah") == [b]


def test_keys_are_migration_7():  # type: ignore[no-untyped-def]
    seven = [m for m in MIGRATIONS if m.version == 7]
    assert len(seven) == 1 and seven[0].name == "api_keys"


# ---------------------------------------------------------------- the commands


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_keys_commands_create_list_revoke(tmp_path):  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    base = ["--db", db, "--embedder", "hashing"]
    assert run("init", *base)[0] == 0
    code, out, err = run("keys", "create", "--role", "write", "--name", "笔记本", "--user",
                         "alice", "--agent", "noah", *base, "--json")
    assert code == 0, err
    made = json.loads(out)
    assert made["key"]["role"] == "write" and made["key"]["name"] == "笔记本"
    code, out, err = run("keys", "create", "--role", "read", *base)
    assert code == 0 and "shown once" in err
    secret = out.split()[-1]
    assert secret.startswith(SECRET_PREFIX)
    code, out, _ = run("keys", "list", *base, "--json")
    listed = json.loads(out)
    assert [k["role"] for k in listed] == ["write", "read"]
    assert made["secret"] not in out and secret not in out
    code, out, _ = run("keys", "list", *base, "--user", "alice", "--agent", "noah", "--json")
    assert [k["id"] for k in json.loads(out)] == [made["key"]["id"]]
    code, out, _ = run("keys", "revoke", made["key"]["id"], *base, "--json")
    assert code == 0 and json.loads(out)["revoked_at"]
    with engramdb.open(db, embedder="hashing") as mem:
        with pytest.raises(Unauthorized):
            Keys(mem).authenticate(made["secret"])
        assert Keys(mem).authenticate(secret).role == Role.READ


def test_keys_commands_report_bad_input(tmp_path):  # type: ignore[no-untyped-def]
    base = ["--db", str(tmp_path / "m.db"), "--embedder", "hashing"]
    assert run("init", *base)[0] == 0
    assert run("keys", "create", "--role", "owner", *base)[0] == 4
    assert run("keys", "revoke", "knope", *base)[0] == 3
    code, out, _ = run("keys", "revoke", "knope", *base, "--json")
    assert json.loads(out)["error"]["code"] == "not_found"


def test_serve_refuses_bad_settings(tmp_path):  # type: ignore[no-untyped-def]
    base = ["--db", str(tmp_path / "m.db"), "--embedder", "hashing"]
    assert run("init", *base)[0] == 0
    assert run("serve", "--workers", "0", *base)[0] == 4
    assert run("serve", "--port", "70000", *base)[0] == 4
    assert run("serve", "--db", ":memory:", "--embedder", "hashing")[0] == 6

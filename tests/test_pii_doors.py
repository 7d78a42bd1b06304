"""reveal at the doors (issue 18): a masked value comes back from HTTP and MCP (HTTP transport
with --keys) only to an admin key; read and write keys get 403 / a forbidden tool error, and
without reveal no key sees it. The CLI, run by the file's owner, has --reveal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import engramdb
from live_server import auth, new_key, thread_server
from test_mcp import clean_env, http_server, keyed, make_key

EMAIL, MOBILE = "chen.jing@example.net", "18612345678"
TEXT = f"陈静的邮箱 {EMAIL}，手机 {MOBILE}"


def _write(db: Path, user: str = "alice", agent: str = "noah") -> str:
    with engramdb.open(db, embedder="hashing", pii="mask") as mem:
        return mem.remember(TEXT, user=user, agent=agent).memory.id


def test_http_reveals_to_admin_keys_only(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = _write(db)
    with engramdb.open(db, embedder="hashing") as mem:
        keys = {role: new_key(mem, role) for role in ("read", "write", "admin")}
        with thread_server(mem) as base, httpx.Client(base_url=base, timeout=60) as client:
            for role, secret in keys.items():
                h = auth(secret)
                q = {"user": "alice", "agent": "noah"}
                plain = [client.get(f"/v1/memories/{mid}", headers=h, params=q),
                         client.post("/v1/recall", headers=h, params=q,
                                     json={"query": "陈静 邮箱", "k": 3}),
                         client.get("/v1/export", headers=h, params=q),
                         client.get(f"/v1/memories/{mid}/history", headers=h, params=q)]
                for r in plain:
                    assert r.status_code == 200 and EMAIL not in r.text and MOBILE not in r.text
                asked = [client.get(f"/v1/memories/{mid}", headers=h, params=q | {"reveal": 1}),
                         client.post("/v1/recall", headers=h, params=q,
                                     json={"query": "陈静 邮箱", "k": 3, "reveal": True}),
                         client.get("/v1/export", headers=h, params=q | {"reveal": "true"}),
                         client.get(f"/v1/memories/{mid}/history", headers=h,
                                    params=q | {"reveal": "true"})]
                for r in asked:
                    if role == "admin":
                        assert r.status_code == 200 and EMAIL in r.text and MOBILE in r.text
                    else:
                        assert r.status_code == 403, r.text
                        assert r.json()["error"]["code"] == "forbidden"
                        assert EMAIL not in r.text



@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_over_http_reveals_to_admin_keys_only(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = _write(db, agent="default")
    secrets = {role: make_key(db, role)[1] for role in ("read", "write", "admin")}
    with http_server(db, tmp_path / "server.log", "--keys") as url:
        for role, secret in secrets.items():
            async with keyed(url, secret) as c:
                for tool, args in (("get", {"id": mid}), ("recall", {"query": "陈静 邮箱"}),
                                   ("history", {"id": mid})):
                    plain = await c.call_tool(tool, args)
                    seen = json.dumps(plain.structured_content, ensure_ascii=False)
                    assert not plain.is_error and EMAIL not in seen and "[email#" in seen
                    shown = await c.call_tool(tool, args | {"reveal": True})
                    seen = json.dumps(shown.structured_content, ensure_ascii=False)
                    if role == "admin":
                        assert not shown.is_error and EMAIL in seen and MOBILE in seen
                    else:
                        assert shown.is_error and "forbidden" in seen and EMAIL not in seen


def test_cli_get_and_export_reveal(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = _write(db, user="default", agent="default")
    base = [sys.executable, "-m", "engramdb.cli"]
    opts = ["--db", str(db), "--embedder", "hashing", "--json"]

    def run(*args: str) -> str:
        done = subprocess.run([*base, *args, *opts], env=clean_env(), capture_output=True,
                              text=True, check=True)
        return done.stdout

    assert EMAIL not in run("get", mid) and "[email#" in run("get", mid)
    assert EMAIL in run("get", mid, "--reveal")
    assert EMAIL not in run("history", mid) and EMAIL in run("history", mid, "--reveal")
    assert EMAIL not in run("export") and EMAIL in run("export", "--reveal")

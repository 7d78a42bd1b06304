"""recall, get, list, remember and status ask a running `engramdb serve` on the same file
(cli/remote.py, discovery.py): the server's log shows each request, the command prints what
it prints with the file opened in the process (--local), loads no engine, and opens the file
itself when the server is gone or is not the one that wrote the discovery file."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engramdb
from engramdb import discovery
from live_server import free_port, new_key, serve_process
from test_cli_start import probe

SRC = str(Path(__file__).resolve().parent.parent / "src")
Served = tuple[Path, str, list[str]]


def cli(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`engramdb --db DB --embedder hashing ARGS` in a fresh process (80 columns)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAMDB_")}
    return subprocess.run(
        [sys.executable, "-m", "engramdb.cli", "--db", str(db), "--embedder", "hashing", *args],
        capture_output=True, text=True, timeout=120, check=False,
        env={**clean, "COLUMNS": "80", "ENGRAMDB_THREADS": "1", **env,
             "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])})


def requests(db: Path) -> list[str]:
    """The requests the server has logged (uvicorn's access lines)."""
    return [line for line in db.with_suffix(".log").read_text().splitlines()
            if '"GET /' in line or '"POST /' in line]


def seed(db: Path, *texts: str, user: str = "default") -> list[str]:
    with engramdb.open(db, embedder="hashing", user=user) as mem:
        return [mem.remember(t).memory.id for t in texts]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("served") / "m.db"
    ids = seed(db, "I moved to Berlin in May", "我妹妹喜欢喝绿茶")
    seed(db, "Bob's cat is called Miso", user="bob")
    with serve_process(db) as url:
        yield db, url, ids


def test_the_discovery_file_names_the_server_and_only_its_owner_reads_it(served: Served) -> None:
    db, url, _ = served
    path = discovery.path_for(db)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    assert (data["url"], data["db"], data["embedder"]) == (url, str(db.resolve()), "hashing")
    assert data["token"].startswith("edb_local_")


@pytest.mark.parametrize(("argv", "route"), [
    (["recall", "where did I move", "--no-track"], "POST /v1/recall"),
    (["recall", "绿茶", "--no-track", "--json"], "POST /v1/recall"),
    (["list"], "GET /v1/memories?"),
    (["--user", "bob", "list", "--json"], "GET /v1/memories?user=bob"),
    (["get", "FIRST"], "GET /v1/memories/"),
    (["get", "nothing-here"], "GET /v1/memories/nothing-here"),
    (["status"], "GET /v1/stats"),
])
def test_a_served_command_prints_what_it_prints_here(served: Served, argv: list[str],
                                                     route: str) -> None:
    db, _, ids = served
    argv = [ids[0] if a == "FIRST" else a for a in argv]
    before = len(requests(db))
    there = cli(db, *argv)
    asked = requests(db)[before:]
    assert any(route in line for line in asked), asked
    here = cli(db, "--local", *argv)
    assert len(requests(db)) == before + len(asked)   # --local asked nothing
    assert (there.returncode, there.stderr) == (here.returncode, here.stderr)
    if "--json" in argv:   # strengths move on with the clock between the two runs: 1e-6
        assert json.loads(there.stdout) == approx(json.loads(here.stdout))
    else:
        assert there.stdout == here.stdout
    assert here.stdout or here.returncode == 3


def approx(value: object) -> object:
    """``value`` with every float in it compared to 1e-4."""
    if isinstance(value, float):
        return pytest.approx(value, abs=1e-4)
    if isinstance(value, dict):
        return {k: approx(v) for k, v in value.items()}
    if isinstance(value, list):
        return [approx(v) for v in value]
    return value


def test_a_served_recall_loads_no_engine_and_no_model(served: Served) -> None:
    db, _, _ = served
    before = len(requests(db))
    code, loaded, _ = probe("--db", str(db), "--embedder", "hashing", "recall", "Berlin")
    assert code == 0
    assert loaded == []   # no numpy, engine, store, model, jieba, pydantic, HTTP stack
    assert any("POST /v1/recall" in line for line in requests(db)[before:])


def test_a_recall_of_more_hits_than_the_server_gives_is_done_here(served: Served) -> None:
    db, _, _ = served
    before = len(requests(db))
    done = cli(db, "recall", "Berlin", "-k", "150", "--no-track", "--format", "text")
    assert done.returncode == 0, done.stderr
    assert "I moved to Berlin in May" in done.stdout
    assert not [line for line in requests(db)[before:] if "/v1/recall" in line]


def test_remember_writes_through_the_server(served: Served) -> None:
    db, _, _ = served
    there = cli(db, "--json", "remember", "Alice drinks oolong every morning")
    assert there.returncode == 0, there.stderr
    assert "POST /v1/memories?user=default&agent=default" in requests(db)[-1]
    written = json.loads(there.stdout)
    assert written["action"] == "add" and "inferred" in written
    here = cli(db, "--local", "--json", "get", written["memory"]["id"])
    assert json.loads(here.stdout)["content"] == "Alice drinks oolong every morning"


def test_the_command_opens_the_file_itself_when_the_server_is_gone(tmp_path: Path) -> None:
    """A discovery file whose process is alive (this one) but whose port nobody listens on."""
    db = tmp_path / "m.db"
    seed(db, "The spare key is under the blue pot")
    discovery.write(discovery.Running(f"http://127.0.0.1:{free_port()}", os.getpid(),
                                      str(db.resolve()), discovery.new_token(), "hashing"))
    done = cli(db, "-v", "recall", "where is the spare key", "--format", "text")
    assert done.returncode == 0, done.stderr
    assert "The spare key is under the blue pot" in done.stdout
    said = " ".join(done.stderr.split())   # rich wraps the line at 80 columns
    assert "did not answer" in said and "opening the file here" in said


def test_a_server_that_refuses_the_token_is_not_asked(served: Served, tmp_path: Path) -> None:
    """Another file's discovery file pointing at the running server (not the one that made
    its token): the command answers from its own file, never from the server's."""
    _, url, _ = served
    db = tmp_path / "other.db"
    seed(db, "Only the other file knows about the lighthouse")
    discovery.write(discovery.Running(url, os.getpid(), str(db.resolve()),
                                      discovery.new_token(), "hashing"))
    done = cli(db, "-v", "list")
    assert done.returncode == 0, done.stderr
    assert "lighthouse" in done.stdout and "Berlin" not in done.stdout
    assert "refused the discovery file's token" in " ".join(done.stderr.split())


def test_a_stale_or_open_discovery_file_is_not_trusted(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    db.touch()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = discovery.Running("http://127.0.0.1:9", int(gone.stdout), str(db.resolve()),
                              discovery.new_token(), "hashing")
    path = discovery.write(stale)
    assert discovery.find(db) is None             # its process has ended
    live = discovery.Running(stale.url, os.getpid(), stale.db, stale.token, stale.embedder)
    discovery.write(live)
    assert discovery.find(db) == live
    path.chmod(0o644)                             # others could read the token
    assert discovery.find(db) is None


def test_a_named_server_with_a_key_and_the_file_removed_on_exit(tmp_path: Path) -> None:
    """$ENGRAMDB_SERVER and $ENGRAMDB_API_KEY name a server (--db is not read); when it does
    not answer the command fails (exit 6) rather than open some local file."""
    db = tmp_path / "m.db"
    seed(db, "Alice's dentist is on Oak Street", user="alice")
    with engramdb.open(db, embedder="hashing") as mem:
        key = new_key(mem, "read", user="alice", agent="default")
    elsewhere = tmp_path / "not-there.db"
    with serve_process(db) as url:
        done = cli(elsewhere, "recall", "dentist", "--format", "text",
                   ENGRAMDB_SERVER=url, ENGRAMDB_API_KEY=key)
        assert done.returncode == 0, done.stderr
        assert "Oak Street" in done.stdout
        refused = cli(elsewhere, "--user", "bob", "list", ENGRAMDB_SERVER=url,
                      ENGRAMDB_API_KEY=key)
        said = " ".join(refused.stderr.split())
        assert refused.returncode != 0 and "cannot name user=bob" in said
    assert not discovery.path_for(db).exists()
    gone = cli(elsewhere, "list", ENGRAMDB_SERVER=url, ENGRAMDB_API_KEY=key)
    assert gone.returncode == 6 and "did not answer" in " ".join(gone.stderr.split())


def test_an_answer_is_read_whole_whatever_its_framing() -> None:
    """exchange.parse: a Content-Length body, a chunked one, one cut short, not HTTP."""
    from engramdb.cli.exchange import parse

    body = '{"note": "绿茶"}'.encode()
    assert parse(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n" % len(body) + body) == \
        (200, body)
    chunked = b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n" \
        b"5\r\n{\"a\":\r\n3\r\n 1}\r\n0\r\n\r\n"
    assert parse(chunked) == (404, b'{"a": 1}')
    for broken in (b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}", b"SSH-2.0-OpenSSH\r\n",
                   b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nab"):
        with pytest.raises(OSError):
            parse(broken)

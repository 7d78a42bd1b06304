"""Real servers for the HTTP tests: uvicorn in a thread (one app over a test's Memory) or
`engramdb serve` in a subprocess, each on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn

from engramdb.engine import Memory
from engramdb.keys import Keys
from engramdb.server import create_app

READY_S = 60.0  # how long a server may take to start (a readiness wait, not a timing test)


def loopback_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with loopback_socket() as sock:
        return int(sock.getsockname()[1])


@contextmanager
def thread_server(mem: Memory) -> Iterator[str]:
    """uvicorn serving create_app(mem) in a thread; yields its base URL."""
    sock = loopback_socket()
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(mem), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + READY_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@contextmanager
def serve_process(db: Path | str, workers: int = 1, *options: str,
                  log_to: Path | None = None) -> Iterator[str]:
    """`engramdb serve` as a subprocess over ``db`` (a file, or a postgresql:// URL with
    ``log_to``; hashing embedder, more ``options``); yields its base URL. Its output goes to
    ``log_to``, else next to the file."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        try:
            return httpx.get(url + "/openapi.json", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    with _process(["serve", "--db", str(db), "--embedder", "hashing", "--port", str(port),
                   "--workers", str(workers), *options],
                  Path(log_to or Path(db).with_suffix(".log")), ready, {}):
        yield url


@contextmanager
def _process(args: list[str], log_path: Path, ready: Callable[[], bool],
             env: dict[str, str]) -> Iterator[None]:
    """`engramdb ARGS` as a subprocess (its output in ``log_path``) until ``ready()``; stopped
    when the block ends."""
    log = open(log_path, "w+")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "engramdb.cli", *args], stdout=log,
                            stderr=subprocess.STDOUT,
                            env={**os.environ, "ENGRAMDB_THREADS": "1", **env})
    try:
        deadline = time.monotonic() + READY_S
        while not ready():
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"engramdb {args[0]} did not start:\n{log.read()}")
            time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def new_key(mem: Memory, role: str, user: str = "alice", agent: str = "noah") -> str:
    return Keys(mem).create(user=user, agent=agent, role=role, name=f"{role} key")[1]


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@contextmanager
def mcp_http_process(db: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`engramdb mcp --http` as a subprocess over ``db`` (hashing embedder, more ``options``,
    more ``env``); yields its endpoint URL (.../mcp)."""
    with mcp_process(db, "http", *options, env=env) as url:
        yield url


@contextmanager
def mcp_process(db: Path, transport: str, *options: str,
                env: dict[str, str] | None = None) -> Iterator[str]:
    """`engramdb mcp --transport TRANSPORT` (http or sse) as a subprocess over ``db``; yields
    its endpoint URL (.../mcp, or .../sse)."""
    port = free_port()

    def ready() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return True
        except OSError:
            return False

    with _process(["mcp", "--transport", transport, "--db", str(db), "--embedder", "hashing",
                   "--port", str(port), *options], db.with_suffix(".log"), ready, env or {}):
        yield f"http://127.0.0.1:{port}/{'sse' if transport == 'sse' else 'mcp'}"


def raw_request(base: str, data: bytes) -> tuple[int, bytes]:
    """Send ``data`` on a fresh connection, all of it, and read the answer to its end:
    (status, body). A reset connection raises (what issue 29 saw)."""
    host, port = base.split("//")[1].split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body

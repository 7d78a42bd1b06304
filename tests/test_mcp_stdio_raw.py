"""Issues 18 and 29: a real `engramdb mcp` subprocess fed raw bytes on stdin. Malformed JSON
gets a JSON-RPC -32700 answer, an invalid request -32600 (with its id where it has one), a
line nested too deep -32700 and a line over the size limit -32600, each in plain words, and
the server keeps serving the requests that follow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from queue import Empty, Queue
from typing import Any

from mcp_types import LATEST_PROTOCOL_VERSION

WAIT_S = 60.0   # how long an answer may take (a wait, not a timing test)


class Raw:
    def __init__(self, db: Path, env: dict[str, str] | None = None) -> None:
        cmd = [sys.executable, "-m", "engramdb.cli", "mcp", "--db", str(db), "--create",
               "--embedder", "hashing", "--user", "alice"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL,
                                     env={**os.environ, "ENGRAMDB_THREADS": "1", **(env or {})})
        self.lines: Queue[bytes] = Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw)
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self.lines.get(timeout=WAIT_S)))
        except Empty:
            raise AssertionError("no answer from the server") from None

    def call(self, id_: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}
        self.send(json.dumps(message).encode() + b"\n")
        return self.answer()

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(WAIT_S)


def _initialize(raw: Raw) -> None:
    answer = raw.call(1, "initialize", {"protocolVersion": LATEST_PROTOCOL_VERSION,
                                        "capabilities": {},
                                        "clientInfo": {"name": "raw", "version": "0"}})
    assert answer["id"] == 1 and "result" in answer, answer
    raw.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')


def test_malformed_and_invalid_input_is_answered_and_serving_goes_on(tmp_path):  # type: ignore[no-untyped-def]
    raw = Raw(tmp_path / "m.db")
    try:
        _initialize(raw)
        cases: list[tuple[bytes, int, Any]] = [
            (b"{not json\n", -32700, None),
            (b'{"jsonrpc": "2.0", "id": 3, "method": \n', -32700, None),
            (b"{\"content\": \"\xe6\x88\x91\xff\n", -32700, None),
            (b"[]\n", -32600, None),
            (b"42\n", -32600, None),
            (b'"just a string"\n', -32600, None),
            (b'{"jsonrpc": "2.0", "id": 7, "method": 5}\n', -32600, 7),
            (b'{"jsonrpc": "1.0", "id": "x", "method": "tools/list"}\n', -32600, "x"),
            (b'{"id": 9}\n', -32600, 9),
            (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}\n', -32600, None),
        ]
        for n, (line, code, id_) in enumerate(cases):
            answer = raw.answer() if raw.send(line) is None else {}
            assert answer.get("jsonrpc") == "2.0", (line, answer)
            assert answer["error"]["code"] == code, (line, answer)
            assert answer["id"] == id_, (line, answer)
            assert answer["error"]["message"]
            ping = raw.call(100 + n, "ping")   # still serving, in order
            assert ping == {"jsonrpc": "2.0", "id": 100 + n, "result": {}}, ping
        stored = raw.call(200, "tools/call", {"name": "remember",
                                              "arguments": {"content": "我住在柏林"}})
        assert stored["id"] == 200 and not stored["result"].get("isError"), stored
        tools = raw.call(201, "tools/list")
        assert any(t["name"] == "recall" for t in tools["result"]["tools"])
    finally:
        code = raw.close()
    assert code == 0


def _plain(message: str) -> None:
    """No validator's text or link reaches the client."""
    assert "\n" not in message and "pydantic" not in message, message
    assert "validation error" not in message and "http" not in message, message


def test_deep_and_over_long_lines_are_answered_and_serving_goes_on(tmp_path):  # type: ignore[no-untyped-def]
    limit = 300_000
    raw = Raw(tmp_path / "m.db", env={"ENGRAMDB_MCP_MAX_MESSAGE_BYTES": str(limit)})
    try:
        _initialize(raw)

        def deep(n: int) -> bytes:
            return (b'{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"x":'
                    + b"[" * n + b"]" * n + b"}}\n")

        cases: list[tuple[bytes, int]] = [
            (deep(1000), -32700),                # Python's own parser gives up (RecursionError)
            (deep(100_000), -32700),
            (deep(300), -32700),                 # the SDK's parser gives up
            (deep(70), -32700),                  # over MAX_DEPTH
            (b'{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"x":"'
             + b"y" * (4 * limit) + b'"}}\n', -32600),   # over the size limit, not held whole
            (b"[" * (3 * limit) + b"\n", -32600),
            (b'{"id": 9}\n', -32600),
            (b'{"jsonrpc": "2.0", "id": 7, "method": 5}\n', -32600),
        ]
        for n, (line, code) in enumerate(cases):
            raw.send(line)
            answer = raw.answer()
            assert answer["error"]["code"] == code, (line[:80], answer)
            _plain(answer["error"]["message"])
            ping = raw.call(300 + n, "ping")
            assert ping == {"jsonrpc": "2.0", "id": 300 + n, "result": {}}, ping
        listed = raw.call(400, "tools/list", {"x": [[[[]]]]})   # shallow nesting is fine
        assert any(t["name"] == "recall" for t in listed["result"]["tools"]), listed
        stored = raw.call(401, "tools/call", {"name": "remember", "arguments": {
            "content": "I keep my bike in the shed", "metadata": {"a": [[[[1]]]]}}})
        assert not stored["result"].get("isError"), stored
    finally:
        code = raw.close()
    assert code == 0

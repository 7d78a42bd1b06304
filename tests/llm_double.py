"""A scripted OpenAI-compatible chat-completions server on loopback, with tool calls: the only
double the tests allow (the remote LLM). Each test scripts the replies in order:

    llm.say("text")                          a message with text content
    llm.call("recall", {"query": "dog"})     a message with one tool call (native tool-calling)
    llm.fail(503)                            an HTTP error
    llm.slow(2.0, "text")                    a reply after a delay (the client should give up)
    llm.raw(b"not json")                     a body that is no chat completion

``refuse_tools = True`` answers 400 to any request that carries ``tools`` (an endpoint without
native tool-calling). Every request is kept in ``requests`` (path, auth, body). A request past
the end of the script gets HTTP 500 "script exhausted", and ``overrun`` counts them."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class Script:
    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.refuse_tools = False
        self.overrun = 0
        self.url = ""
        self._lock = threading.Lock()
        self._ids = 0

    def say(self, text: str) -> Script:
        self.replies.append({"message": {"role": "assistant", "content": text}})
        return self

    def call(self, name: str, args: dict[str, Any] | str) -> Script:
        self._ids += 1
        raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        self.replies.append({"message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{self._ids}", "type": "function",
             "function": {"name": name, "arguments": raw}}]}})
        return self

    def fail(self, status: int) -> Script:
        self.replies.append({"status": status})
        return self

    def slow(self, seconds: float, text: str) -> Script:
        self.replies.append({"delay": seconds, "message": {"role": "assistant",
                                                           "content": text}})
        return self

    def raw(self, body: bytes) -> Script:
        self.replies.append({"raw": body})
        return self

    def next(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self.refuse_tools and "tools" in body:
                return {"status": 400}
            if not self.replies:
                self.overrun += 1
                return {"status": 500}
            return self.replies.pop(0)

    def system(self, n: int = -1) -> str:
        """The system prompt of request ``n``."""
        return str(self.requests[n]["body"]["messages"][0]["content"])


def handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            script.requests.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                    "body": body})
            reply = script.next(body)
            if reply.get("delay"):
                time.sleep(reply["delay"])  # slow on purpose: the client must give up
            if "status" in reply:
                self._send(reply["status"], b'{"error": {"message": "scripted failure"}}')
                return
            payload = reply.get("raw") or json.dumps({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                "model": body.get("model"),
                "choices": [{"index": 0, "message": reply["message"],
                             "finish_reason": "tool_calls" if reply["message"].get(
                                 "tool_calls") else "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }, ensure_ascii=False).encode()
            self._send(200, payload)

        def _send(self, status: int, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (the timeout test)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    """Start a scripted server (no proxy in the way); a test module's fixture yields from it:

        @pytest.fixture
        def llm(monkeypatch):
            yield from serve(monkeypatch)
    """
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    script = Script()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler(script))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    script.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield script
    httpd.shutdown()
    httpd.server_close()

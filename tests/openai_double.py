"""An OpenAI-compatible server on loopback for the adapter tests: it speaks the
/v1/chat/completions wire protocol (what the ``openai`` client and the Agents SDK's chat
completions model send), answers with scripted text, and records every request (path, body,
Authorization header)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[dict[str, Any]], str]


def echo_last_user(body: dict[str, Any]) -> str:
    """The default answer: names the last user message, so a test can see what was sent."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    last = users[-1]["content"] if users else ""
    return f"You said: {last}" if isinstance(last, str) else "You said something."


class _Handler(BaseHTTPRequestHandler):
    reply: Reply = staticmethod(echo_last_user)
    seen: list[dict[str, Any]]

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append({"path": self.path, "body": body,
                          "auth": self.headers.get("Authorization")})
        if not self.path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        text = type(self).reply(body)
        self._send(200, {
            "id": f"chatcmpl-{len(self.seen)}", "object": "chat.completion", "created": 0,
            "model": body.get("model", "double"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def openai_double(reply: Reply = echo_last_user) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(base URL ending in /v1, the list of requests seen) while the server runs."""
    seen: list[dict[str, Any]] = []
    handler = type("Handler", (_Handler,), {"reply": staticmethod(reply), "seen": seen})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", seen
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()

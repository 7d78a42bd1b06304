"""A built-in stand-in for a chat model, to try the agent without installing one (issue 30):
``demo_llm()`` serves the OpenAI chat-completions protocol on 127.0.0.1 (a free port, a thread
of this process) and yields the ``Endpoint`` to give the agent, which talks to it over HTTP
exactly as it talks to a real server (``engramdb ask --llm demo``, ``chat --llm demo``).

It is not a language model, and every answer it gives starts with ``LABEL`` saying so. It reads
each request's messages and nothing else (never the store):

1. a turn's first request (no tool result in it yet), when the ``recall`` tool is offered: it
   calls ``recall`` with the user's message as the query (a native tool call, or a JSON action
   when the request carries no ``tools`` and its system prompt asks for JSON actions: the
   planner's JSON mode);
2. otherwise it answers with the memories it was given (recall's results; without recall, the
   ``- [date] ...`` lines of the memory context in the system prompt) that share the most words
   with the user's message (the tokenizer's words, English stems and Chinese words, and single
   Chinese characters): at most three, each with at least half the best count. A memory that
   is itself a question (the user's earlier turns are remembered too) is not quoted. When none
   shares a word it says so. In the user's language (any CJK character: Chinese)."""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..text.lang import script
from ..text.stopwords import ZH_STOP
from ..text.tokenize import is_cjk, tokenize
from .chat import Endpoint

MODEL = "engramdb-demo"
MAX_QUOTED = 3
LABEL = {"en": "[engramdb demo stand-in, not a language model]",
         "zh": "[engramdb 演示替身，不是语言模型]"}
FOUND = {"en": "{label} Your memories that share words with your question:\n{lines}\n"
               "(The demo quotes memories, it does not understand them. For real answers, "
               "point engramdb at a local LLM: docs/local-llms.md.)",
         "zh": "{label} 你的记忆中与问题有共同词语的：\n{lines}\n"
               "（演示只引用记忆，并不理解它们。要得到真正的回答，请接入本地大模型："
               "docs/local-llms.md。）"}
NONE = {"en": "{label} None of the memories I was given shares a word with your question. "
              "(The demo only matches words; a language model would do better: "
              "docs/local-llms.md.)",
        "zh": "{label} 我收到的记忆中没有一条与问题有共同词语。（演示只比对词语；"
              "语言模型会做得更好：docs/local-llms.md。）"}
JSON_RESULT = "Result of recall: "       # how the planner hands a tool result back in JSON mode
_SERVED = itertools.count(1)
_CONTEXT_LINE = re.compile(r"^\s*- \[[^\]]*\d{4}-\d{2}-\d{2}[^\]]*\]\s*(.+?)\s*$", re.M)


@contextmanager
def demo_llm() -> Iterator[Endpoint]:
    """The stand-in's endpoint while it runs (base URL http://127.0.0.1:PORT/v1, model
    ``engramdb-demo``; no proxy from the environment, it is on loopback)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="engramdb-demo-llm",
                              daemon=True)
    thread.start()
    try:
        yield Endpoint(f"http://127.0.0.1:{httpd.server_address[1]}/v1", MODEL, timeout=30.0,
                       use_env_proxy=False)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def reply(body: dict[str, Any]) -> dict[str, Any]:
    """The assistant message the stand-in answers a chat-completions request body with."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    question = next((_text(m) for m in messages if m.get("role") == "user"), "")
    system = next((_text(m) for m in messages if m.get("role") == "system"), "")
    native = "tools" in body or '"action"' not in system   # the planner's JSON mode, or not
    results = _recall_results(messages)
    if results is None and _offers_recall(body, messages, native):
        args = {"query": question, "k": 5}
        if not native:
            return _said({"action": "tool", "tool": "recall", "args": args}, native)
        return {"role": "assistant", "content": None, "tool_calls": [{
            "id": f"call_demo_{len(messages)}", "type": "function",
            "function": {"name": "recall", "arguments": json.dumps(args, ensure_ascii=False)}}]}
    lines = results if results is not None else _CONTEXT_LINE.findall(system)
    return _said({"action": "answer", "text": answer(question, lines)}, native)


def answer(question: str, memories: list[str]) -> str:
    """The labelled answer: the memories sharing the most words with the question."""
    lang = script(question)
    asked = _words(question)
    shared = [(len(asked & _words(m)), i, m) for i, m in enumerate(memories)
              if not m.rstrip().endswith(("?", "？"))]
    best = max((n for n, _, _ in shared), default=0)
    if best == 0:
        return NONE[lang].format(label=LABEL[lang])
    kept = sorted((s for s in shared if 2 * s[0] >= best), key=lambda s: (-s[0], s[1]))
    lines = "\n".join(f"- {m}" for _, _, m in kept[:MAX_QUOTED])
    return FOUND[lang].format(label=LABEL[lang], lines=lines)


def _words(text: str) -> set[str]:
    return set(tokenize(text)) | {c for c in text if is_cjk(c) and c not in ZH_STOP}


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):   # content parts: the text ones
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def _offers_recall(body: dict[str, Any], messages: list[dict[str, Any]], native: bool) -> bool:
    if native:
        return any(isinstance(t, dict) and (t.get("function") or {}).get("name") == "recall"
                   for t in body.get("tools") or [])
    return any('"name": "recall"' in _text(m) for m in messages if m.get("role") == "system")


def _recall_results(messages: list[dict[str, Any]]) -> list[str] | None:
    """The contents of the memories the last tool result holds (None: no tool result yet)."""
    for m in reversed(messages):
        text = _text(m)
        if m.get("role") == "user" and text.startswith(JSON_RESULT):
            text = text[len(JSON_RESULT):]
        elif m.get("role") != "tool":
            continue
        try:
            found = json.loads(text)
        except json.JSONDecodeError:
            return []
        return [str(h["content"]) for h in found if isinstance(h, dict) and "content" in h] \
            if isinstance(found, list) else []
    return None


def _said(action: dict[str, Any], native: bool) -> dict[str, Any]:
    """An answer: plain text natively, a JSON action in JSON mode."""
    content = action["text"] if native and action["action"] == "answer" else \
        json.dumps(action, ensure_ascii=False)
    return {"role": "assistant", "content": content}


class _Handler(BaseHTTPRequestHandler):

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [
                {"id": MODEL, "object": "model", "owned_by": "engramdb (demo stand-in)"}]})
        else:
            self._send(404, {"error": {"message": "not found", "type": "not_found"}})

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        size = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(size) or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = None
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": "not found", "type": "not_found"}})
            return
        if not isinstance(body, dict):
            self._send(400, {"error": {"message": "the body is not a JSON object",
                                       "type": "invalid_request_error"}})
            return
        message = reply(body)
        self._send(200, {
            "id": f"chatcmpl-demo-{next(_SERVED)}", "object": "chat.completion",
            "created": 0, "model": MODEL,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass

"""The HTTP door's limits (all in ``Config``, see docs/http.md): body size, k, batch size and
page size. Content size is the engine's own limit (``Config.max_content_bytes``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import Config
from ..errors import Invalid

DRAIN_BYTES = 256 * 1024 * 1024   # the most of a refused body read so its sender sees the 413


@dataclass(frozen=True)
class Limits:
    body_bytes: int
    k: int
    batch: int
    page: int

    @classmethod
    def from_config(cls, config: Config) -> Limits:
        return cls(config.http_max_body_bytes, config.http_max_k, config.http_max_batch,
                   config.http_max_page)

    def check_k(self, k: int) -> int:
        if not 1 <= k <= self.k:
            raise Invalid(f"k must be from 1 to {self.k}, got {k}")
        return k

    def check_batch(self, n: int) -> int:
        if not 1 <= n <= self.batch:
            raise Invalid(f"a batch holds 1 to {self.batch} memories, got {n}")
        return n

    def check_page(self, limit: int) -> int:
        if not 1 <= limit <= self.page:
            raise Invalid(f"limit must be from 1 to {self.page}, got {limit}")
        return limit


class BodyLimit:
    """ASGI middleware: a body larger than ``limit`` bytes gets 413 before any route reads it,
    whether it says its length (Content-Length) or streams (chunked). A subclass may refuse a
    whole body too (``check``) and word the 413 its own way (``too_large``)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(receive, send, more=length != b"0")
            return
        chunks: list[bytes] = []
        seen = 0
        while True:  # read the whole body first (it is small): refuse it before any route runs
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(receive, send, more=message.get("more_body", False))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = self.check(scope, body)
        if problem is not None:
            await _answer(send, *problem)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, receive: Receive, send: Send, *, more: bool) -> None:
        """Answer 413. The rest of the body is read (and dropped) first, up to DRAIN_BYTES: a
        server that closes with a request still arriving makes the kernel reset the
        connection, and the client loses the answer (it saw a reset, not a 413)."""
        drained = 0
        while more and drained <= DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            drained += len(message.get("body", b""))
            more = message.get("more_body", False)
        await _answer(send, 413, self.too_large(), close=True)

    def too_large(self) -> Any:
        """The JSON of the 413."""
        return {"error": {"code": "too_large", "message":
                          f"the request body is larger than {self.limit} bytes"}}

    def check(self, scope: Scope, body: bytes) -> tuple[int, Any] | None:
        """(status, JSON) refusing a whole ``body``, or None to pass it on."""
        return None


async def _answer(send: Send, status: int, data: Any, *, close: bool = False) -> None:
    body = json.dumps(data).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status,
                "headers": headers + ([(b"connection", b"close")] if close else [])})
    await send({"type": "http.response.body", "body": body})

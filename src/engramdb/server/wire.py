"""The HTTP wire under both HTTP doors (`engramdb serve` and `engramdb mcp --http`), before any
route runs (issue 29):

- a request line (method, URL with its query, version) longer than ``Config.http_max_url_bytes``
  gets 414 ``uri_too_long``;
- a request head (that line and the headers) larger than ``Config.http_max_header_bytes`` gets
  431 ``headers_too_large``;
- any other request that is not HTTP/1.1 gets 400 ``malformed_request``;

each in the error shape ``{"error": {"code", "message"}}``, and the server goes on serving.

uvicorn's h11 parser refuses an over-long head with a plain 400 and closes the connection at
once, while the client may still be sending: the kernel then resets the connection and the
client never sees the answer. ``Wire`` (uvicorn's h11 protocol with these checks) answers, then
reads and drops what still comes (up to ``DRAIN_BYTES``, for at most ``DRAIN_S`` seconds)
before it closes."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..config import Config
from .headers import HEADERS

PROTOCOL = "engramdb.server.wire:Wire"   # uvicorn's ``http=``: an import string, so that
#                                          worker processes load it too
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_S = 10.0
HEAD_END = re.compile(rb"\n\r?\n")   # the blank line after the headers (h11 reads the same)
REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


@functools.cache
def limits() -> tuple[int, int]:
    """(URL bytes, head bytes) from this process's Config (ENGRAMDB_* and the TOML file)."""
    config = Config.load()
    return config.http_max_url_bytes, config.http_max_header_bytes


def refusal(data: bytes, url_bytes: int, head_bytes: int) -> tuple[int, str, str] | None:
    """(status, code, message) for a request whose start, ``data`` (its head, maybe some of its
    body after it), is too long; None when it is not (or not yet)."""
    blank = HEAD_END.search(data)
    head = data[:blank.end()] if blank else data
    end = head.find(b"\n")
    line = end if end >= 0 else len(head)
    if line > url_bytes:
        return 414, "uri_too_long", (f"the request line (method and URL) is longer than "
                                     f"{url_bytes} bytes: shorten the URL's query, or send "
                                     "long values in a POST body")
    if len(head) > head_bytes:
        return 431, "headers_too_large", (f"the request's headers are larger than {head_bytes} "
                                          "bytes: send fewer or shorter headers")
    return None


def answer(status: int, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 response in the error shape; the connection closes after it."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = [b"HTTP/1.1 %d %s" % (status, REASONS.get(status, b"Error")),
            b"content-type: application/json", b"content-length: %d" % len(body),
            b"connection: close", *(name + b": " + value for name, value in HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class Wire(H11Protocol):
    """uvicorn's h11 protocol, with the URL and head limits above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.url_bytes, self.head_bytes = limits()
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=self.head_bytes)
        self._drained: int | None = None   # bytes dropped since the answer; None: serving

    def data_received(self, data: bytes) -> None:
        if self._drained is None:
            super().data_received(data)
            return
        self._drained += len(data)
        if self._drained > DRAIN_BYTES:
            self.transport.close()

    def handle_events(self) -> None:
        if self._drained is not None:
            return
        if self.conn.their_state is h11.IDLE:   # a request head is arriving
            problem = refusal(self.conn.trailing_data[0], self.url_bytes, self.head_bytes)
            if problem is not None:
                self._refuse(*problem)
                return
        super().handle_events()

    def send_400_response(self, msg: str) -> None:
        """h11 refused the request (uvicorn's plain 400 otherwise): a head over the limit
        (h11's own limit is ``head_bytes``) or a request that is not HTTP/1.1."""
        head = self.conn.trailing_data[0]
        self._refuse(*(refusal(head, self.url_bytes, self.head_bytes) or (
            400, "malformed_request", "the request is not valid HTTP/1.1")))

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.logger.info("refused a request: %d %s", status, code)
        self._unset_keepalive_if_required()
        self.transport.write(answer(status, code, message))
        if self.transport.can_write_eof():
            self.transport.write_eof()    # the answer is whole; the client may stop sending
        self._drained = 0
        self.flow.resume_reading()
        self.loop.call_later(DRAIN_S, self.transport.close)

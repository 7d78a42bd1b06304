"""One HTTP/1.1 request and its answer, for the CLI asking a running server (remote.py).

A plain ``http://`` server is asked over a socket with ``Connection: close``: the answer is
read to the end and split here (a Content-Length or a chunked body). ``http.client`` would do
the same but imports ``email`` and ``ssl`` on the way, a noticeable part of a command that
should cost milliseconds; an ``https://`` URL (a server named by $ENGRAMDB_SERVER behind TLS)
goes through it."""

from __future__ import annotations

import socket
from urllib.parse import SplitResult

CONNECT_S = 2.0      # a local server accepts at once; one that does not is not used
ANSWER_S = 600.0     # a recall or a write on a large memory may take a while


class Unreachable(Exception):
    """The server did not take the request: nothing was sent."""


def exchange(url: SplitResult, method: str, target: str, headers: dict[str, str],
             body: bytes | None) -> tuple[int, bytes]:
    """(status, body) of ``method target`` at ``url``. Unreachable when the connection could
    not be made; OSError when it broke after the request was sent."""
    if url.scheme == "https":
        return _with_http_client(url, method, target, headers, body)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    try:
        sock = socket.create_connection((host, port), timeout=CONNECT_S)
    except OSError as exc:
        raise Unreachable(exc.strerror or str(exc) or type(exc).__name__) from None
    head = [f"{method} {target} HTTP/1.1", f"Host: {url.netloc}", "Connection: close",
            f"Content-Length: {len(body or b'')}", *(f"{k}: {v}" for k, v in headers.items())]
    with sock:
        sock.settimeout(ANSWER_S)
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b""))
        chunks = []
        while data := sock.recv(65536):
            chunks.append(data)
    return parse(b"".join(chunks))


def parse(raw: bytes) -> tuple[int, bytes]:
    """(status, body) of a whole HTTP/1.1 answer."""
    head, sep, rest = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if not sep or len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise OSError("not an HTTP answer")
    fields = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    if fields.get("transfer-encoding", "").lower() == "chunked":
        return int(parts[1]), _unchunk(rest)
    length = fields.get("content-length")
    if length is not None and (not length.isdigit() or len(rest) < int(length)):
        raise OSError("the answer was cut short")
    return int(parts[1]), rest if length is None else rest[: int(length)]


def _unchunk(rest: bytes) -> bytes:
    body = b""
    while True:
        size_line, sep, rest = rest.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            raise OSError("a malformed chunked answer") from None
        if not sep or len(rest) < size:
            raise OSError("the answer was cut short")
        if size == 0:
            return body
        body, rest = body + rest[:size], rest[size + 2:]


def _with_http_client(url: SplitResult, method: str, target: str, headers: dict[str, str],
                      body: bytes | None) -> tuple[int, bytes]:
    import http.client

    conn = http.client.HTTPSConnection(url.hostname or "", url.port or 443, timeout=CONNECT_S)
    try:
        try:
            conn.connect()
        except OSError as exc:
            raise Unreachable(exc.strerror or str(exc) or type(exc).__name__) from None
        if conn.sock is not None:
            conn.sock.settimeout(ANSWER_S)
        try:
            conn.request(method, target, body=body, headers=headers)
            answer = conn.getresponse()
            return answer.status, answer.read()
        except http.client.HTTPException as exc:
            raise OSError(str(exc)) from None
    finally:
        conn.close()

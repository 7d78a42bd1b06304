"""One model worker process: ``python -m engramdb.embed.workerproc``, started by
embed/workers.py. It builds its own embedder from the spec it reads first, then answers
requests until its input closes (the parent closed it, or died).

The channel is the process's stdin and stdout, one pickled object after another: in, the
parent's ``sys.path`` (so the factory's module imports here too), the spec ``(factory,
options)`` and then ``(texts, passage_units)`` per request; out, ``("ok",
(vectors, parts))`` or ``("error", "Type: message")`` per request, and one ``("ready", pid)`` or
``("error", ...)`` after the spec. Whatever the model's libraries print goes to stderr: the
real stdout is kept for the channel alone."""

from __future__ import annotations

import os
import pickle
import sys
from typing import IO, Any


def main() -> None:
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)   # a print() in a library must not break the channel
    source = sys.stdin.buffer
    try:
        path = pickle.load(source)
        sys.path.extend(p for p in path if p not in sys.path)   # the parent's modules (plugins)
        factory, options = pickle.load(source)
        embedder = factory(**options)
    except EOFError:
        return
    except Exception as exc:
        _send(channel, ("error", _said(exc)))
        return
    _send(channel, ("ready", os.getpid()))
    from . import pooled

    while True:
        try:
            request = pickle.load(source)
        except EOFError:
            return
        texts, units = request
        try:
            pooled.PASSAGE_UNITS = units   # the parent's, so the cut is the same
            got = pooled.embed_passages(embedder, texts)
            reply: tuple[str, Any] = ("ok", (got.vectors, got.parts))
        except Exception as exc:
            reply = ("error", _said(exc))
        _send(channel, reply)


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _send(channel: IO[bytes], reply: tuple[str, Any]) -> None:
    pickle.dump(reply, channel, protocol=pickle.HIGHEST_PROTOCOL)
    channel.flush()


if __name__ == "__main__":
    main()

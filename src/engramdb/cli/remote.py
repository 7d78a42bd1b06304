"""The memory a command asks: a running `engramdb serve` on the same file when there is one,
else the file opened here (guard.open_memory).

How a server is found (``served``): `engramdb serve` on a SQLite file writes
``<file>.server.json`` beside it while it runs (discovery.py: URL, process id, the file, a
token; mode 0600). A command on the same file (--db, $ENGRAMDB_URL or the per-user default)
whose discovery file names that file, whose server process is alive and, when --embedder is
given, whose embedder is that one, asks the server over HTTP (exchange.py: no model, no
engine, no pydantic, no HTTP library loads here), with its own --user and --agent (the token
is an admin grant). When the server cannot be reached, or refuses the token (another process
on its port), the command opens the file itself, as without a server (a line on stderr with
-v says so).
``$ENGRAMDB_SERVER`` (a URL) names a server instead, with the key in ``$ENGRAMDB_API_KEY``:
then --db is not read, and a server that does not answer is an error. --local or
``ENGRAMDB_NO_SERVER=1`` opens the file here always.

``Served`` offers the verbs the served commands call (recall, abbreviate, get, list,
remember, stats) and returns the same domain objects as ``Memory`` (decode.py), so each command
formats its answer with one code whichever memory answered. What only a served command needs
is imported when it runs: every other command (--help too) loads none of it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from engramdb import decode
from engramdb.errors import ConfigError, Conflict, EngramError, Invalid, NotFound, StoreError
from engramdb.model import Hits, Record, Stats, WriteResult

from .guard import open_memory
from .options import Door
from .render import info

SHORT_IDS = 50       # ids per /v1/short-ids request (a URL well under the server's limit)
SERVED_K = 100       # the HTTP door's default most hits (Config.http_max_k): more, asked here
ERRORS: dict[str, type[EngramError]] = {
    cls.code: cls for cls in (NotFound, Invalid, Conflict, StoreError, ConfigError)}
OFF = ("1", "true", "yes", "on")
T = TypeVar("T")


def open_served(d: Door) -> Any:
    """A running server on the command's memory (``Served``), else the memory opened here."""
    server = served(d)
    if server is not None:
        info(d, f"asking the server at {server.url}")
        return server
    return open_memory(d)


def served(d: Door) -> Served | None:
    """The server this command should ask, or None (see the module's note)."""
    if d.local or os.environ.get("ENGRAMDB_NO_SERVER", "").strip().lower() in OFF:
        return None
    named = os.environ.get("ENGRAMDB_SERVER", "").strip()
    if named:
        return Served(d, named, os.environ.get("ENGRAMDB_API_KEY", ""), fallback=False)
    from engramdb import discovery
    from engramdb.config import Config, default_path

    config = Config.load()
    target = d.db or config.url or str(default_path())
    if target == ":memory:" or "://" in target:
        return None
    running = discovery.find(target)
    if running is None or (d.embedder and d.embedder != running.embedder):
        return None
    return Served(d, running.url, running.token, fallback=True,
                  user=d.user or config.user, agent=d.agent or config.agent)


class Served:
    """A server's answers as ``Memory``'s: the verbs the served commands use."""

    def __init__(self, d: Door, url: str, key: str, *, fallback: bool,
                 user: str | None = None, agent: str | None = None) -> None:
        self.d, self.url, self.key, self.fallback = d, url.rstrip("/"), key, fallback
        self.scope = {k: v for k, v in (("user", user or d.user), ("agent", agent or d.agent))
                      if v}
        self.local: Any = None   # the memory opened here once the server is found gone

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.local is not None:
            self.local.close()

    # ------------------------------------------------------------------ the verbs

    def recall(self, query: str, k: int = 5, *, track: bool = True, preset: str | None = None,
               kinds: list[str] | None = None, uri_prefix: str | None = None,
               keywords: list[str] | None = None, time_context: str | None = None,
               include_cold: bool = False) -> Hits:
        body = {"query": query, "k": k, "track": track, "preset": preset, "kinds": kinds,
                "uri_prefix": uri_prefix, "keywords": keywords, "time_context": time_context}
        if include_cold:
            body["include_cold"] = True
        if k > SERVED_K and self.fallback and self.local is None:
            self.local = open_memory(self.d)   # the server would refuse it: a long list here
        return self._either(
            lambda: decode.hits(self._ask("POST", "/v1/recall", body=body)),
            lambda m: m.recall(query, k=k, track=track, preset=preset, kinds=kinds,
                               uri_prefix=uri_prefix, keywords=keywords,
                               time_context=time_context, include_cold=include_cold))

    def abbreviate(self, ids: Sequence[str]) -> dict[str, str]:
        def ask() -> dict[str, str]:
            short: dict[str, str] = {}
            given = list(dict.fromkeys(ids))
            for start in range(0, len(given), SHORT_IDS):
                chunk = given[start:start + SHORT_IDS]
                short.update(self._ask("GET", "/v1/short-ids", [("id", i) for i in chunk])
                             ["short"])
            return short

        return self._either(ask, lambda m: m.abbreviate(list(ids)))

    def get(self, id_or_uri: str, *, reveal: bool = False) -> Record:
        from urllib.parse import quote

        flag = [("reveal", "true")] if reveal else []
        if "://" in id_or_uri:
            path, query = "/v1/memories/by-uri", [("uri", id_or_uri), *flag]
        else:
            path, query = f"/v1/memories/{quote(id_or_uri, safe='')}", flag
        return self._either(lambda: decode.record(self._ask("GET", path, query)),
                            lambda m: m.get(id_or_uri, reveal=reveal))

    def list(self, *, kind: list[str] | None = None, uri_prefix: str | None = None,
             since: datetime | None = None, until: datetime | None = None,
             layer: list[str] | None = None, limit: int | None = None,
             offset: int = 0) -> list[Record]:
        filters = [*(("kind", k) for k in kind or ()), *(("layer", x) for x in layer or ()),
                   *((name, value.isoformat()) for name, value in
                     (("since", since), ("until", until)) if value is not None),
                   *((("uri_prefix", uri_prefix),) if uri_prefix is not None else ())]

        def ask() -> list[Record]:
            page = int(self._ask("GET", "/v1/me")["limits"]["page"])
            found: list[Record] = []
            at: int | None = offset
            while at is not None and (limit is None or len(found) < limit):
                size = page if limit is None else min(page, limit - len(found))
                data = self._ask("GET", "/v1/memories",
                                 [*filters, ("limit", str(size)), ("offset", str(at))])
                found += [decode.record(item) for item in data["items"]]
                at = data["next_offset"]
            return found

        return self._either(ask, lambda m: list(m.list(
            kind=kind, uri_prefix=uri_prefix, since=since, until=until, layer=layer,
            limit=limit, offset=offset)))

    def remember(self, content: str, **fields: Any) -> WriteResult:
        body = {"content": content, **{k: v for k, v in fields.items() if v is not None}}
        return self._either(
            lambda: decode.write_result(self._ask("POST", "/v1/memories", body=body)),
            lambda m: m.remember(content, **fields))

    def stats(self) -> Stats:
        return self._either(lambda: decode.stats(self._ask("GET", "/v1/stats")),
                            lambda m: m.stats())

    # ------------------------------------------------------------------ the wire

    def _either(self, remote: Callable[[], T], here: Callable[[Any], T]) -> T:
        """The server's answer; if the server is gone, the memory opened here answers."""
        from .exchange import Unreachable

        if self.local is None:
            try:
                return remote()
            except Unreachable as exc:
                if not self.fallback:
                    raise StoreError(f"the server at {self.url} ($ENGRAMDB_SERVER) did not "
                                     f"answer: {exc}") from None
                info(self.d, f"the server at {self.url} did not answer ({exc}): opening the "
                     "file here")
                self.local = open_memory(self.d)
        return here(self.local)

    def _ask(self, method: str, path: str, query: list[tuple[str, str]] | None = None,
             body: dict[str, Any] | None = None) -> Any:
        """One request's JSON answer; an error answer raises its EngramError."""
        from urllib.parse import urlencode, urlsplit

        from .exchange import exchange

        url = urlsplit(self.url)
        target = url.path + path + "?" + urlencode([*self.scope.items(), *(query or [])])
        headers = {"Authorization": f"Bearer {self.key}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            status, raw = exchange(url, method, target, headers, payload)
        except OSError as exc:
            raise StoreError(f"the server at {self.url} failed to answer: {exc}") from None
        return self._answer(status, raw)

    def _answer(self, status: int, raw: bytes) -> Any:
        try:
            data = json.loads(raw)
        except ValueError:
            raise StoreError(f"the server at {self.url} answered {status} with no "
                             "JSON") from None
        error = data.get("error") if isinstance(data, dict) and status >= 400 else None
        if error is None and status < 400:
            return data
        code = str((error or {}).get("code", "error"))
        message = str((error or {}).get("message", f"status {status}"))
        if status == 401 and self.fallback:   # not the server that wrote the token
            from .exchange import Unreachable

            raise Unreachable(f"it refused the discovery file's token: {message}")
        exc = ERRORS.get(code, EngramError)(message)
        exc.code = code
        raise exc

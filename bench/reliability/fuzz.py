"""Property-based fuzzing (hypothesis) of the parsers that read what users and files give:
time expressions (text/timewindow.py), due dates (text/duedate.py), URIs (uri.py), Markdown
migrate (io/migrate.py), conversation files (io/messages.py + ingest), HTTP bodies (a real
uvicorn server), and the doors' limits (issue 29: deep JSON, huge integers, long URLs and
headers on `engramdb serve`; deep and over-long lines on `engramdb mcp`). Property, for each:
no exception but EngramError (a 4xx or a JSON-RPC error), and nothing written on a refusal.
Inputs mix English and Chinese time words, digits, punctuation and raw text.

    PYTHONPATH=src python bench/reliability/fuzz.py [--cases 10000] [--only uri,http,limits,mcp]

Prints each target's cases, refusals, failures and writes on refusal; exits 1 on any failure."""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import sys
import tempfile
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
WORDS = ["yesterday", "today", "tomorrow", "last", "next", "week", "month", "year", "ago",
         "in", "on", "by", "before", "after", "since", "until", "March", "Dec", "Monday",
         "friday", "days", "2026", "2026-02-30", "13/45", "0", "99999999999", "-1", "1st",
         "昨天", "今天", "明天", "上周", "下个月", "去年", "三天前", "月底", "周五", "星期一",
         "2月30日", "十二月", "前天", "后天", "号", "之前", "以来", "２０２６", "年", "月", "日",
         ":", "/", "-", ".", "..", "//", "\n", "\x00", "%2e", "://", "core", "🙂", " "]
phrases = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
texts = st.one_of(phrases, st.text(max_size=60), phrases.map(lambda s: s.replace(" ", "")))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12)
FIELDS = ["content", "kind", "uri", "at", "importance", "metadata", "query", "k", "preset",
          "role", "messages", "session", "budget", "title", "steps", "triggers", "tags"]
bodies = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS) | texts, json_values, max_size=6), json_values,
    st.fixed_dictionaries({"content": texts}, optional={
        "kind": st.sampled_from(["fact", "event", "preference", "feeling"]), "uri": texts,
        "importance": st.floats(), "at": texts}),
    st.fixed_dictionaries({"query": texts}, optional={"k": st.integers(-5, 2000),
                                                      "preset": texts}))
turns = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "system", "tool", "x"]), "content": texts},
    optional={"at": st.one_of(texts, st.just("2026-02-20T10:00:00Z"))})


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.cases = self.refused = self.written_on_refusal = 0
        self.failures: list[str] = []

    def run(self, fn: Callable[[], Any]) -> bool:
        """Run one case; True when it was refused with an EngramError."""
        from engramdb import EngramError

        self.cases += 1
        try:
            fn()
        except EngramError:
            self.refused += 1
            return True
        except Exception:  # noqa: BLE001 - the property under test
            if len(self.failures) < 5:
                self.failures.append(traceback.format_exc(limit=3))
            else:
                self.failures.append("...")
        return False

    def figures(self) -> dict[str, Any]:
        return {"target": self.name, "cases": self.cases, "refused": self.refused,
                "failures": len(self.failures), "written_on_refusal": self.written_on_refusal}


def _hyp(cases: int) -> Any:
    return settings(max_examples=cases, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def fuzz_timewindow(cases: int) -> Tally:
    from engramdb.text.timewindow import parse_window

    t = Tally("time expressions")

    @_hyp(cases)
    @given(texts)
    def case(text: str) -> None:
        t.run(lambda: parse_window(text, NOW))

    case()
    return t


def fuzz_duedate(cases: int) -> Tally:
    from engramdb.text.duedate import due_from_text

    t = Tally("due dates")

    @_hyp(cases)
    @given(texts)
    def case(text: str) -> None:
        t.run(lambda: due_from_text(text, NOW))

    case()
    return t


def fuzz_uri(cases: int) -> Tally:
    from engramdb.uri import validate_prefix, validate_uri

    t = Tally("URIs")

    def check(uri: str) -> None:
        out = validate_uri(uri)
        path = out.partition("://")[2]
        if any(s in ("", ".", "..") for s in path.split("/")) or any(
                ord(c) < 32 or 127 <= ord(c) < 160 for c in out) or validate_uri(out) != out:
            raise AssertionError(f"accepted {uri!r} as {out!r}")

    @_hyp(cases)
    @given(st.sampled_from(["core://", "event://", "knowledge://", "ftp://", ""]), texts)
    def case(domain: str, path: str) -> None:
        t.run(lambda: check(domain + path.replace(" ", "/")))
        t.run(lambda: validate_prefix(domain + path))

    case()
    return t


def fuzz_migrate(cases: int, tmp: Path) -> Tally:
    from engramdb.io.migrate import build_plan

    t = Tally("Markdown migrate")
    md = tmp / "MEMORY.md"
    lines = st.lists(st.one_of(texts, texts.map(lambda s: "- " + s), texts.map(lambda s: "# " + s),
                               st.just("```"), st.just("<!-- core://a/b -->")), max_size=8)

    @_hyp(cases)
    @given(lines)
    def case(parts: list[str]) -> None:
        md.write_text("\n".join(parts), encoding="utf-8", errors="surrogatepass")
        t.run(lambda: build_plan(md, NOW, 1 << 20))

    case()
    return t


def fuzz_messages(cases: int, tmp: Path) -> Tally:
    import engramdb
    from engramdb.io.messages import read_conversation

    t = Tally("conversation files")
    path = tmp / "conv.db"
    message = st.dictionaries(st.sampled_from(["role", "content", "at", "name", "id"]) | texts,
                              json_values, max_size=4)
    files = st.one_of(texts, st.lists(message, max_size=3).map(json.dumps),
                      st.lists(turns, min_size=1, max_size=4).map(json.dumps),
                      st.lists(turns, min_size=1, max_size=4).map(
                          lambda ms: "\n".join(json.dumps(m, ensure_ascii=False) for m in ms)),
                      st.lists(message, max_size=3).map(
                          lambda ms: "\n".join(json.dumps(m) for m in ms)),
                      json_values.map(json.dumps))
    with engramdb.open(path, embedder="hashing") as mem:
        me = mem.scope(user="fuzz")

        @_hyp(cases)
        @given(files)
        def case(text: str) -> None:
            before = _counts(path)
            if t.run(lambda: me.ingest(read_conversation(text).messages, extractor="rules")) \
                    and _counts(path) != before:
                t.written_on_refusal += 1

        case()
    return t


def fuzz_http(cases: int, tmp: Path) -> Tally:
    import httpx

    import engramdb
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
    from live_server import auth, new_key, thread_server

    t = Tally("HTTP bodies")
    path = tmp / "http.db"
    routes = ["/v1/memories", "/v1/memories/batch", "/v1/recall", "/v1/context", "/v1/ingest",
              "/v1/focus", "/v1/goals", "/v1/procedures", "/v1/links", "/v1/rules"]
    with engramdb.open(path, embedder="hashing") as mem:
        key = new_key(mem, "write")
        with thread_server(mem) as base, httpx.Client(base_url=base, headers=auth(key),
                                                      timeout=60) as client:

            def post(route: str, body: Any) -> None:
                r = client.post(route, content=json.dumps(body, allow_nan=True),
                                headers={"content-type": "application/json"})
                if r.status_code >= 500:
                    raise AssertionError(f"{route} {body!r}: {r.status_code} {r.text[:200]}")
                if r.status_code >= 400:
                    error = r.json()["error"]
                    assert set(error) == {"code", "message"}, r.text
                    from engramdb import Invalid
                    raise Invalid(error["message"])

            @_hyp(cases)
            @given(st.sampled_from(routes), bodies)
            def case(route: str, body: Any) -> None:
                before = _counts(path)
                if t.run(lambda: post(route, body)) and _counts(path) != before:
                    t.written_on_refusal += 1

            case()
    return t


DEEP_OPEN = ["[", '{"a":']   # nesting by arrays, and by objects
INT_QUERIES = ["/v1/memories?offset=", "/v1/memories?limit=", "/v1/review?k=",
               "/v1/timeline?limit=", "/v1/sleeps?limit=", "/v1/boot?budget=",
               "/v1/profile/check?budget=", "/v1/count?kind=fact&x="]


def deep(depth: int, opener: str) -> str:
    return opener * depth + ("]" * depth if opener == "[" else "1" + "}" * depth)


def _refused(status: int, body: bytes, what: str) -> None:
    """A 5xx fails the case; a 4xx in the error shape, in plain words, is a refusal."""
    from engramdb import Invalid

    if status >= 500 or status < 400:
        raise AssertionError(f"{what}: {status} {body[:200]!r}")
    error = json.loads(body)["error"]
    message = error["message"]
    assert set(error) == {"code", "message"}, body[:200]
    assert "\n" not in message and "pydantic" not in message and "http" not in message, message
    raise Invalid(message)


def fuzz_limits(cases: int, tmp: Path) -> Tally:
    """`engramdb serve` as users start it (issue 29): JSON nested up to 200,000 deep, integers
    up to 2**70 in the query, URLs and headers up to 300 KB. Each is a 4xx, and the server
    answers the next request."""
    import httpx

    import engramdb
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
    from live_server import auth, new_key, raw_request, serve_process

    t = Tally("HTTP limits")
    path = tmp / "limits.db"
    with engramdb.open(path, embedder="hashing") as mem:
        key = new_key(mem, "write")
    deep_bodies = st.tuples(st.just("deep"), st.sampled_from(["/v1/memories", "/v1/recall"]),
                            st.integers(1, 200_000), st.sampled_from(DEEP_OPEN))
    int_queries = st.tuples(st.just("int"), st.sampled_from(INT_QUERIES),
                            st.integers(-2**70, 2**70), st.just(""))
    heads = st.tuples(st.sampled_from(["url", "header", "headers"]), st.just(""),
                      st.integers(1_000, 300_000), st.just(""))
    with serve_process(path) as base, httpx.Client(base_url=base, headers=auth(key),
                                                  timeout=60) as client:
        secret = auth(key)["Authorization"].encode()

        def send(kind: str, where: str, n: int, opener: str) -> None:
            if kind == "deep":
                inner = deep(n, opener)
                body = inner if where != "/v1/memories" else \
                    '{"content": "I moved to Oslo", "metadata": {"x": ' + inner + "}}"
                r = client.post(where, content=body, headers={"content-type": "application/json"})
                status, answer = r.status_code, r.content
            elif kind == "int":
                r = client.get(where + str(n))
                status, answer = r.status_code, r.content
            else:
                target = b"/v1/stats" + (b"?q=" + b"x" * n if kind == "url" else b"")
                extra = {"header": b"X-Big: " + b"y" * n + b"\r\n",
                         "headers": b"".join(b"X-%d: z\r\n" % i for i in range(n // 8))}
                status, answer = raw_request(base, b"GET " + target + b" HTTP/1.1\r\nHost: a\r\n"
                                      b"Authorization: " + secret + b"\r\n"
                                      + extra.get(kind, b"") + b"\r\n")
            if client.get("/v1/stats").status_code != 200:
                raise AssertionError(f"{kind} {n}: the server stopped answering")
            if status != 200:
                _refused(status, answer, f"{kind} {where} {n}")

        @_hyp(cases)
        @given(st.one_of(deep_bodies, int_queries, heads))
        def case(request: tuple[str, str, int, str]) -> None:
            before = _counts(path)
            if t.run(lambda: send(*request)) and _counts(path) != before:
                t.written_on_refusal += 1

        case()
    return t


def fuzz_mcp(cases: int, tmp: Path) -> Tally:
    """`engramdb mcp` over stdio (issue 29): lines nested up to 200,000 deep, lines over the
    size limit (100 KB here), JSON of any shape. Each line that is refused gets one JSON-RPC
    error (-32700 or -32600), and a ping after it is answered."""
    import os
    import subprocess

    from engramdb import Invalid

    t = Tally("MCP stdio lines")
    limit = 100_000
    proc = subprocess.Popen(
        [sys.executable, "-m", "engramdb.cli", "mcp", "--db", str(tmp / "mcp.db"), "--create",
         "--embedder", "hashing"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env={**os.environ, "ENGRAMDB_THREADS": "1",
                                        "ENGRAMDB_MCP_MAX_MESSAGE_BYTES": str(limit)})
    assert proc.stdin is not None and proc.stdout is not None
    pings = iter(range(10**6, 10**7))

    def send(line: bytes) -> list[dict[str, Any]]:
        """The answers to ``line`` and then a ping (the ping's answer not included)."""
        assert proc.stdin is not None and proc.stdout is not None
        ping = next(pings)
        proc.stdin.write(line + b"\n" + json.dumps({"jsonrpc": "2.0", "id": ping,
                                                     "method": "ping"}).encode() + b"\n")
        proc.stdin.flush()
        answers = []
        while True:
            raw = proc.stdout.readline()
            if not raw:
                raise AssertionError(f"the server exited after {line[:80]!r}")
            answer = json.loads(raw)
            if answer.get("id") == ping:
                return answers
            answers.append(answer)

    def check(line: bytes) -> None:
        errors = [a["error"] for a in send(line) if "error" in a]
        for error in errors:
            message = error["message"]
            assert error["code"] in (-32700, -32600), error
            assert "\n" not in message and "pydantic" not in message, message
        if errors:
            raise Invalid(errors[0]["message"])

    send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "0"}}}).encode()
         + b'\n{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    request = b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":'
    lines = st.one_of(
        st.tuples(st.integers(1, 200_000), st.sampled_from(DEEP_OPEN)).map(
            lambda d: request + deep(*d).encode() + b"}}"),
        st.integers(limit - 100, 3 * limit).map(lambda n: request + b'"' + b"y" * n + b'"}}'),
        json_values.map(lambda v: json.dumps(v).encode()))
    try:
        @_hyp(cases)
        @given(lines)
        def case(line: bytes) -> None:
            t.run(lambda: check(line))

        case()
    finally:
        with contextlib.suppress(OSError):   # the server may be gone: a failure, counted
            proc.stdin.close()
        proc.wait(60)
    return t


def _counts(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT (SELECT count(*) FROM memories), "
                          "(SELECT count(*) FROM events)").fetchone()
    finally:
        db.close()


TARGETS = {"timewindow": fuzz_timewindow, "duedate": fuzz_duedate, "uri": fuzz_uri,
           "migrate": fuzz_migrate, "messages": fuzz_messages, "http": fuzz_http,
           "limits": fuzz_limits, "mcp": fuzz_mcp}


def run(cases: int, only: list[str] | None = None) -> list[Tally]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in TARGETS.items():
            if only and name not in only:
                continue
            needs_tmp = fn.__code__.co_argcount == 2
            out.append(fn(cases, Path(tmp)) if needs_tmp else fn(cases))  # type: ignore[call-arg]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--only", default="")
    args = ap.parse_args(argv)
    broken = False
    for tally in run(args.cases, [s for s in args.only.split(",") if s] or None):
        print(json.dumps(tally.figures(), ensure_ascii=False), flush=True)
        for failure in tally.failures[:3]:
            print(failure)
        broken |= bool(tally.failures) or tally.written_on_refusal > 0
    print("FAIL" if broken else "PASS")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

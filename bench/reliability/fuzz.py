"""Property-based fuzzing (hypothesis) of the parsers that read what users and files give:
time expressions (text/timewindow.py), due dates (text/duedate.py), URIs (uri.py), Markdown
migrate (io/migrate.py), conversation files (io/messages.py + ingest) and HTTP bodies (a real
uvicorn server). Property, for each: no exception but EngramError, and nothing written on a
refusal. Inputs mix English and Chinese time words, digits, punctuation and raw text.

    PYTHONPATH=src python bench/reliability/fuzz.py [--cases 10000] [--only uri,http]

Prints each target's cases, refusals, failures and writes on refusal; exits 1 on any failure."""

from __future__ import annotations

import argparse
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


def _counts(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT (SELECT count(*) FROM memories), "
                          "(SELECT count(*) FROM events)").fetchone()
    finally:
        db.close()


TARGETS = {"timewindow": fuzz_timewindow, "duedate": fuzz_duedate, "uri": fuzz_uri,
           "migrate": fuzz_migrate, "messages": fuzz_messages, "http": fuzz_http}


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

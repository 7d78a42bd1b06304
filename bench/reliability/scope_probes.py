"""Cross-scope probes over every read path of every door: the library (alice's scoped view),
the CLI (``--user alice``), the HTTP API (alice's read and write keys) and MCP over HTTP with
``--keys --scope-per-call`` (alice's write key). Bob owns a memory holding SECRET (with a URI,
a link, a goal, a procedure and a session turn that hold it too); every probe names bob's
memory by id, URI, session or goal, with and without ``user=bob``. A leak is SECRET in any
answer, or bob's memory id in an answer that is not an error (an error may echo the id it was
given). Property: 0 leaks, and bob's memory unchanged.

    PYTHONPATH=src python bench/reliability/scope_probes.py [--doors library,cli,http,mcp]

Prints the probes and leaks of each door; exits 1 on any leak."""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SECRET = "zebra7731"            # only in bob's data; no probe sends it
QUERY = "Bob Lima door code"    # words of bob's memory (not the secret)
TESTS = Path(__file__).resolve().parents[2] / "tests"


@dataclass
class Bob:
    id: str
    uri: str
    other: str
    session: str
    goal: str


@dataclass
class Tally:
    door: str
    probes: int = 0
    errors: int = 0
    leaks: list[str] = field(default_factory=list)

    def seen(self, what: str, text: str, failed: bool, bob: Bob) -> None:
        self.probes += 1
        self.errors += failed
        if SECRET in text or (bob.id in text and not failed) or \
                (bob.other in text and not failed):
            self.leaks.append(f"{what}: {text[:200]}")

    def figures(self) -> dict[str, Any]:
        return {"door": self.door, "probes": self.probes, "refused": self.errors,
                "leaks": len(self.leaks)}


def setup(db: Path) -> Bob:
    import engramdb

    with engramdb.open(db, embedder="hashing") as mem:
        bob = mem.scope(user="bob")
        rec = bob.remember(f"Bob lives in Lima, door code {SECRET}", kind="fact",
                           uri="core://home").memory
        other = bob.remember(f"Bob's spare key {SECRET} is under the mat", kind="fact").memory
        bob.link(rec.id, other.id, "related")
        goal = bob.goal_start(f"Change the door code {SECRET}")
        bob.add_procedure(f"Open the door {SECRET}", [f"type {SECRET}"], ["door", "Lima"])
        bob.session("bob-chat").add("user", f"my door code is {SECRET} in Lima")
        bob.learn_from_mistake(f"never say the code {SECRET}", "said it")
        alice = mem.scope(user="alice")
        alice.remember("Alice lives in Lima too, near the door shop", kind="fact",
                       uri="core://home")
        alice.session("alice-chat").add("user", "Lima is lovely")
    return Bob(rec.id, "core://home", other.id, "bob-chat", goal.id)


def _text(value: Any) -> str:
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    elif isinstance(value, list):
        value = [v.to_dict() if hasattr(v, "to_dict") else v for v in value]
    return json.dumps(value, ensure_ascii=False, default=repr)


def library_calls(b: Bob) -> list[tuple[str, Callable[[Any], Any]]]:
    """(name, call on alice's scoped view) for every read verb, given bob's references."""
    refs = [b.id, b.uri, b.other]
    calls: list[tuple[str, Callable[[Any], Any]]] = []
    for ref in refs:
        calls += [(f"{verb}({ref})", lambda m, v=verb, r=ref: getattr(m, v)(r)) for verb in (
            "get", "history", "explain", "links", "related", "sources", "strength_curve",
            "lineage", "neighbourhood")]
        calls.append((f"get({ref}, reveal)", lambda m, r=ref: m.get(r, reveal=True)))
    calls += [
        ("recall", lambda m: m.recall(QUERY, 20, track=False)),
        ("recall reveal", lambda m: m.recall(QUERY, 20, track=False, reveal=True)),
        ("recall_path", lambda m: m.recall_path("core://", 2)),
        ("list", lambda m: m.list(layer=["core", "archived", "deleted"])),
        ("list uri", lambda m: m.list(uri_prefix="core://")),
        ("count", lambda m: m.count()), ("boot", lambda m: m.boot()),
        ("context", lambda m: m.context(QUERY, track=False)),
        ("context session", lambda m: m.context(QUERY, session=b.session, track=False)),
        ("focus", lambda m: m.focus(QUERY, track=False)),
        ("timeline", lambda m: m.timeline()), ("sleep_log", lambda m: m.sleep_log()),
        ("goals", lambda m: m.goals()), ("active_goal", lambda m: m.active_goal()),
        ("procedures", lambda m: m.procedures()),
        ("triggered", lambda m: m.triggered_procedures(QUERY)),
        ("sessions", lambda m: m.sessions()),
        ("session", lambda m: m.session(b.session, create=False).to_dict()),
        ("due_for_review", lambda m: m.due_for_review()),
        ("profile_check", lambda m: m.profile_check()), ("stats", lambda m: m.stats()),
        ("agents_md", lambda m: m.agents_md()),
        ("export_memory_md", lambda m: m.export_memory_md(uris=True)),
        ("export", lambda m: _export(m)), ("export reveal", lambda m: _export(m, True)),
    ]
    return calls


def _export(m: Any, reveal: bool = False) -> str:
    buf = io.StringIO()
    m.export(buf, reveal=reveal)
    return buf.getvalue()


def probe_library(db: Path, b: Bob) -> Tally:
    import engramdb
    from engramdb import EngramError

    t = Tally("library")
    with engramdb.open(db, embedder="hashing") as mem:
        alice = mem.scope(user="alice")
        for name, call in library_calls(b):
            try:
                t.seen(name, _text(call(alice)), False, b)
            except EngramError as exc:
                t.seen(name, str(exc), True, b)
    return t


CLI_READS = [["get", "{id}"], ["get", "{uri}"], ["get", "{id}", "--reveal"], ["history", "{id}"],
             ["explain", "{id}"], ["links", "{id}"], ["related", "{id}"], ["sources", "{id}"],
             ["recall", QUERY, "--no-track"], ["list", "--layer", "deleted"],
             ["list", "--uri-prefix", "core://"], ["path", "{uri}"], ["boot"],
             ["context", QUERY], ["focus", QUERY], ["status"], ["export"],
             ["export", "--reveal"], ["export", "--format", "memory-md"],
             ["export", "--format", "agents-md"], ["goal", "list"], ["procedure", "list"],
             ["procedure", "triggered", QUERY], ["session", "list"],
             ["session", "show", "{session}"], ["review"], ["profile"], ["check-uris"]]


def probe_cli(db: Path, b: Bob, limit: int | None = None) -> Tally:
    from typer.testing import CliRunner

    from engramdb.cli import app

    t = Tally("cli")
    runner = CliRunner()
    fill = {"id": b.id, "uri": b.uri, "session": b.session}
    for argv in CLI_READS[:limit]:
        args = [a.format(**fill) for a in argv]
        result = runner.invoke(app, [*args, "--db", str(db), "--embedder", "hashing",
                                     "--user", "alice", "--json"], env={"COLUMNS": "200"})
        out = result.output + (result.stderr if result.stderr_bytes is not None else "")
        t.seen(" ".join(args), out, result.exit_code != 0, b)
    return t


def _http_requests(spec: dict[str, Any], b: Bob) -> list[tuple[str, str, dict[str, Any],
                                                               Any]]:
    """(method, path, query, body) for every GET route and the POST routes that read."""
    fill = {"memory_id": b.id, "session_id": b.session, "goal_id": b.goal, "ref": "x",
            "name": "x", "procedure_id": b.id}
    out = []
    for path, ops in spec["paths"].items():
        if "get" not in ops:
            continue
        params = {p["name"] for p in ops["get"].get("parameters", []) if p["in"] == "query"}
        query: dict[str, Any] = {"uri": b.uri} if "uri" in params else {}
        if "reveal" in params:
            query["reveal"] = "true"
        out.append(("GET", path.format(**fill), query, None))
    for path, body in (("/v1/recall", {"query": QUERY, "k": 20, "track": False}),
                       ("/v1/recall", {"query": QUERY, "k": 20, "reveal": True}),
                       ("/v1/context", {"query": QUERY, "session": b.session}),
                       ("/v1/focus", {"query": QUERY}),
                       ("/v1/procedures/triggered", {"query": QUERY})):
        out.append(("POST", path, {}, body))
    return out


def probe_http(db: Path, b: Bob) -> Tally:
    import httpx

    import engramdb
    from engramdb.server import create_app

    sys.path.insert(0, str(TESTS))
    from live_server import auth, new_key, thread_server

    t = Tally("http")
    with engramdb.open(db, embedder="hashing") as mem:
        keys = [new_key(mem, role, user="alice", agent="default") for role in ("read", "write")]
        spec = create_app(mem).openapi()
        with thread_server(mem) as base, httpx.Client(base_url=base, timeout=60) as client:
            for key, (method, path, query, body), named in itertools.product(
                    keys, _http_requests(spec, b), (False, True)):
                q = query | ({"user": "bob"} if named else {})
                r = client.request(method, path, params=q, json=body, headers=auth(key))
                t.seen(f"{method} {path} {q}", r.text, r.status_code >= 400, b)
    return t


def probe_mcp(db: Path, b: Bob, tmp: Path) -> Tally:
    import anyio

    sys.path.insert(0, str(TESTS))
    from test_mcp import http_server, keyed, make_key

    t = Tally("mcp")
    alice = make_key(db, "write")[1]

    async def run(url: str) -> None:
        async with keyed(url, alice) as c:
            for tool in (await c.list_tools()).tools:
                for args in _mcp_calls(tool.input_schema, b, tmp):
                    r = await c.call_tool(tool.name, args)
                    seen = json.dumps([x.model_dump() for x in r.content], ensure_ascii=False)
                    seen += json.dumps(r.structured_content, ensure_ascii=False)
                    t.seen(f"{tool.name} {args}", seen, bool(r.is_error), b)
            for uri in (f"engramdb://memory/{b.id}", b.uri, f"engramdb://memory/{b.other}"):
                try:
                    res = await c.read_resource(uri)
                    t.seen(uri, json.dumps(res.model_dump(), ensure_ascii=False), False, b)
                except Exception as exc:  # noqa: BLE001 - an error answer is a fine answer
                    t.seen(uri, str(exc), True, b)

    with http_server(db, tmp / "mcp.log", "--keys", "--scope-per-call") as url:
        anyio.run(run, url)
    return t


def _mcp_value(name: str, schema: dict[str, Any], b: Bob, tmp: Path) -> Any:
    kind = schema.get("type")
    if name in ("id", "id_or_uri", "memory_id", "a", "b", "ids"):
        return [b.id] if kind == "array" else b.id
    if name in ("goal_id",):
        return b.goal
    if name in ("session", "session_id"):
        return b.session
    if name in ("uri", "prefix", "uri_or_prefix", "uri_prefix"):
        return b.uri
    if name in ("path", "file", "target", "source"):
        return str(tmp / "probe.md")
    if name == "query":
        return QUERY
    if name == "reveal":
        return True
    return {"integer": 1, "number": 0.5, "boolean": False, "array": ["Lima"],
            "object": {}}.get(str(kind), "Lima")


def _mcp_calls(schema: dict[str, Any], b: Bob, tmp: Path) -> list[dict[str, Any]]:
    props: dict[str, Any] = schema.get("properties", {})
    enums = {n: s["enum"] for n, s in props.items() if "enum" in s}
    base = {n: _mcp_value(n, s, b, tmp) for n, s in props.items()
            if n not in enums and n not in ("user", "agent")}
    out = []
    for values in itertools.product(*enums.values()) if enums else [()]:
        args = base | dict(zip(enums, values, strict=True))
        out += [args, args | {"user": "bob"}] if "user" in props else [args]
    return out


def bob_unchanged(db: Path, b: Bob) -> bool:
    import engramdb

    with engramdb.open(db, embedder="hashing") as mem:
        rec = mem.get(b.id, user="bob")
        return SECRET in rec.content and rec.version == 1 and rec.layer.value == "core"


def run(doors: list[str], cli_limit: int | None = None) -> tuple[list[Tally], bool]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "probes.db"
        b = setup(db)
        out = []
        for door in doors:
            if door == "library":
                out.append(probe_library(db, b))
            elif door == "cli":
                out.append(probe_cli(db, b, cli_limit))
            elif door == "http":
                out.append(probe_http(db, b))
            elif door == "mcp":
                out.append(probe_mcp(db, b, Path(tmp)))
        return out, bob_unchanged(db, b)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doors", default="library,cli,http,mcp")
    args = ap.parse_args(argv)
    tallies, unchanged = run([d for d in args.doors.split(",") if d])
    for t in tallies:
        print(json.dumps(t.figures()), flush=True)
        for leak in t.leaks[:5]:
            print("LEAK", leak)
    total = sum(t.probes for t in tallies)
    leaks = sum(len(t.leaks) for t in tallies)
    print(f"probes: {total}, leaks: {leaks}, bob unchanged: {unchanged}")
    ok = leaks == 0 and unchanged
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
